//! Colours: a qualitative palette for kernel runs and compared series, shades across a grid,
//! categorical colours for warp slots and blocks, and fixed colours for warp states and stalls.
//!
//! Canvas drawing cannot read CSS variables, so the few theme colours it needs are repeated
//! here from `static/style.css`.

use warpscope_core::stats::WarpState;

/// `--ink-soft` of the light theme: axis labels and ticks.
pub const INK_SOFT: &str = "#475569";
/// `--line` of the light theme: grid lines and row separators.
pub const LINE: &str = "#e2e8f0";
/// `--accent` of the light theme: the playback cursor and single series.
pub const ACCENT: &str = "#0f766e";
/// Cache lines whose owner slot no longer holds a block.
pub const STALE: &str = "#cbd5e1";
/// Outline of lines hit since the previous snapshot.
pub const HIT_FLASH: (u8, u8, u8) = (22, 163, 74);
/// Outline of lines filled (their old data evicted) since the previous snapshot.
pub const FILL_FLASH: (u8, u8, u8) = (234, 88, 12);

/// A colour in hue (degrees), saturation and lightness (percent).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Hsl {
    /// Hue, 0–360.
    pub h: f64,
    /// Saturation, 0–100.
    pub s: f64,
    /// Lightness, 0–100.
    pub l: f64,
}

impl Hsl {
    /// The CSS notation, `hsl(210 65% 50%)`.
    pub fn css(&self) -> String {
        format!("hsl({:.0} {:.0}% {:.0}%)", self.h, self.s, self.l)
    }
}

/// Twelve hues far enough apart to tell kernels apart side by side (hue, saturation), in the
/// order they are handed out: neighbours in the list contrast most.
const QUALITATIVE: [(f64, f64); 12] = [
    (211.0, 62.0), // blue
    (27.0, 88.0),  // orange
    (142.0, 48.0), // green
    (354.0, 66.0), // red
    (266.0, 44.0), // purple
    (176.0, 62.0), // teal
    (44.0, 90.0),  // amber
    (322.0, 55.0), // pink
    (88.0, 45.0),  // olive
    (193.0, 75.0), // cyan
    (16.0, 42.0),  // brown
    (238.0, 52.0), // indigo
];

/// How many distinct qualitative hues there are before they repeat.
pub const QUALITATIVE_LEN: usize = QUALITATIVE.len();

/// The base colour of kernel run (or compared series) `n`; hues repeat after
/// [`QUALITATIVE_LEN`].
pub fn qualitative(n: usize) -> Hsl {
    let (h, s) = QUALITATIVE[n % QUALITATIVE.len()];
    Hsl { h, s, l: 48.0 }
}

/// Shade levels across a kernel's grid. Few enough that a canvas can batch boxes by colour,
/// enough to see round-robin versus chunked placement.
pub const SHADES: u8 = 6;

/// The shade level (0 = lightest, first blocks) of block `block` of a grid of `blocks`.
pub fn shade_level(block: u32, blocks: u32) -> u8 {
    if blocks <= 1 {
        return 0;
    }
    let t = block.min(blocks - 1) as f64 / (blocks - 1) as f64;
    ((t * SHADES as f64) as u8).min(SHADES - 1)
}

/// Kernel `kernel`'s colour at shade `level`: lighter for the grid's first blocks, darker for
/// its last.
pub fn kernel_shade(kernel: usize, level: u8) -> Hsl {
    let base = qualitative(kernel);
    let t = level.min(SHADES - 1) as f64 / (SHADES - 1) as f64;
    Hsl { l: 70.0 - 36.0 * t, ..base }
}

/// A distinct colour for item `n` of an open-ended set (warp slots, blocks): hues a golden
/// angle apart, with lightness alternating so that neighbours differ in two ways.
pub fn categorical(n: u64) -> Hsl {
    let h = (n as f64 * 137.507_764) % 360.0;
    let l = [52.0, 66.0, 42.0][(n % 3) as usize];
    Hsl { h, s: 62.0, l }
}

/// A stable colour for thread block `block` of kernel run `run`.
pub fn block_colour(run: u32, block: u32) -> Hsl {
    // Mixes the two so that block 0 of different kernels differs too.
    categorical((run as u64).wrapping_mul(7919).wrapping_add(block as u64))
}

/// The colour of a warp slot in `state`.
pub fn warp_state_colour(state: WarpState) -> &'static str {
    match state {
        WarpState::Empty => "#f1f5f9",
        WarpState::Issued => "#16a34a",
        WarpState::Ready => "#86efac",
        WarpState::Memory => "#f59e0b",
        WarpState::Dependency => "#60a5fa",
        WarpState::Barrier => "#a78bfa",
        WarpState::Throttled => "#ef4444",
        WarpState::Done => "#94a3b8",
        WarpState::Launching => "#db2777",
    }
}

/// `rgba(...)` of `rgb` at opacity `alpha` (clamped to 0–1).
pub fn rgba(rgb: (u8, u8, u8), alpha: f64) -> String {
    let a = if alpha.is_finite() { alpha.clamp(0.0, 1.0) } else { 0.0 };
    format!("rgba({}, {}, {}, {a:.2})", rgb.0, rgb.1, rgb.2)
}

/// Opacity of a flash for `count` events, given the largest count in the picture: a single
/// event is clearly visible, the busiest line fully opaque.
pub fn flash_alpha(count: u32, max: u32) -> f64 {
    if count == 0 || max == 0 {
        return 0.0;
    }
    let t = (count as f64).ln_1p() / (max as f64).ln_1p();
    0.4 + 0.6 * t.min(1.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kernels_get_distinct_hues_that_repeat() {
        let hues: Vec<f64> = (0..QUALITATIVE_LEN).map(|k| qualitative(k).h).collect();
        for (i, a) in hues.iter().enumerate() {
            for b in &hues[i + 1..] {
                let d = (a - b).abs().min(360.0 - (a - b).abs());
                assert!(d >= 10.0, "hues {a} and {b} too close");
            }
        }
        assert_eq!(qualitative(QUALITATIVE_LEN), qualitative(0));
    }

    #[test]
    fn shades_go_from_light_to_dark_across_the_grid() {
        assert_eq!(shade_level(0, 100), 0);
        assert_eq!(shade_level(99, 100), SHADES - 1);
        assert_eq!(shade_level(500, 100), SHADES - 1);
        assert_eq!(shade_level(0, 0), 0);
        assert_eq!(shade_level(0, 1), 0);
        assert!(kernel_shade(0, 0).l > kernel_shade(0, SHADES - 1).l);
    }

    #[test]
    fn css_notation() {
        assert_eq!(Hsl { h: 210.0, s: 65.0, l: 50.0 }.css(), "hsl(210 65% 50%)");
        assert_eq!(rgba((1, 2, 3), 2.0), "rgba(1, 2, 3, 1.00)");
        assert_eq!(rgba((1, 2, 3), f64::NAN), "rgba(1, 2, 3, 0.00)");
    }

    #[test]
    fn flashes_scale_with_counts() {
        assert_eq!(flash_alpha(0, 10), 0.0);
        assert_eq!(flash_alpha(3, 0), 0.0);
        assert!(flash_alpha(1, 10) >= 0.4);
        assert_eq!(flash_alpha(10, 10), 1.0);
    }
}
