//! The rows of the priority-queue panel: LaPerm's queues (TB-Pri, SMX-Bind, Adaptive-Bind) at
//! one snapshot — the shared level-0 queue of host kernels, TB-Pri's global levels and each
//! SM's bound levels, highest level first, with Adaptive-Bind's backup SM. Pure, so it is
//! tested natively; built per snapshot, in time linear in the entries a view lists.

use warpscope_core::sched::tb::{PriorityQueueView, QueuedRun};
use warpscope_core::stats::chunk_view::QUEUE_ENTRIES_KEPT;

use crate::format::grouped;

/// SM rows a panel shows at most; SMs past them are counted, not drawn.
pub const MAX_ROWS: usize = 160;
/// Entries a cell names before "and N more".
const NAMED: usize = 3;

/// One queue as a cell.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct QueueCell {
    /// Entries the view lists (at most its first 64).
    pub runs: usize,
    /// Blocks still to dispatch in those entries.
    pub blocks_left: u64,
    /// "2 runs · 37 blocks", or "–" when empty.
    pub words: String,
    /// The same in two parts for a narrow cell: "2 runs", "37 blocks" ("64+ runs" and "64+
    /// blocks" where the queue may hold more than the view lists); both empty when empty.
    pub runs_part: String,
    pub blocks_part: String,
    /// The head entries by name: "run 12 (5 left), run 14 (3 left) and 4 more".
    pub names: String,
    /// Every listed entry for a title, head first.
    pub title: String,
    /// `run:left` pairs, head first, space-separated (for tests).
    pub data: String,
}

/// One SM's bound queues.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SmRow {
    /// The SM.
    pub sm: usize,
    /// Its levels L..=1, highest first.
    pub levels: Vec<QueueCell>,
    /// Adaptive-Bind's backup SM, whose queues it drains when its own are empty.
    pub backup: Option<u32>,
}

/// The cell of one queue, head first: `capped` when some queue of the view lists only its
/// first entries, so that a list of that many may be longer.
pub fn cell(list: &[QueuedRun], capped: bool) -> QueueCell {
    let blocks_left: u64 = list.iter().map(|q| u64::from(q.blocks_left)).sum();
    if list.is_empty() {
        return QueueCell { words: "–".to_owned(), title: "empty".to_owned(), ..QueueCell::default() };
    }
    let entry = |q: &QueuedRun| format!("run {} ({} left)", q.run, grouped(u64::from(q.blocks_left)));
    let named: Vec<String> = list.iter().take(NAMED).map(entry).collect();
    let later = match list.len().saturating_sub(NAMED) {
        0 => String::new(),
        n => format!(" and {n} more"),
    };
    let more = if capped && list.len() >= QUEUE_ENTRIES_KEPT { "+" } else { "" };
    let blocks_part = match blocks_left {
        1 if more.is_empty() => "1 block".to_owned(),
        n => format!("{}{more} blocks", grouped(n)),
    };
    let runs_part = match list.len() {
        1 if more.is_empty() => "1 run".to_owned(),
        n => format!("{}{more} runs", grouped(n as u64)),
    };
    QueueCell {
        runs: list.len(),
        blocks_left,
        words: format!("{runs_part} · {blocks_part}"),
        runs_part,
        blocks_part,
        names: format!("{}{later}", named.join(", ")),
        title: format!(
            "Head first: {}{}",
            list.iter().map(entry).collect::<Vec<_>>().join(", "),
            if more.is_empty() { String::new() } else { format!("; the first {QUEUE_ENTRIES_KEPT} listed") }
        ),
        data: list.iter().map(|q| format!("{}:{}", q.run, q.blocks_left)).collect::<Vec<_>>().join(" "),
    }
}

/// "1 run", "12 runs".
pub fn runs_words(n: u64) -> String {
    if n == 1 {
        "1 run".to_owned()
    } else {
        format!("{} runs", grouped(n))
    }
}

/// The global levels L..=1, highest first, each with its level (TB-Pri; empty under binding).
pub fn global_levels(view: &PriorityQueueView) -> Vec<(u32, QueueCell)> {
    let capped = capped(view);
    view.global.iter().enumerate().rev().map(|(i, q)| (i as u32 + 1, cell(q, capped))).collect()
}

/// The first [`MAX_ROWS`] SMs' bound queues (empty under TB-Pri).
pub fn sm_rows(view: &PriorityQueueView) -> Vec<SmRow> {
    let capped = capped(view);
    view.bound
        .iter()
        .take(MAX_ROWS)
        .enumerate()
        .map(|(sm, levels)| SmRow {
            sm,
            levels: levels.iter().rev().map(|q| cell(q, capped)).collect(),
            backup: view.backup.get(sm).copied().flatten(),
        })
        .collect()
}

/// Entries the view lists, every queue together.
pub fn listed(view: &PriorityQueueView) -> u64 {
    let lists = core::iter::once(&view.host).chain(view.global.iter()).chain(view.bound.iter().flatten());
    lists.map(|q| q.len() as u64).sum()
}

/// Blocks still to dispatch in the entries the view lists.
pub fn listed_blocks(view: &PriorityQueueView) -> u64 {
    let lists = core::iter::once(&view.host).chain(view.global.iter()).chain(view.bound.iter().flatten());
    lists.flatten().map(|q| u64::from(q.blocks_left)).sum()
}

/// Whether some queue listed only its first entries (the view's `entries` counts them all).
pub fn capped(view: &PriorityQueueView) -> bool {
    view.entries > listed(view)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn q(run: u32, blocks_left: u32) -> QueuedRun {
        QueuedRun { run, blocks_left }
    }

    /// Adaptive-Bind with L = 2 on three SMs: SM 1 holds a level-2 and two level-1 entries and
    /// backs up SM 0; SM 2 has nothing.
    fn bound() -> PriorityQueueView {
        PriorityQueueView {
            levels: 2,
            host: vec![q(0, 12)],
            global: Vec::new(),
            bound: vec![vec![vec![], vec![]], vec![vec![q(3, 1), q(4, 2)], vec![q(7, 5)]], vec![vec![], vec![]]],
            backup: vec![Some(1), Some(2), Some(0)],
            steals: 4,
            config_switches: 0,
            entries: 4,
        }
    }

    #[test]
    fn sm_rows_put_the_highest_level_first_with_the_backup() {
        let rows = sm_rows(&bound());
        assert_eq!(rows.len(), 3);
        let words: Vec<&str> = rows[1].levels.iter().map(|c| c.words.as_str()).collect();
        assert_eq!(words, ["1 run · 5 blocks", "2 runs · 3 blocks"], "level 2, then level 1");
        assert_eq!(rows[1].levels[1].data, "3:1 4:2");
        assert_eq!(rows[1].levels[1].names, "run 3 (1 left), run 4 (2 left)");
        assert_eq!(
            (rows[1].levels[0].runs_part.as_str(), rows[1].levels[0].blocks_part.as_str()),
            ("1 run", "5 blocks")
        );
        assert_eq!(rows[0].levels[0].words, "–");
        assert_eq!((rows[0].backup, rows[2].backup), (Some(1), Some(0)));
        assert!(global_levels(&bound()).is_empty());
        assert_eq!((listed(&bound()), listed_blocks(&bound())), (4, 20));
        assert!(!capped(&bound()));
    }

    #[test]
    fn tb_pri_lists_its_global_levels_highest_first_and_long_queues_are_counted_whole() {
        let view = PriorityQueueView {
            levels: 3,
            host: Vec::new(),
            global: vec![(0..64).map(|r| q(r, 1)).collect(), vec![], vec![q(90, 2)]],
            entries: 70,
            ..PriorityQueueView::default()
        };
        let levels = global_levels(&view);
        let order: Vec<u32> = levels.iter().map(|(l, _)| *l).collect();
        assert_eq!(order, [3, 2, 1]);
        assert_eq!(levels[2].1.words, "64+ runs · 64+ blocks");
        assert_eq!((levels[2].1.runs_part.as_str(), levels[2].1.blocks_part.as_str()), ("64+ runs", "64+ blocks"));
        assert_eq!(levels[0].1.runs_part, "1 run", "a short list is whole");
        assert_eq!(levels[2].1.names, "run 0 (1 left), run 1 (1 left), run 2 (1 left) and 61 more");
        assert!(levels[2].1.title.ends_with("run 63 (1 left); the first 64 listed"));
        assert!(capped(&view), "64 + 1 listed of 70");
        assert!(sm_rows(&view).is_empty());
    }
}
