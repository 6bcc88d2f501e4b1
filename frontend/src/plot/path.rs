//! SVG path strings for line and stacked-area charts.

use std::fmt::Write;

use super::scale::LinearScale;

/// A polyline through `points` (data coordinates), broken where a value is `None`. A point
/// with gaps on both sides becomes a zero-length segment, which a round line cap shows as a dot.
pub fn line(points: &[(f64, Option<f64>)], x: &LinearScale, y: &LinearScale) -> String {
    let mut d = String::new();
    let mut pen_down = false;
    for &(px, py) in points {
        match py {
            Some(v) if v.is_finite() && px.is_finite() => {
                let command = if pen_down { 'L' } else { 'M' };
                let _ = write!(d, "{command}{:.1},{:.1}", x.map(px), y.map(v));
                pen_down = true;
            }
            _ => {
                close_lonely_point(&mut d);
                pen_down = false;
            }
        }
    }
    close_lonely_point(&mut d);
    d
}

/// A step line through `points` (data coordinates, in x order): each value holds from its x to
/// the next point's, and the last to `end`. For counts sampled at moments (snapshots), which
/// stay as they are until the next sample.
pub fn steps(points: &[(f64, f64)], end: f64, x: &LinearScale, y: &LinearScale) -> String {
    let mut d = String::new();
    for (i, &(px, py)) in points.iter().enumerate() {
        let next = points.get(i + 1).map_or(end, |p| p.0).max(px);
        let command = if i == 0 { 'M' } else { 'V' };
        if i == 0 {
            let _ = write!(d, "{command}{:.1},{:.1}", x.map(px), y.map(py));
        } else {
            let _ = write!(d, "{command}{:.1}", y.map(py));
        }
        let _ = write!(d, "H{:.1}", x.map(next));
    }
    d
}

/// Turns a trailing lone `M x,y` into `M x,y h0` so that it renders as a dot.
fn close_lonely_point(d: &mut String) {
    if let Some(last_m) = d.rfind('M') {
        if !d[last_m..].contains('L') && !d[last_m..].contains('h') {
            d.push_str("h0");
        }
    }
}

/// The closed outline of one band of a stacked step area: `lower` to `upper` (cumulative
/// values) over each span `(start, end)`, drawn as flat steps because each value holds for its
/// whole window.
pub fn band(spans: &[(f64, f64)], lower: &[f64], upper: &[f64], x: &LinearScale, y: &LinearScale) -> String {
    let n = spans.len().min(lower.len()).min(upper.len());
    if n == 0 {
        return String::new();
    }
    let mut d = String::new();
    for (i, &(start, end)) in spans[..n].iter().enumerate() {
        let command = if i == 0 { 'M' } else { 'L' };
        let _ = write!(d, "{command}{:.1},{:.1}H{:.1}", x.map(start), y.map(upper[i]), x.map(end));
    }
    for i in (0..n).rev() {
        let (start, end) = spans[i];
        let _ = write!(d, "L{:.1},{:.1}H{:.1}", x.map(end), y.map(lower[i]), x.map(start));
    }
    d.push('Z');
    d
}

#[cfg(test)]
mod tests {
    use super::*;

    fn unit() -> LinearScale {
        LinearScale::new((0.0, 10.0), (0.0, 10.0))
    }

    #[test]
    fn lines_break_at_gaps_and_show_lone_points() {
        let points = [(1.0, Some(1.0)), (2.0, Some(2.0)), (3.0, None), (4.0, Some(4.0)), (5.0, None)];
        assert_eq!(line(&points, &unit(), &unit()), "M1.0,1.0L2.0,2.0M4.0,4.0h0");
        assert_eq!(line(&[], &unit(), &unit()), "");
        assert_eq!(line(&[(1.0, None)], &unit(), &unit()), "");
        assert_eq!(line(&[(1.0, Some(f64::NAN))], &unit(), &unit()), "");
    }

    #[test]
    fn steps_hold_each_value_until_the_next_sample() {
        let d = steps(&[(0.0, 1.0), (2.0, 3.0), (5.0, 2.0)], 6.0, &unit(), &unit());
        assert_eq!(d, "M0.0,1.0H2.0V3.0H5.0V2.0H6.0");
        assert_eq!(steps(&[], 6.0, &unit(), &unit()), "");
    }

    #[test]
    fn bands_are_closed_steps() {
        let d = band(&[(0.0, 1.0), (1.0, 2.0)], &[0.0, 0.0], &[1.0, 2.0], &unit(), &unit());
        assert_eq!(d, "M0.0,1.0H1.0L1.0,2.0H2.0L2.0,0.0H1.0L1.0,0.0H0.0Z");
        assert_eq!(band(&[], &[], &[], &unit(), &unit()), "");
    }
}
