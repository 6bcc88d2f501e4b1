//! Number formatting for people: thousands separators, short magnitudes, percentages, byte sizes.

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

/// `16384` → `"16 KiB"`: a byte count in the largest binary unit it reaches, exact where one
/// decimal is enough and marked `≈` where it is rounded (`100000` → `"≈ 97.7 KiB"`).
pub fn bytes(n: u64) -> String {
    const UNITS: [(u64, &str); 3] = [(1 << 30, "GiB"), (1 << 20, "MiB"), (1 << 10, "KiB")];
    let Some((size, unit)) = UNITS.into_iter().find(|(size, _)| n >= *size) else {
        return format!("{n} B");
    };
    // In tenths of the unit; u128 so that no u64 overflows.
    let (n, size) = (u128::from(n) * 10, u128::from(size));
    let tenths = (n + size / 2) / size;
    let number = match tenths % 10 {
        0 => format!("{}", tenths / 10),
        fraction => format!("{}.{fraction}", tenths / 10),
    };
    let approximately = if n % size == 0 { "" } else { "≈ " };
    format!("{approximately}{number} {unit}")
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

    #[test]
    fn byte_sizes() {
        assert_eq!(bytes(0), "0 B");
        assert_eq!(bytes(1023), "1023 B");
        assert_eq!(bytes(1024), "1 KiB");
        assert_eq!(bytes(1536), "1.5 KiB");
        assert_eq!(bytes(16_384), "16 KiB");
        assert_eq!(bytes(768 * 1024), "768 KiB");
        assert_eq!(bytes(50 * 1024 * 1024), "50 MiB");
        assert_eq!(bytes(1 << 30), "1 GiB");
        assert_eq!(bytes(100_000), "≈ 97.7 KiB");
        assert_eq!(bytes(1280), "≈ 1.3 KiB");
        assert_eq!(bytes(4_294_967_264), "≈ 4 GiB");
        assert_eq!(bytes(u64::MAX), "≈ 17179869184 GiB");
    }
}
