//! A grid of small cells (rows × columns) folded into side-by-side panels when there are too
//! many rows for the height: the L1 heatmap (sets × ways) and the SM occupancy view (SMs × warp
//! slots) both use it. Cells are square unless rows must be taller than the cells are wide, so
//! that a label fits beside each row.

/// What to fit.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct GridSpec {
    /// Rows of cells (sets, SMs).
    pub rows: usize,
    /// Cells per row (ways, warp slots).
    pub cols: usize,
    /// Space left of each panel's cells (row labels).
    pub lead: f64,
    /// Space right of each panel's cells (per-row notes).
    pub trail: f64,
    /// Space between panels.
    pub gap: f64,
    /// Space above the cells (panel headers).
    pub top: f64,
    /// Space between rows.
    pub row_gap: f64,
    /// Smallest cell side; below it the grid overflows its width rather than vanish.
    pub cell_min: f64,
    /// Rows at least this tall when the height allows (cells then stretch vertically), so that
    /// each row can carry a readable label; 0 for square cells.
    pub row_min: f64,
    /// Largest cell side.
    pub cell_max: f64,
    /// A cell side big enough to read: the fewest panels reaching it win, so that rows stay in
    /// one column unless they would get too small.
    pub cell_enough: f64,
    /// Height the rows should fit in.
    pub max_height: f64,
}

/// Where every cell goes.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct CellGrid {
    /// The spec it was fitted from.
    pub spec: GridSpec,
    /// Cell width, whole pixels.
    pub cell: f64,
    /// Cell height, whole pixels: `cell`, or more to reach the spec's `row_min`.
    pub cell_height: f64,
    /// Panels side by side.
    pub panels: usize,
    /// Rows in each panel (the last may have fewer).
    pub rows_per_panel: usize,
    /// Total width.
    pub width: f64,
    /// Total height.
    pub height: f64,
}

impl CellGrid {
    /// Cells that fit `width` and the spec's height: the fewest panels giving cells of at least
    /// `cell_enough`, else the number of panels giving the largest cells (ties to fewer).
    pub fn fit(spec: GridSpec, width: f64) -> Self {
        let rows = spec.rows.max(1);
        let cols = spec.cols.max(1) as f64;
        let mut best = (f64::NEG_INFINITY, 1usize);
        let mut previous_rows_per_panel = 0;
        for panels in 1..=rows {
            let rows_per_panel = rows.div_ceil(panels);
            if rows_per_panel == previous_rows_per_panel {
                continue;
            }
            previous_rows_per_panel = rows_per_panel;
            let p = panels as f64;
            let cell_w = (width - p * (spec.lead + spec.trail) - (p - 1.0) * spec.gap) / (p * cols);
            let cell_h = spec.max_height / rows_per_panel as f64 - spec.row_gap;
            let cell = cell_w.min(cell_h).min(spec.cell_max).floor();
            if cell > best.0 {
                best = (cell, panels);
            }
            if cell >= spec.cell_enough {
                break;
            }
            if cell_w < spec.cell_min {
                break; // more panels only make cells narrower
            }
        }
        let (cell, panels) = best;
        let cell = if cell.is_finite() { cell.max(spec.cell_min) } else { spec.cell_min };
        let rows_per_panel = rows.div_ceil(panels);
        let row_room = (spec.max_height / rows_per_panel as f64 - spec.row_gap).floor();
        let cell_height = if row_room.is_finite() { cell.max(spec.row_min.min(row_room)) } else { cell };
        let mut grid = CellGrid { spec, cell, cell_height, panels, rows_per_panel, width: 0.0, height: 0.0 };
        grid.width = panels as f64 * grid.panel_width() - spec.gap;
        grid.height = spec.top + rows_per_panel as f64 * grid.row_pitch();
        grid
    }

    /// Distance between row tops.
    pub fn row_pitch(&self) -> f64 {
        self.cell_height + self.spec.row_gap
    }

    /// Width of one panel including its lead, trail and the gap after it.
    pub fn panel_width(&self) -> f64 {
        self.spec.lead + self.spec.cols as f64 * self.cell + self.spec.trail + self.spec.gap
    }

    /// Left edge of row `row`'s panel (where its label goes) and the row's top.
    pub fn row_origin(&self, row: usize) -> (f64, f64) {
        let panel = row / self.rows_per_panel;
        let within = row % self.rows_per_panel;
        (panel as f64 * self.panel_width(), self.spec.top + within as f64 * self.row_pitch())
    }

    /// Top-left corner of cell (`row`, `col`).
    pub fn cell_origin(&self, row: usize, col: usize) -> (f64, f64) {
        let (x, y) = self.row_origin(row);
        (x + self.spec.lead + col as f64 * self.cell, y)
    }

    /// The cell under pixel `(px, py)`, if any.
    pub fn hit(&self, px: f64, py: f64) -> Option<(usize, usize)> {
        if px < 0.0 || py < self.spec.top {
            return None;
        }
        let panel = (px / self.panel_width()).floor() as usize;
        let x_in = px - panel as f64 * self.panel_width() - self.spec.lead;
        let within = ((py - self.spec.top) / self.row_pitch()).floor() as usize;
        let col = (x_in / self.cell).floor();
        let y_in = py - self.spec.top - within as f64 * self.row_pitch();
        if x_in < 0.0 || col as usize >= self.spec.cols || within >= self.rows_per_panel || y_in >= self.cell_height {
            return None;
        }
        let row = panel * self.rows_per_panel + within;
        (row < self.spec.rows).then_some((row, col as usize))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn spec(rows: usize, cols: usize) -> GridSpec {
        GridSpec {
            rows,
            cols,
            lead: 0.0,
            trail: 0.0,
            gap: 10.0,
            top: 0.0,
            row_gap: 0.0,
            cell_min: 2.0,
            row_min: 0.0,
            cell_max: 16.0,
            cell_enough: 10.0,
            max_height: 400.0,
        }
    }

    #[test]
    fn a_small_cache_is_one_panel_of_big_cells() {
        let g = CellGrid::fit(spec(32, 4), 800.0);
        assert_eq!((g.panels, g.cell), (1, 12.0));
        assert_eq!(g.height, 32.0 * 12.0);
    }

    #[test]
    fn a_big_cache_folds_into_panels_within_the_height() {
        let g = CellGrid::fit(spec(2048, 16), 900.0);
        assert!(g.panels > 1);
        assert!(g.height <= 400.0, "height {}", g.height);
        assert!(g.width <= 900.0, "width {}", g.width);
        assert!(g.cell >= 2.0);
        // Every row lands somewhere and hit-testing finds it again.
        for row in [0, 1, 127, 1000, 2047] {
            let (x, y) = g.cell_origin(row, 15);
            assert_eq!(g.hit(x + g.cell / 2.0, y + g.cell / 2.0), Some((row, 15)));
        }
    }

    #[test]
    fn rows_stretch_to_fit_a_label_when_the_height_allows() {
        // 15 SMs of 48 warp slots in a narrow column: cells 2 px wide, rows 12 px tall.
        let mut s = spec(15, 48);
        s.row_min = 12.0;
        let g = CellGrid::fit(s, 100.0);
        assert_eq!((g.cell, g.cell_height, g.panels), (2.0, 12.0, 1));
        assert_eq!(g.height, 15.0 * 12.0);
        let (x, y) = g.cell_origin(14, 47);
        assert_eq!(g.hit(x + 1.0, y + 11.0), Some((14, 47)), "the whole tall cell is its row's");
        // 400 rows cannot each have 12 px in 400 px: they get what there is.
        let mut s = spec(400, 4);
        s.row_min = 12.0;
        assert_eq!(CellGrid::fit(s, 60.0).cell_height, 2.0);
        // Square cells stay square.
        let g = CellGrid::fit(spec(32, 4), 800.0);
        assert_eq!(g.cell_height, g.cell);
    }

    #[test]
    fn hits_outside_cells_find_nothing() {
        let mut s = spec(3, 4);
        s.lead = 20.0;
        s.row_gap = 2.0;
        let g = CellGrid::fit(s, 200.0);
        assert_eq!(g.hit(5.0, 5.0), None, "the label area");
        assert_eq!(g.hit(21.0, g.cell + 1.0), None, "the gap between rows");
        assert_eq!(g.hit(21.0, 1.0), Some((0, 0)));
        assert_eq!(g.hit(21.0, 3.0 * g.row_pitch() + 1.0), None, "below the last row");
    }

    #[test]
    fn degenerate_sizes_do_not_panic() {
        let g = CellGrid::fit(spec(0, 0), 0.0);
        assert_eq!(g.cell, 2.0);
        assert_eq!(g.hit(1.0, 1.0), None);
        let g = CellGrid::fit(spec(5, 5), f64::NAN);
        assert!(g.cell.is_finite());
    }
}
