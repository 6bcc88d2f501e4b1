//! What the page's menus offer, read from the engine's registries: the workload library,
//! machine presets and scheduling policies. Built on request, so a new registry entry appears
//! in the app by itself.

use warpscope_core::config::presets;
use warpscope_core::library::{self, LibraryWorkload};
use warpscope_core::sched::tb::TB_POLICIES;
use warpscope_core::sched::warp::{MEMORY_GATES, WARP_POLICIES};
use warpscope_core::sched::PolicyInfo;

use crate::protocol::{Catalog, CatalogMachine, CatalogParam, CatalogPolicy, CatalogWorkload};

/// Everything the menus list, in menu order.
pub fn catalog() -> Catalog {
    Catalog {
        workloads: library::all().map(workload).collect(),
        machines: presets::ALL
            .iter()
            .map(|p| CatalogMachine {
                id: p.id.into(),
                label: p.label.into(),
                source: p.source.into(),
                config: (p.build)(),
            })
            .collect(),
        tb_policies: TB_POLICIES.iter().map(policy).collect(),
        warp_policies: WARP_POLICIES.iter().map(policy).collect(),
        memory_gates: MEMORY_GATES.iter().map(policy).collect(),
    }
}

fn workload(w: &LibraryWorkload) -> CatalogWorkload {
    CatalogWorkload {
        id: w.id.into(),
        title: w.title.into(),
        category: w.category.label().into(),
        summary: w.summary.into(),
        size_define: w.size.define.into(),
        size_default: w.size.default,
        size_min: w.size.min,
        size_max: w.size.max,
        size_unit: w.size.unit.into(),
        source: w.source.into(),
    }
}

/// A registry entry as the menus list it.
pub fn policy(p: &PolicyInfo) -> CatalogPolicy {
    CatalogPolicy {
        id: p.id.into(),
        label: p.label.into(),
        description: p.description.into(),
        params: p
            .params
            .iter()
            .map(|q| CatalogParam {
                name: q.name.into(),
                label: q.label.into(),
                unit: q.unit.into(),
                description: q.description.into(),
                min: q.min,
                max: q.max,
                default: q.default,
            })
            .collect(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_catalog_lists_every_workload_preset_and_policy_in_menu_order() {
        let c = catalog();
        let ids: Vec<&str> = c.workloads.iter().map(|w| w.id.as_str()).collect();
        assert_eq!(ids, library::ids());
        assert_eq!(ids.len(), 46);
        let vecadd = c.workloads.iter().find(|w| w.id == "vecadd").unwrap();
        assert_eq!((vecadd.size_define.as_str(), vecadd.size_default), ("N", 65536));
        assert!(vecadd.source.contains("__global__ void vecadd"));
        assert_eq!(vecadd.category, "Inter-kernel reuse");
        let machines: Vec<&str> = c.machines.iter().map(|m| m.id.as_str()).collect();
        assert_eq!(machines, presets::ALL.iter().map(|p| p.id).collect::<Vec<_>>());
        for m in &c.machines {
            assert_eq!(m.config, (presets::by_id(&m.id).unwrap().build)());
        }
        let tb: Vec<&str> = c.tb_policies.iter().map(|p| p.id.as_str()).collect();
        let warp: Vec<&str> = c.warp_policies.iter().map(|p| p.id.as_str()).collect();
        assert!(tb.contains(&"rr") && warp.contains(&"gto") && warp.contains(&"lrr"));
        assert_eq!((tb.len(), warp.len()), (TB_POLICIES.len(), WARP_POLICIES.len()));
        let gates: Vec<&str> = c.memory_gates.iter().map(|p| p.id.as_str()).collect();
        assert_eq!(gates, ["smil", "dmil", "rbmi", "qbmi", "smk-w"]);
    }
}
