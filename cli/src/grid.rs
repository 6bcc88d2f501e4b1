//! The grid of `warpscope sweep`: the cartesian product of its axes, numbered in one fixed
//! order, checked whole before anything runs, and split into shards for a job array.
//!
//! The axes nest in flag order, the last one fastest: workloads, sizes, each `-D` name in the
//! order given, machines, each `--set` path in the order given, thread-block policies, warp
//! policies. Point `i` is `i` written in that mixed radix, so a grid always numbers its points
//! the same way, on any machine.

use warpscope_core::kernel;
use warpscope_core::library;
use warpscope_core::sched::tb::TbPolicy;
use warpscope_core::sched::warp::WarpPolicy;

/// Every axis of a sweep, each holding at least one value.
#[derive(Debug)]
pub struct Grid {
    /// Library workload ids, or co-runs `a+b`.
    pub workloads: Vec<String>,
    /// Size-knob values; `None` is each workload's default.
    pub sizes: Vec<Option<u32>>,
    /// One axis per `-D NAME=V1,V2,...`: the name and its values.
    pub defines: Vec<(String, Vec<String>)>,
    /// Machine preset ids.
    pub gpus: Vec<String>,
    /// One axis per `--set PATH=V1,V2,...`: the path and its values.
    pub settings: Vec<(String, Vec<String>)>,
    /// Thread-block policy specs.
    pub tbs: Vec<String>,
    /// Warp policy specs.
    pub warps: Vec<String>,
    /// Each run's cycle limit.
    pub max_cycles: u64,
}

/// One run of the grid.
#[derive(Debug, PartialEq, Eq)]
pub struct Point<'g> {
    pub index: usize,
    pub workload: &'g str,
    pub size: Option<u32>,
    /// `(name, value)` for each `-D` axis, in flag order.
    pub defines: Vec<(&'g str, &'g str)>,
    pub gpu: &'g str,
    /// `(path, value)` for each `--set` axis, in flag order.
    pub settings: Vec<(&'g str, &'g str)>,
    pub tb: &'g str,
    pub warp: &'g str,
}

impl Point<'_> {
    /// The defines as the compiler takes them.
    pub fn define_pairs(&self) -> Vec<(String, String)> {
        self.defines.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect()
    }

    /// The settings as `--set` takes them (`PATH=VALUE`).
    pub fn set_flags(&self) -> Vec<String> {
        self.settings.iter().map(|(path, value)| format!("{path}={value}")).collect()
    }
}

/// Values of a repeatable flag, each occurrence also comma-separated: `--gpu a,b --gpu c`.
pub fn list(values: &[String]) -> Vec<String> {
    values.iter().flat_map(|v| v.split(',')).map(|v| v.trim().to_string()).filter(|v| !v.is_empty()).collect()
}

/// Policy specs, listed as [`list`] does, except that a piece `NAME=VALUE` with no policy id
/// is the previous spec's next parameter: `ccws:k_throttle=4,vta_entries=8,gto` is two specs.
pub fn policy_list(values: &[String]) -> Vec<String> {
    let mut specs: Vec<String> = Vec::new();
    for value in values {
        let mut first = true;
        for piece in value.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            match specs.last_mut() {
                Some(last) if !first && piece.contains('=') && !piece.contains(':') => {
                    last.push(',');
                    last.push_str(piece);
                }
                _ => specs.push(piece.to_string()),
            }
            first = false;
        }
    }
    specs
}

/// Refuses a value listed twice: it would only run the same points again. The message names
/// the value after `before` (`--gpu `, `--set l1.ways=`).
fn unique(before: &str, values: &[String]) -> Result<(), String> {
    for (i, v) in values.iter().enumerate() {
        if values[..i].contains(v) {
            return Err(format!("{before}{v}: given twice"));
        }
    }
    Ok(())
}

/// Every combination of the named axes' values, as `(name, value)` pairs in axis order, the
/// last axis fastest.
fn combinations(axes: &[(String, Vec<String>)]) -> Vec<Vec<(&str, &str)>> {
    axes.iter().fold(vec![Vec::new()], |done, (name, values)| {
        done.iter()
            .flat_map(|pairs| values.iter().map(move |v| [pairs.as_slice(), &[(name.as_str(), v.as_str())]].concat()))
            .collect()
    })
}

/// Each named axis's value at `digits` (one digit per axis).
fn pick<'g>(axes: &'g [(String, Vec<String>)], digits: &[usize]) -> Vec<(&'g str, &'g str)> {
    axes.iter().zip(digits).map(|((name, values), &d)| (name.as_str(), values[d].as_str())).collect()
}

/// The axes of a flag written `NAME=V1,V2,...` once per axis (`--set`, `-D`): each name and
/// its values, in flag order. `what` names the left-hand side in messages.
fn named_axes(flag: &str, what: &str, given: &[String]) -> Result<Vec<(String, Vec<String>)>, String> {
    let mut axes: Vec<(String, Vec<String>)> = Vec::new();
    for text in given {
        let Some((name, values)) = text.split_once('=') else {
            return Err(format!("{flag} {text}: write {what}=VALUE or {what}=V1,V2,..."));
        };
        let name = name.trim().to_string();
        if name.is_empty() {
            return Err(format!("{flag} {text}: write the {} before the `=`", what.to_lowercase()));
        }
        let values = list(&[values.to_string()]);
        if values.is_empty() {
            return Err(format!("{flag} {text}: no values"));
        }
        if axes.iter().any(|(n, _)| *n == name) {
            return Err(format!("{flag} {text}: {name} is set twice; list its values in one {flag}"));
        }
        unique(&format!("{flag} {name}="), &values)?;
        axes.push((name, values));
    }
    Ok(axes)
}

impl Grid {
    /// Reads the axes from the flags' values (each repeatable and comma-separated); an absent
    /// size, machine or policy flag is one axis value, `run`'s default.
    #[allow(clippy::too_many_arguments)]
    pub fn parse(
        workloads: &[String],
        sizes: &[String],
        defines: &[String],
        gpus: &[String],
        settings: &[String],
        tbs: &[String],
        warps: &[String],
        max_cycles: u64,
    ) -> Result<Grid, String> {
        let or_default = |values: Vec<String>, default: &str| match values.is_empty() {
            true => vec![default.to_string()],
            false => values,
        };
        let workloads = list(workloads);
        if workloads.is_empty() {
            return Err("--workload: name at least one library workload (`warpscope workloads` lists them)".into());
        }
        let size_values = list(sizes);
        unique("--size ", &size_values)?;
        let mut sizes = Vec::new();
        for s in &size_values {
            let n = s.parse::<u32>().map_err(|_| format!("--size {s}: not a whole number"))?;
            sizes.push(Some(n));
        }
        if sizes.is_empty() {
            sizes.push(None);
        }
        let grid = Grid {
            workloads,
            sizes,
            defines: named_axes("-D", "NAME", defines)?,
            gpus: or_default(list(gpus), "fermi-gtx480"),
            settings: named_axes("--set", "PATH", settings)?,
            tbs: or_default(policy_list(tbs), "rr"),
            warps: or_default(policy_list(warps), "gto"),
            max_cycles,
        };
        unique("--workload ", &grid.workloads)?;
        unique("--gpu ", &grid.gpus)?;
        unique("--tb ", &grid.tbs)?;
        unique("--warp ", &grid.warps)?;
        grid.radices().iter().try_fold(1usize, |n, &r| n.checked_mul(r)).ok_or("the grid has too many points")?;
        Ok(grid)
    }

    /// Each axis's length, outermost first.
    fn radices(&self) -> Vec<usize> {
        let mut radices = vec![self.workloads.len(), self.sizes.len()];
        radices.extend(self.defines.iter().map(|(_, values)| values.len()));
        radices.push(self.gpus.len());
        radices.extend(self.settings.iter().map(|(_, values)| values.len()));
        radices.extend([self.tbs.len(), self.warps.len()]);
        radices
    }

    /// The number of points.
    pub fn len(&self) -> usize {
        self.radices().iter().product()
    }

    /// Point `index` (below [`Grid::len`]): its digits in the axes' mixed radix.
    pub fn point(&self, index: usize) -> Point<'_> {
        let radices = self.radices();
        let mut digits = vec![0; radices.len()];
        let mut rest = index;
        for (digit, radix) in digits.iter_mut().zip(&radices).rev() {
            *digit = rest % radix;
            rest /= radix;
        }
        let n = radices.len();
        let gpu = 2 + self.defines.len();
        Point {
            index,
            workload: &self.workloads[digits[0]],
            size: self.sizes[digits[1]],
            defines: pick(&self.defines, &digits[2..gpu]),
            gpu: &self.gpus[digits[gpu]],
            settings: pick(&self.settings, &digits[gpu + 1..n - 2]),
            tb: &self.tbs[digits[n - 2]],
            warp: &self.warps[digits[n - 1]],
        }
    }

    /// A short name for this grid (FNV-1a 64 of its axes, in hex): every row carries it, so
    /// `merge` can tell shards of one grid from another's.
    pub fn fingerprint(&self) -> String {
        let mut axes = serde_json::json!([
            self.workloads,
            self.sizes,
            self.gpus,
            self.settings,
            self.tbs,
            self.warps,
            self.max_cycles
        ]);
        // Only a grid with `-D` axes names them, so a grid without keeps the fingerprint it had
        // before there were any (and its shards still merge with older ones).
        if !self.defines.is_empty() {
            axes.as_array_mut().expect("an array").push(serde_json::json!({ "defines": self.defines }));
        }
        format!("{:016x}", crate::dump::fnv1a(axes.to_string().into_bytes()))
    }

    /// Checks every name and value before anything runs: each workload and size (compiled
    /// once, for the first machine), each machine with each combination of settings, each
    /// policy. The error names the flag and the bad value. What only a point's own set-up
    /// can find (a workload too large for one machine) is that point's row instead.
    pub fn check(&self) -> Result<(), String> {
        for id in &self.workloads {
            for part in id.split('+').map(str::trim) {
                if library::by_id(part).is_none() {
                    return Err(format!(
                        "--workload {id}: no library workload {part}; choose one of {}",
                        library::ids().join(", ")
                    ));
                }
            }
        }
        let settings: Vec<Vec<String>> = combinations(&self.settings)
            .iter()
            .map(|pairs| pairs.iter().map(|(path, value)| format!("{path}={value}")).collect())
            .collect();
        let mut first = None;
        for gpu in &self.gpus {
            for set in &settings {
                let config = crate::run::machine(gpu, set).map_err(|e| format!("--gpu {gpu}: {e}"))?;
                config.validate().map_err(|e| format!("--gpu {gpu} --set {}: {e}", set.join(" --set ")))?;
                first.get_or_insert(config);
            }
        }
        let first = first.expect("at least one machine");
        for (name, _) in &self.defines {
            let named = |id: &String| {
                id.split('+')
                    .filter_map(|part| library::by_id(part.trim()))
                    .any(|w| kernel::defines(w.source, &[]).iter().any(|d| d.name == *name))
            };
            if !self.workloads.iter().any(named) {
                return Err(format!(
                    "-D {name}: no workload of the sweep has `#define {name}`, so every value would run the same \
                     program"
                ));
            }
        }
        let define_sets: Vec<Vec<(String, String)>> = combinations(&self.defines)
            .iter()
            .map(|pairs| pairs.iter().map(|(name, value)| (name.to_string(), value.to_string())).collect())
            .collect();
        for id in &self.workloads {
            for size in &self.sizes {
                for defines in &define_sets {
                    library::program(id, *size, defines, &first).map_err(|e| {
                        let flags: Vec<String> = defines.iter().map(|(n, v)| format!(" -D {n}={v}")).collect();
                        format!("--workload {id}{}: {e}", flags.concat())
                    })?;
                }
            }
        }
        for tb in &self.tbs {
            TbPolicy::from_spec(tb).map_err(|e| format!("--tb {tb}: {e}"))?;
        }
        for warp in &self.warps {
            WarpPolicy::from_spec(warp).map_err(|e| format!("--warp {warp}: {e}"))?;
        }
        Ok(())
    }
}

/// Share `index` of `count` (1-based, as a job array numbers its tasks): the points whose
/// index leaves `index - 1` divided by `count`, so shards interleave and each gets a fair mix.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Reads `I/N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = |why: &str| format!("--shard {text}: {why}");
        let (i, n) = text.split_once('/').ok_or_else(|| bad("write I/N, e.g. 2/8 for the second of eight shards"))?;
        let number =
            |s: &str| s.trim().parse::<usize>().map_err(|_| bad(&format!("`{}` is not a whole number", s.trim())));
        let (index, count) = (number(i)?, number(n)?);
        if count == 0 {
            return Err(bad("there must be at least one shard"));
        }
        if index == 0 || index > count {
            return Err(bad(&format!("shards count from 1 to {count}")));
        }
        Ok(Shard { index, count })
    }

    /// Whether point `index` is in this shard.
    pub fn contains(&self, index: usize) -> bool {
        index % self.count == self.index - 1
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn strings(values: &[&str]) -> Vec<String> {
        values.iter().map(|v| v.to_string()).collect()
    }

    #[test]
    fn flags_are_repeatable_and_comma_separated() {
        assert_eq!(list(&strings(&["a,b", " c "])), strings(&["a", "b", "c"]));
        assert_eq!(
            policy_list(&strings(&["ccws:k=4,cutoff=2,gto", "swl:limit=2,swl:limit=4"])),
            strings(&["ccws:k=4,cutoff=2", "gto", "swl:limit=2", "swl:limit=4"])
        );
    }

    #[test]
    fn points_are_numbered_with_the_last_axis_fastest() {
        let grid = Grid::parse(
            &strings(&["vecadd,hotspot"]),
            &[],
            &[],
            &strings(&["h100"]),
            &strings(&["l1.ways=4,8"]),
            &[],
            &strings(&["gto,lrr"]),
            1000,
        )
        .unwrap();
        assert_eq!(grid.len(), 8);
        let p = grid.point(5);
        assert_eq!(
            (p.workload, p.size, p.gpu, p.settings.clone(), p.tb, p.warp),
            ("hotspot", None, "h100", vec![("l1.ways", "4")], "rr", "lrr")
        );
        assert_eq!(p.set_flags(), strings(&["l1.ways=4"]));
        assert_eq!(grid.point(2).settings, vec![("l1.ways", "8")]);
        assert_eq!(grid.point(2).workload, "vecadd");
    }

    #[test]
    fn define_axes_nest_after_the_sizes_in_flag_order() {
        let grid = Grid::parse(
            &strings(&["vecadd"]),
            &strings(&["1024,2048"]),
            &strings(&["BLOCK=64,128", "N=7"]),
            &strings(&["fermi-gtx480,h100"]),
            &[],
            &[],
            &[],
            10,
        )
        .unwrap();
        assert_eq!(grid.len(), 8);
        // Digits: size, BLOCK, N, gpu.
        let p = grid.point(5);
        assert_eq!((p.size, p.defines.clone(), p.gpu), (Some(2048), vec![("BLOCK", "64"), ("N", "7")], "h100"));
        assert_eq!(p.define_pairs(), [("BLOCK".to_string(), "64".to_string()), ("N".to_string(), "7".to_string())]);
        assert_eq!(grid.point(2).defines, vec![("BLOCK", "128"), ("N", "7")]);
        assert_eq!(grid.point(2).gpu, "fermi-gtx480");
    }

    #[test]
    fn a_grid_without_defines_keeps_the_fingerprint_it_had_before_there_were_any() {
        let parse = |defines: &[&str]| {
            Grid::parse(&strings(&["vecadd"]), &[], &strings(defines), &[], &[], &[], &[], 10).unwrap()
        };
        let plain = parse(&[]);
        let before = serde_json::json!([["vecadd"], [null], ["fermi-gtx480"], [], ["rr"], ["gto"], 10]);
        assert_eq!(plain.fingerprint(), format!("{:016x}", crate::dump::fnv1a(before.to_string().into_bytes())));
        assert_ne!(parse(&["BLOCK=64"]).fingerprint(), plain.fingerprint());
        assert_ne!(parse(&["BLOCK=64"]).fingerprint(), parse(&["BLOCK=128"]).fingerprint());
    }

    #[test]
    fn the_fingerprint_changes_with_any_axis() {
        let grid = |warps: &[&str], max_cycles| {
            Grid::parse(&strings(&["vecadd"]), &[], &[], &[], &[], &[], &strings(warps), max_cycles)
                .unwrap()
                .fingerprint()
        };
        assert_eq!(grid(&["gto"], 10), grid(&["gto"], 10));
        assert_ne!(grid(&["gto"], 10), grid(&["lrr"], 10));
        assert_ne!(grid(&["gto"], 10), grid(&["gto"], 11));
    }

    #[test]
    fn bad_axes_are_named() {
        let parse = |sizes: &[&str], settings: &[&str]| {
            Grid::parse(&strings(&["vecadd"]), &strings(sizes), &[], &[], &strings(settings), &[], &[], 10).unwrap_err()
        };
        assert_eq!(parse(&["64,big"], &[]), "--size big: not a whole number");
        assert_eq!(parse(&["64,64"], &[]), "--size 64: given twice");
        assert_eq!(parse(&[], &["l1.ways"]), "--set l1.ways: write PATH=VALUE or PATH=V1,V2,...");
        assert_eq!(
            parse(&[], &["l1.ways=4", "l1.ways=8"]),
            "--set l1.ways=8: l1.ways is set twice; list its values in one --set"
        );
        let defines = |defines: &[&str]| {
            Grid::parse(&strings(&["hotspot"]), &[], &strings(defines), &[], &[], &[], &[], 10).and_then(|g| g.check())
        };
        assert_eq!(defines(&["TILE"]).unwrap_err(), "-D TILE: write NAME=VALUE or NAME=V1,V2,...");
        assert_eq!(defines(&["=8"]).unwrap_err(), "-D =8: write the name before the `=`");
        assert_eq!(defines(&["TILE=8,8"]).unwrap_err(), "-D TILE=8: given twice");
        assert_eq!(
            defines(&["TILES=8"]).unwrap_err(),
            "-D TILES: no workload of the sweep has `#define TILES`, so every value would run the same program"
        );
        assert!(defines(&["TILE=8,16", "STEPS=2"]).is_ok());
        let bad_value = defines(&["STEPS=2,x"]).unwrap_err();
        assert!(bad_value.starts_with("--workload hotspot -D STEPS=x: hotspot does not compile"), "{bad_value}");
    }

    #[test]
    fn shards_split_the_points_by_remainder() {
        let shard = Shard::parse("2/3").unwrap();
        assert_eq!((0..7).filter(|&i| shard.contains(i)).collect::<Vec<_>>(), vec![1, 4]);
        assert_eq!(Shard::parse("0/4").unwrap_err(), "--shard 0/4: shards count from 1 to 4");
        assert_eq!(Shard::parse("5/4").unwrap_err(), "--shard 5/4: shards count from 1 to 4");
        assert_eq!(Shard::parse("1/0").unwrap_err(), "--shard 1/0: there must be at least one shard");
        assert_eq!(Shard::parse("x/y").unwrap_err(), "--shard x/y: `x` is not a whole number");
        assert!(Shard::parse("3").unwrap_err().contains("write I/N"));
    }
}
