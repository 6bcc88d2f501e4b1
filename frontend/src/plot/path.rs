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
                d.push(if pen_down { 'L' } else { 'M' });
                push_point(&mut d, x.map(px), y.map(v));
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
        if i == 0 {
            d.push('M');
            push_point(&mut d, x.map(px), y.map(py));
        } else {
            d.push('V');
            push_tenths(&mut d, y.map(py));
        }
        d.push('H');
        push_tenths(&mut d, x.map(next));
    }
    d
}

/// Appends `x,y`, each to one decimal.
fn push_point(d: &mut String, x: f64, y: f64) {
    push_tenths(d, x);
    d.push(',');
    push_tenths(d, y);
}

/// Appends `v` exactly as `{:.1}` formats it. A chart's paths hold tens of thousands of
/// coordinates, and the float formatter's exact rounding was a sizeable part of drawing them:
/// rounding `v * 10` to an integer gives the same digits unless that product lies within its
/// own rounding error of a tie (or is huge, or not finite), and those few go to the formatter.
fn push_tenths(d: &mut String, v: f64) {
    let tenths = v * 10.0;
    // Below 2^32 the product is within 2^-21 of `v`'s exact tenfold, well inside the margin.
    let clear_of_a_tie = ((tenths - tenths.trunc()).abs() - 0.5).abs() > 1e-6;
    if tenths.abs() < 4e9 && clear_of_a_tie {
        let n = tenths.abs().round() as u64;
        let sign = if v.is_sign_negative() { "-" } else { "" };
        let _ = write!(d, "{sign}{}.{}", n / 10, n % 10);
    } else {
        let _ = write!(d, "{v:.1}");
    }
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
        d.push(if i == 0 { 'M' } else { 'L' });
        push_point(&mut d, x.map(start), y.map(upper[i]));
        d.push('H');
        push_tenths(&mut d, x.map(end));
    }
    for i in (0..n).rev() {
        let (start, end) = spans[i];
        d.push('L');
        push_point(&mut d, x.map(end), y.map(lower[i]));
        d.push('H');
        push_tenths(&mut d, x.map(start));
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

    /// The fast path against the formatter itself: random coordinates of every magnitude a chart
    /// uses and beyond, exact ties (x.25, x.75) and values a rounding error off them, both signs,
    /// zeros and non-finite values.
    #[test]
    fn tenths_are_written_exactly_as_the_formatter_writes_them() {
        let mut values =
            vec![0.0, -0.0, 0.05, 0.15, 0.25, 0.35, 0.75, 1.25, -0.04, -0.05, -1.25, 99.95, 1e9, 4e8 + 0.05];
        values.extend([f64::NAN, f64::INFINITY, f64::NEG_INFINITY, f64::MAX, f64::MIN_POSITIVE, 5e-324]);
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        for _ in 0..200_000 {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            let unit = (state >> 11) as f64 / (1u64 << 53) as f64;
            let magnitude = 10f64.powi((state % 13) as i32 - 3);
            let v = (unit - 0.3) * magnitude;
            let tie = (v * 4.0).round() / 4.0;
            values.extend([v, tie, f64::from_bits(tie.to_bits() + 1), f64::from_bits(tie.to_bits().wrapping_sub(1))]);
        }
        for v in values {
            let mut d = String::new();
            push_tenths(&mut d, v);
            assert_eq!(d, format!("{v:.1}"), "{v:e}");
        }
    }

    #[test]
    fn bands_are_closed_steps() {
        let d = band(&[(0.0, 1.0), (1.0, 2.0)], &[0.0, 0.0], &[1.0, 2.0], &unit(), &unit());
        assert_eq!(d, "M0.0,1.0H1.0L1.0,2.0H2.0L2.0,0.0H1.0L1.0,0.0H0.0Z");
        assert_eq!(band(&[], &[], &[], &unit(), &unit()), "");
    }
}
