//! The rows of the chunk panel: each SM's chunk of the pictured run as a bar over the grid's
//! blocks with its steal queue's blocks marked on it, what is left of the chunk in words, and
//! the queue's occupancy with the entries spelled out for a title. Pure, so it is tested natively; built per snapshot, in time linear
//! in the SMs shown and the queue entries a view keeps.

use warpscope_core::stats::{ChunkView, SmChunk};

use crate::format::grouped;

/// Rows a panel shows at most; SMs past them are counted, not drawn.
pub const MAX_ROWS: usize = 160;

/// One SM's row.
#[derive(Clone, Debug, PartialEq)]
pub struct ChunkRow {
    /// The SM.
    pub sm: usize,
    /// Its chunk as a share of the grid: (start, width), both 0–1.
    pub chunk: (f64, f64),
    /// What is left of it to place, likewise.
    pub left: (f64, f64),
    /// Blocks left to place from its chunk.
    pub blocks_left: u32,
    /// The blocks of its steal queue a view keeps, likewise, each with whether it is still to
    /// run in this run.
    pub queued: Vec<((f64, f64), bool)>,
    /// "blocks 40–47 →", "block 40", "all 8 placed", "no chunk".
    pub words: String,
    /// Steal queue: (entries, capacity, entries still to run in this run); `None` without one.
    pub queue: Option<(u32, u32, u32)>,
    /// The steal queue's entries in words, for a title (empty without a queue).
    pub queue_title: String,
}

/// Totals over every SM of a view (not only those shown).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ChunkTotals {
    /// Blocks still to place from the chunks.
    pub chunk_blocks_left: u64,
    /// Steal-queue entries, and those still to run in this run.
    pub queued: u64,
    pub queued_left: u64,
}

/// Totals of `view`.
pub fn totals(view: &ChunkView) -> ChunkTotals {
    view.sms.iter().fold(ChunkTotals::default(), |t, c| ChunkTotals {
        chunk_blocks_left: t.chunk_blocks_left + u64::from(c.blocks_left()),
        queued: t.queued + u64::from(c.queue_len),
        queued_left: t.queued_left + u64::from(c.queue_entries_left()),
    })
}

/// The first [`MAX_ROWS`] SMs' rows of `view`.
pub fn rows(view: &ChunkView) -> Vec<ChunkRow> {
    let grid = f64::from(view.blocks.max(1));
    let share = |r: &core::ops::Range<u32>| {
        let (start, end) = (r.start.min(view.blocks), r.end.min(view.blocks));
        (f64::from(start) / grid, f64::from(end.saturating_sub(start)) / grid)
    };
    view.sms
        .iter()
        .take(MAX_ROWS)
        .enumerate()
        .map(|(sm, c)| ChunkRow {
            sm,
            chunk: share(&c.chunk),
            left: share(&c.left),
            blocks_left: c.blocks_left(),
            queued: c
                .queue
                .iter()
                .enumerate()
                .map(|(i, &b)| (share(&(b..b.saturating_add(1))), c.queue_left.contains(&(i as u32))))
                .collect(),
            words: words(c),
            queue: (view.queue_capacity > 0).then(|| (c.queue_len, view.queue_capacity, c.queue_entries_left())),
            queue_title: if view.queue_capacity > 0 { queue_words(c, view.queue_capacity) } else { String::new() },
        })
        .collect()
}

/// What is left of an SM's chunk: the blocks still to place and the direction they go in.
fn words(c: &SmChunk) -> String {
    let arrow = if c.backward { "←" } else { "→" };
    match c.blocks_left() {
        0 if c.chunk.is_empty() => "no chunk".into(),
        0 => format!("all {} placed", grouped(u64::from(c.chunk.end - c.chunk.start))),
        1 => format!("block {} {arrow}", grouped(u64::from(c.left.start))),
        _ => format!("blocks {}–{} {arrow}", grouped(u64::from(c.left.start)), grouped(u64::from(c.left.end - 1))),
    }
}

/// "Steal queue: 3 of 32 entries, oldest first: blocks 11, 23–24; still to run in this run:
/// block 24."
fn queue_words(c: &SmChunk, capacity: u32) -> String {
    let head = format!("Steal queue: {} of {} entries", grouped(u64::from(c.queue_len)), grouped(u64::from(capacity)));
    if c.queue_len == 0 {
        return format!("{head}.");
    }
    let kept = c.queue.len() as u32;
    let more = c.queue_len.saturating_sub(kept);
    let more = if more > 0 { format!(" and {} more", grouped(u64::from(more))) } else { String::new() };
    let pending: Vec<u32> = c.queued_to_run().collect();
    let still = match c.queue_entries_left() {
        0 => "none still to run in this run".to_string(),
        n if pending.len() as u32 == n => format!("still to run in this run: {}", blocks(&pending)),
        n => format!("{} still to run in this run", grouped(u64::from(n))),
    };
    format!("{head}, oldest first: {}{more}; {still}.", blocks(&c.queue))
}

/// "block 7" or "blocks 11, 23–25": consecutive rising blocks as a range, in the list's order.
pub fn blocks(list: &[u32]) -> String {
    let mut parts: Vec<String> = Vec::new();
    let mut i = 0;
    while i < list.len() {
        let mut j = i;
        while j + 1 < list.len() && list[j + 1] == list[j].wrapping_add(1) {
            j += 1;
        }
        parts.push(match j - i {
            0 => grouped(u64::from(list[i])),
            1 => format!("{}, {}", grouped(u64::from(list[i])), grouped(u64::from(list[j]))),
            _ => format!("{}–{}", grouped(u64::from(list[i])), grouped(u64::from(list[j]))),
        });
        i = j + 1;
    }
    let noun = if list.len() == 1 { "block" } else { "blocks" };
    format!("{noun} {}", parts.join(", "))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn sm(chunk: core::ops::Range<u32>, left: core::ops::Range<u32>, backward: bool) -> SmChunk {
        SmChunk { chunk, left, backward, ..SmChunk::default() }
    }

    /// The Fig. 3 moment of the Steal unit tests: 24 blocks on 4 SMs, SM 0's chunk run and
    /// block 11 stolen into its queue, SM 1 with blocks 7–10 to place.
    fn fig_3() -> ChunkView {
        let mut sm0 = sm(0..6, 6..6, false);
        (sm0.queue_len, sm0.queue, sm0.queue_left) = (1, vec![11], 0..0);
        ChunkView {
            run: Some(0),
            blocks: 24,
            later_runs: 0,
            queue_capacity: 32,
            sms: vec![sm0, sm(6..11, 7..11, false), sm(12..18, 17..18, true), sm(18..24, 24..24, false)],
        }
    }

    #[test]
    fn rows_put_each_chunk_over_the_grid_and_say_what_is_left() {
        let rows = rows(&fig_3());
        let words: Vec<&str> = rows.iter().map(|r| r.words.as_str()).collect();
        assert_eq!(words, ["all 6 placed", "blocks 7–10 →", "block 17 ←", "all 6 placed"]);
        assert_eq!((rows[1].chunk, rows[1].left), ((0.25, 5.0 / 24.0), (7.0 / 24.0, 4.0 / 24.0)));
        assert_eq!(rows[0].left.1, 0.0, "nothing left: no width");
        assert_eq!(rows[0].queue, Some((1, 32, 0)));
        assert_eq!(rows[0].queued, [((11.0 / 24.0, 1.0 / 24.0), false)], "block 11, run already");
        assert!(rows[1].queued.is_empty());
        assert_eq!(
            rows[0].queue_title,
            "Steal queue: 1 of 32 entries, oldest first: block 11; none still to run in this run."
        );
        assert_eq!(rows[1].queue_title, "Steal queue: 0 of 32 entries.");
        assert_eq!(totals(&fig_3()), ChunkTotals { chunk_blocks_left: 5, queued: 1, queued_left: 0 });
    }

    #[test]
    fn queues_list_their_entries_oldest_first_with_those_still_to_run() {
        let mut c = sm(0..0, 0..0, false);
        (c.queue_len, c.queue, c.queue_left) = (5, vec![11, 23, 24, 25, 3], 2..5);
        assert_eq!(
            queue_words(&c, 32),
            "Steal queue: 5 of 32 entries, oldest first: blocks 11, 23–25, 3; still to run in this run: blocks 24, 25, 3."
        );
        // A queue longer than the view keeps is counted whole.
        (c.queue_len, c.queue, c.queue_left) = (70, (0..64).collect(), 60..70);
        assert_eq!(
            queue_words(&c, 128),
            "Steal queue: 70 of 128 entries, oldest first: blocks 0–63 and 6 more; 10 still to run in this run."
        );
        assert_eq!(words(&c), "no chunk");
    }

    #[test]
    fn policies_without_steal_queues_have_no_queue_column_and_many_sms_are_bounded() {
        let view = ChunkView {
            run: Some(2),
            blocks: 1000,
            queue_capacity: 0,
            sms: (0..1024).map(|i| sm(i..i + 1, i..i + 1, false)).collect(),
            ..ChunkView::default()
        };
        let rows = rows(&view);
        assert_eq!(rows.len(), MAX_ROWS);
        assert!(rows.iter().all(|r| r.queue.is_none() && r.queue_title.is_empty()));
        assert_eq!(rows[5].words, "block 5 →");
        assert_eq!(totals(&view).chunk_blocks_left, 1024, "totals count every SM");
        // A chunk past the grid (a hand-made view; the engine's never is) stays within the bar.
        let odd = ChunkView { blocks: 4, sms: vec![sm(2..8, 2..8, false)], ..ChunkView::default() };
        assert_eq!(super::rows(&odd)[0].chunk, (0.5, 0.5));
    }
}
