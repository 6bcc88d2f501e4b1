//! Number formatting for people: thousands separators, short magnitudes, percentages.

/// `1234567` → `"1 234 567"` (thin spaces keep long counts readable and copyable).
pub fn grouped(n: u64) -> String {
    let digits = n.to_string();
    let mut out = String::with_capacity(digits.len() + digits.len() / 3);
    for (i, c) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            out.push('\u{202F}');
        }
        out.push(c);
    }
    out
}

/// `16_000_000` → `"16.0 M"`: for rates and progress, where three digits are enough.
pub fn short(x: f64) -> String {
    let (value, unit) = match x.abs() {
        a if a >= 1e9 => (x / 1e9, " G"),
        a if a >= 1e6 => (x / 1e6, " M"),
        a if a >= 1e3 => (x / 1e3, " k"),
        _ => return format!("{x:.0}"),
    };
    format!("{value:.1}{unit}")
}

/// `part / whole` as a percentage with two decimals; `"–"` when `whole` is zero.
pub fn percent(part: u64, whole: u64) -> String {
    if whole == 0 {
        return "–".into();
    }
    format!("{:.2} %", 100.0 * part as f64 / whole as f64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn groups_thousands() {
        assert_eq!(grouped(0), "0");
        assert_eq!(grouped(999), "999");
        assert_eq!(grouped(1000), "1\u{202F}000");
        assert_eq!(grouped(16_000_000), "16\u{202F}000\u{202F}000");
    }

    #[test]
    fn shortens_magnitudes() {
        assert_eq!(short(512.0), "512");
        assert_eq!(short(1536.0), "1.5 k");
        assert_eq!(short(16_000_000.0), "16.0 M");
        assert_eq!(short(2.5e9), "2.5 G");
    }

    #[test]
    fn percentages() {
        assert_eq!(percent(1, 4), "25.00 %");
        assert_eq!(percent(0, 0), "–");
    }
}
