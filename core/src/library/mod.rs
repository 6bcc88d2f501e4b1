//! The workload library: small versions of what the five papers run, written in the kernel
//! language (`docs/language.md`), one `.cu` file per workload.
//!
//! Every workload has one size knob: a `#define` whose value the app and the CLI may override
//! (within `min..=max`) to trade fidelity for simulation time. Each file's header comment says
//! what it mimics and which paper uses it.
//!
//! # Adding a workload
//! 1. Write `library/<id>.cu`: a header comment (what it mimics, which paper, what the knob
//!    scales), the kernels, and the host block.
//! 2. Add a row to its category's file (`reuse.rs`, `dynamic.rs`, `sensitivity.rs`,
//!    `concurrent.rs`, `interference.rs`).
//! 3. Add its reference computation to `core/tests/library_<category>.rs`, which checks every
//!    workload's results at its smallest size against plain Rust.

use alloc::string::String;
use alloc::vec::Vec;
use serde::Serialize;

use crate::config::GpuConfig;
use crate::kernel::{compile, CompileOptions};
use crate::workload::Workload;

/// Which papers' experiments a workload stands in for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub enum Category {
    /// Iterated kernels whose blocks re-read what the same block index touched last time
    /// (inter-kernel reuse-aware TB scheduling).
    InterKernelReuse,
    /// Kernels that launch child grids from the device (LaPerm).
    DynamicParallelism,
    /// Kernels whose speed depends on how many warps share the L1 (CCWS).
    CacheSensitivity,
    /// Compute- and memory-intensive kernels to run side by side (concurrent kernel execution).
    ConcurrentKernels,
    /// Kernels whose warps evict each other's lines (CIAO).
    CacheInterference,
}

impl Category {
    /// A heading for menus.
    pub fn label(self) -> &'static str {
        match self {
            Category::InterKernelReuse => "Inter-kernel reuse",
            Category::DynamicParallelism => "Dynamic parallelism",
            Category::CacheSensitivity => "Cache sensitivity",
            Category::ConcurrentKernels => "Concurrent kernels",
            Category::CacheInterference => "Cache interference",
        }
    }

    /// The machine preset of the paper the category's workloads come from (its baseline).
    pub fn paper_preset(self) -> &'static str {
        match self {
            Category::InterKernelReuse => "ikra-denovo",
            Category::DynamicParallelism => "laperm-k20c",
            Category::CacheSensitivity => "ccws-fermi",
            Category::ConcurrentKernels => "cke-maxwell",
            Category::CacheInterference => "fermi-gtx480",
        }
    }
}

/// The knob that scales a workload.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct SizeKnob {
    /// The `#define` it sets.
    pub define: &'static str,
    /// Its value in the file.
    pub default: u32,
    /// Smallest value that makes sense (also what the tests use).
    pub min: u32,
    /// Largest value allowed.
    pub max: u32,
    /// What it counts, for a person ("vertices", "rows").
    pub unit: &'static str,
}

/// One workload of the library.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct LibraryWorkload {
    /// Stable id (used in share links and on the command line).
    pub id: &'static str,
    /// Name shown in menus.
    pub title: &'static str,
    /// Where it belongs.
    pub category: Category,
    /// One sentence: what it mimics.
    pub summary: &'static str,
    /// Its size knob.
    pub size: SizeKnob,
    /// The kernel-language source.
    pub source: &'static str,
}

impl LibraryWorkload {
    /// The `#define` override that sets the size knob to `value`.
    pub fn size_define(&self, value: u32) -> (String, String) {
        (self.size.define.into(), alloc::format!("{value}"))
    }
}

/// Declares a category's workloads: `id, title, Category, "DEFINE" = default in min..=max "unit",
/// "summary";` per row; the source is `<id>.cu` beside the file.
macro_rules! workloads {
    ($( $id:literal, $title:literal, $category:ident, $define:literal = $default:literal in $min:literal..=$max:literal $unit:literal, $summary:literal; )*) => {
        &[
            $( $crate::library::LibraryWorkload {
                id: $id,
                title: $title,
                category: $crate::library::Category::$category,
                summary: $summary,
                size: $crate::library::SizeKnob { define: $define, default: $default, min: $min, max: $max, unit: $unit },
                source: include_str!(concat!($id, ".cu")),
            }, )*
        ]
    };
}

mod concurrent;
mod dynamic;
mod interference;
mod reuse;
mod sensitivity;

/// Every workload, by category in menu order.
pub const GROUPS: &[&[LibraryWorkload]] =
    &[reuse::WORKLOADS, dynamic::WORKLOADS, sensitivity::WORKLOADS, concurrent::WORKLOADS, interference::WORKLOADS];

/// Every workload in menu order.
pub fn all() -> impl Iterator<Item = &'static LibraryWorkload> {
    GROUPS.iter().flat_map(|g| g.iter())
}

/// The workload with `id`.
pub fn by_id(id: &str) -> Option<&'static LibraryWorkload> {
    all().find(|w| w.id == id)
}

/// The ids, for error messages.
pub fn ids() -> Vec<&'static str> {
    all().map(|w| w.id).collect()
}

/// The program `id` names, compiled for `config`: one library workload, or several joined by
/// `+` (`backprop+kmeans`) run side by side, each in streams of its own
/// ([`Workload::co_run`]). `size` sets a single workload's knob (a co-run's parts keep their
/// defaults); `defines` go to every part (a name one part does not use changes nothing there).
/// The error names the part and the position of a compile error.
pub fn program(
    id: &str,
    size: Option<u32>,
    defines: &[(String, String)],
    config: &GpuConfig,
) -> Result<Workload, String> {
    let part_ids: Vec<&str> = id.split('+').map(str::trim).collect();
    let entries: Vec<&LibraryWorkload> = part_ids
        .iter()
        .map(|part| {
            by_id(part).ok_or_else(|| alloc::format!("no library workload {part}; choose one of {}", ids().join(", ")))
        })
        .collect::<Result<_, _>>()?;
    if let (Some(size), [entry]) = (size, entries.as_slice()) {
        if size < entry.size.min || size > entry.size.max {
            return Err(alloc::format!(
                "size {size}: {} takes {} from {} to {}",
                entry.id,
                entry.size.unit,
                entry.size.min,
                entry.size.max
            ));
        }
    } else if size.is_some() {
        return Err(alloc::format!(
            "{id} runs {} programs side by side: set each one's size knob with a define instead of a size",
            entries.len()
        ));
    }
    let mut parts = Vec::new();
    for entry in &entries {
        let mut all = Vec::new();
        if let Some(size) = size {
            all.push(entry.size_define(size));
        }
        all.extend(defines.iter().cloned());
        let program =
            compile(entry.source, &CompileOptions { config, defines: &all, optimize: true }).map_err(|d| {
                d.first().map_or_else(String::new, |d| {
                    alloc::format!("{} does not compile: {}:{}: {}", entry.id, d.span.line, d.span.column, d.message)
                })
            })?;
        parts.push((String::from(entry.id), program.workload));
    }
    if parts.len() == 1 {
        return Ok(parts.remove(0).1);
    }
    Workload::co_run(parts).map_err(|e| alloc::format!("{id}: {e}"))
}
