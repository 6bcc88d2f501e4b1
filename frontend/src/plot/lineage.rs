//! The timeline's colourings by lineage, for runs with device-side launches: each block by the
//! SM its run's direct parent ran on when it launched the run (host blocks neutral, a child
//! that ran on its parent's SM marked), or by its run's nesting depth. Classes, colours, the
//! legend's entries and the hover text are pure, so they are tested natively; everything is
//! read from the report's kernel runs (`parent`, `parent_block`, `parent_sm`, `depth`).

use warpscope_core::stats::{BlockRecord, KernelReport};

use super::palette::qualitative;
use super::timeline::BoxRect;
use crate::format::grouped;

/// How the timeline colours its blocks.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ColourMode {
    /// By kernel run, shaded across the grid (the timeline's own colouring).
    #[default]
    Kernel,
    /// By the SM the block's direct parent ran on.
    ParentSm,
    /// By the block's nesting depth.
    Depth,
    /// By the program of programs run side by side ([`super::programs`]), shaded across the
    /// grid.
    Program,
}

impl ColourMode {
    /// Every mode, in menu order.
    pub const ALL: [ColourMode; 4] = [ColourMode::Program, ColourMode::Kernel, ColourMode::ParentSm, ColourMode::Depth];

    /// The modes a report can be coloured by, in menu order: by program for programs side by
    /// side, by kernel run always, by lineage when some run was launched from the device.
    pub fn offered(co_run: bool, device_launches: bool) -> Vec<ColourMode> {
        Self::ALL
            .into_iter()
            .filter(|m| match m {
                ColourMode::Program => co_run,
                ColourMode::Kernel => true,
                ColourMode::ParentSm | ColourMode::Depth => device_launches,
            })
            .collect()
    }

    /// Its value in the menu.
    pub fn id(self) -> &'static str {
        match self {
            ColourMode::Kernel => "kernel",
            ColourMode::ParentSm => "parent-sm",
            ColourMode::Depth => "depth",
            ColourMode::Program => "program",
        }
    }

    /// Its menu text.
    pub fn label(self) -> &'static str {
        match self {
            ColourMode::Kernel => "kernel run",
            ColourMode::ParentSm => "parent's SM",
            ColourMode::Depth => "nesting depth",
            ColourMode::Program => "program",
        }
    }

    /// The mode whose [`id`](Self::id) is `id`.
    pub fn from_id(id: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|m| m.id() == id)
    }
}

/// Where a kernel run came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Launched by the host.
    Host,
    /// Launched from the device by a thread of block `parent_block` of run `parent`, running on
    /// `parent_sm`.
    Child { parent: u32, parent_block: Option<u32>, parent_sm: Option<u32>, depth: u32 },
    /// A run the report summarised: its record was not kept.
    NotKept,
}

/// The origin of run `run`.
pub fn origin(kernels: &[KernelReport], run: u32) -> Origin {
    match kernels.get(run as usize) {
        None => Origin::NotKept,
        Some(k) => match k.parent {
            None => Origin::Host,
            Some(parent) => {
                Origin::Child { parent, parent_block: k.parent_block, parent_sm: k.parent_sm, depth: k.depth }
            }
        },
    }
}

/// Whether any run of `kernels` was launched from the device (the lineage modes then mean
/// something).
pub fn has_device_launches(kernels: &[KernelReport]) -> bool {
    kernels.iter().any(|k| k.parent.is_some())
}

/// Depths told apart; deeper runs share the last colour.
pub const DEPTH_CAP: u32 = 6;

/// Class of host blocks (both modes).
const HOST: u32 = 0;
/// Class of blocks whose run record was not kept, or whose parent's SM was not recorded.
const UNKNOWN: u32 = 1;
/// First class of the parent SMs (class = FIRST_SM + SM) and of the depths (FIRST_SM + depth − 1).
const FIRST_SM: u32 = 2;

/// Block `b`'s (class, marked) under `mode` (not [`ColourMode::Kernel`], which colours by run):
/// marked when it is a child that ran on its parent's SM.
pub fn class(mode: ColourMode, kernels: &[KernelReport], b: &BlockRecord) -> (u32, u8) {
    match (origin(kernels, b.kernel), mode) {
        (Origin::Host, _) => (HOST, 0),
        (Origin::NotKept, _) => (UNKNOWN, 0),
        (Origin::Child { parent_sm: Some(sm), .. }, ColourMode::ParentSm) => (FIRST_SM + sm, u8::from(b.sm == sm)),
        (Origin::Child { .. }, ColourMode::ParentSm) => (UNKNOWN, 0),
        (Origin::Child { depth, .. }, _) => (FIRST_SM + depth.clamp(1, DEPTH_CAP) - 1, 0),
    }
}

/// Neutral grey of host blocks: unsaturated, so that the children stand out, and dark enough
/// to see on the rows' light bands.
pub const HOST_COLOUR: &str = "#94a3b8";
/// Blocks whose origin the report did not keep.
pub const UNKNOWN_COLOUR: &str = "#f1f5f9";
/// The mark on a child that ran on its parent's SM.
pub const MARK_COLOUR: &str = "#0f172a";

/// Boxes at least this tall (CSS pixels) get the mark; on thinner ones it would hide the colour.
pub const MARK_MIN_HEIGHT: f64 = 3.0;

/// The mark on box `b` of a child that ran on its parent's SM (`b.shade` 1 under
/// [`class`]): a bar along its top, a third of its height and at most 3 px; none on an unmarked
/// box or one shorter than [`MARK_MIN_HEIGHT`].
pub fn mark(b: &BoxRect) -> Option<BoxRect> {
    (b.shade == 1 && b.h >= MARK_MIN_HEIGHT).then(|| BoxRect { h: (b.h / 3.0).min(3.0), ..*b })
}

/// Depths 1, 2, … [`DEPTH_CAP`]: a light-to-dark ramp from green to deep blue (ColorBrewer's
/// YlGnBu), ordered as the depths are and apart from the hosts' grey.
const DEPTH_RAMP: [&str; DEPTH_CAP as usize] = ["#7fcdbb", "#41b6c4", "#1d91c0", "#225ea8", "#253494", "#081d58"];

/// The colour of parent SM `sm`: the twelve kernel hues, then again lighter, then darker.
pub fn sm_colour(sm: u32) -> String {
    let l = [48.0, 68.0, 32.0][(sm as usize / 12) % 3];
    let base = qualitative(sm as usize);
    super::palette::Hsl { l, ..base }.css()
}

/// The colour of `class` under `mode`.
pub fn class_colour(mode: ColourMode, class: u32) -> String {
    match class {
        HOST => HOST_COLOUR.to_owned(),
        UNKNOWN => UNKNOWN_COLOUR.to_owned(),
        c if mode == ColourMode::Depth => DEPTH_RAMP[((c - FIRST_SM) as usize).min(DEPTH_RAMP.len() - 1)].to_owned(),
        c => sm_colour(c - FIRST_SM),
    }
}

/// One legend entry.
#[derive(Clone, Debug, PartialEq)]
pub struct LegendEntry {
    /// Its class (for tests and ids).
    pub class: u32,
    /// CSS colour.
    pub colour: String,
    /// "host launches", "from SM 3", "depth 2", "depth 6 and deeper", "run not kept".
    pub label: String,
    /// Block records of that class.
    pub blocks: u64,
}

/// The classes the blocks have under `mode`, host first, then by SM or depth, each with its
/// count.
pub fn legend(mode: ColourMode, kernels: &[KernelReport], blocks: &[BlockRecord]) -> Vec<LegendEntry> {
    let mut counts: Vec<u64> = Vec::new();
    for b in blocks {
        let (c, _) = class(mode, kernels, b);
        if counts.len() <= c as usize {
            counts.resize(c as usize + 1, 0);
        }
        counts[c as usize] += 1;
    }
    let label = |c: u32| match (c, mode) {
        (HOST, _) => "host launches".to_owned(),
        (UNKNOWN, _) => "run not kept".to_owned(),
        (c, ColourMode::Depth) if c - FIRST_SM + 1 == DEPTH_CAP => format!("depth {DEPTH_CAP} and deeper"),
        (c, ColourMode::Depth) => format!("depth {}", c - FIRST_SM + 1),
        (c, _) => format!("from SM {}", c - FIRST_SM),
    };
    // Host first, then SMs or depths in order, the unknown last.
    let order = (HOST..=HOST).chain(FIRST_SM..counts.len() as u32).chain(UNKNOWN..=UNKNOWN);
    order
        .filter(|&c| counts.get(c as usize).is_some_and(|&n| n > 0))
        .map(|c| LegendEntry { class: c, colour: class_colour(mode, c), label: label(c), blocks: counts[c as usize] })
        .collect()
}

/// Child-block records, and those that ran on their direct parent's SM.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct OnParentSm {
    /// Records of blocks of device-launched runs whose parent's SM is known.
    pub children: u64,
    /// Of which on that SM.
    pub same: u64,
}

/// Counts over the block records of `blocks`.
pub fn on_parent_sm(kernels: &[KernelReport], blocks: &[BlockRecord]) -> OnParentSm {
    blocks.iter().fold(OnParentSm::default(), |t, b| match origin(kernels, b.kernel) {
        Origin::Child { parent_sm: Some(sm), .. } => {
            OnParentSm { children: t.children + 1, same: t.same + u64::from(b.sm == sm) }
        }
        _ => t,
    })
}

/// The hover text's parent: "run 3, block 17 on SM 5 (this SM)", "none: a host launch".
pub fn parent_words(origin: Origin, sm: u32) -> String {
    match origin {
        Origin::Host => "none: a host launch".to_owned(),
        Origin::NotKept => "not kept (a summarised run)".to_owned(),
        Origin::Child { parent, parent_block, parent_sm, .. } => {
            let block = parent_block.map_or_else(String::new, |b| format!(", block {}", grouped(u64::from(b))));
            let at = match parent_sm {
                Some(p) if p == sm => format!(" on SM {p} (this SM)"),
                Some(p) => format!(" on SM {p}"),
                None => String::new(),
            };
            format!("run {parent}{block}{at}")
        }
    }
}

/// The hover text's depth: "0 (host)", "2".
pub fn depth_words(origin: Origin) -> String {
    match origin {
        Origin::Host => "0 (host)".to_owned(),
        Origin::NotKept => "–".to_owned(),
        Origin::Child { depth, .. } => depth.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn host(blocks: u32) -> KernelReport {
        KernelReport { name: "host".into(), blocks, ..KernelReport::default() }
    }

    fn child(parent: u32, parent_block: u32, parent_sm: u32, depth: u32) -> KernelReport {
        KernelReport {
            name: "child".into(),
            blocks: 1,
            parent: Some(parent),
            parent_block: Some(parent_block),
            parent_sm: Some(parent_sm),
            depth,
            ..KernelReport::default()
        }
    }

    fn block(kernel: u32, block: u32, sm: u32) -> BlockRecord {
        BlockRecord { kernel, block, sm, start: 0, end: 1 }
    }

    /// A host run of two blocks on SMs 0 and 1; run 1 launched by block 0 (SM 0) runs on SM 0,
    /// run 2 by block 1 (SM 1) on SM 0; run 3, run 1's child, on SM 2 where its parent ran;
    /// run 9 was summarised.
    fn family() -> (Vec<KernelReport>, Vec<BlockRecord>) {
        let kernels = vec![host(2), child(0, 0, 0, 1), child(0, 1, 1, 1), child(1, 0, 2, 2)];
        let blocks =
            vec![block(0, 0, 0), block(0, 1, 1), block(1, 0, 0), block(2, 0, 0), block(3, 0, 2), block(9, 0, 1)];
        (kernels, blocks)
    }

    #[test]
    fn blocks_are_classed_by_their_parents_sm_and_marked_on_it() {
        let (k, b) = family();
        let classes: Vec<(u32, u8)> = b.iter().map(|b| class(ColourMode::ParentSm, &k, b)).collect();
        assert_eq!(classes, [(HOST, 0), (HOST, 0), (FIRST_SM, 1), (FIRST_SM + 1, 0), (FIRST_SM + 2, 1), (UNKNOWN, 0)]);
        assert_eq!(on_parent_sm(&k, &b), OnParentSm { children: 3, same: 2 });
        let legend = legend(ColourMode::ParentSm, &k, &b);
        let labels: Vec<(&str, u64)> = legend.iter().map(|e| (e.label.as_str(), e.blocks)).collect();
        assert_eq!(
            labels,
            [("host launches", 2), ("from SM 0", 1), ("from SM 1", 1), ("from SM 2", 1), ("run not kept", 1)]
        );
    }

    #[test]
    fn marks_are_a_bar_along_the_top_of_tall_enough_boxes() {
        let b = BoxRect { x: 10.0, y: 20.0, w: 30.0, h: 22.0, kernel: FIRST_SM, shade: 1 };
        assert_eq!(mark(&b), Some(BoxRect { h: 3.0, ..b }));
        assert_eq!(mark(&BoxRect { h: 6.0, ..b }).map(|m| m.h), Some(2.0));
        assert_eq!(mark(&BoxRect { h: 2.9, ..b }), None, "a thin lane keeps its colour");
        assert_eq!(mark(&BoxRect { shade: 0, ..b }), None);
    }

    #[test]
    fn depths_are_a_ramp_capped_at_the_deepest_shown() {
        let (mut k, b) = family();
        let depth = |k: &[KernelReport], i: usize| class(ColourMode::Depth, k, &b[i]).0;
        assert_eq!((depth(&k, 0), depth(&k, 2), depth(&k, 4)), (HOST, FIRST_SM, FIRST_SM + 1));
        k[3].depth = 40;
        assert_eq!(depth(&k, 4), FIRST_SM + DEPTH_CAP - 1);
        let labels: Vec<String> = legend(ColourMode::Depth, &k, &b).into_iter().map(|e| e.label).collect();
        assert_eq!(labels, ["host launches", "depth 1", "depth 6 and deeper", "run not kept"]);
        let colours: Vec<String> = (0..FIRST_SM + DEPTH_CAP).map(|c| class_colour(ColourMode::Depth, c)).collect();
        for (i, a) in colours.iter().enumerate() {
            assert!(!colours[i + 1..].contains(a), "{a} repeats");
        }
    }

    #[test]
    fn sms_get_distinct_colours_apart_from_the_hosts() {
        let colours: Vec<String> = (0..36).map(sm_colour).collect();
        for (i, a) in colours.iter().enumerate() {
            assert!(!colours[i + 1..].contains(a), "SM {i}'s {a} repeats");
            assert_ne!(a, HOST_COLOUR);
        }
        assert_eq!(class_colour(ColourMode::ParentSm, FIRST_SM + 3), sm_colour(3));
    }

    #[test]
    fn hover_words_name_the_parent_and_the_depth() {
        let (k, _) = family();
        assert_eq!(parent_words(origin(&k, 1), 0), "run 0, block 0 on SM 0 (this SM)");
        assert_eq!(parent_words(origin(&k, 2), 0), "run 0, block 1 on SM 1");
        assert_eq!(parent_words(origin(&k, 0), 0), "none: a host launch");
        assert_eq!(parent_words(origin(&k, 9), 0), "not kept (a summarised run)");
        assert_eq!((depth_words(origin(&k, 0)), depth_words(origin(&k, 3))), ("0 (host)".to_owned(), "2".to_owned()));
        assert!(has_device_launches(&k) && !has_device_launches(&k[..1]));
        assert_eq!(ColourMode::from_id("parent-sm"), Some(ColourMode::ParentSm));
        assert_eq!(ColourMode::from_id("x"), None);
    }
}
