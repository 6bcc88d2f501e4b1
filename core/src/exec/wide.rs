//! What the 64-bit operations compute for one lane: `long long` arithmetic and IEEE double
//! precision on values held in register pairs (low word first). Doubles follow the rules of
//! [`super::alu`] for floats: functions from `libm`, and every NaN result replaced by the one
//! canonical quiet NaN, so results are the same bits on every platform.

use super::alu::holds;
use crate::isa::{CmpOp, WideCmpType, WideOp, WideUnaryOp};

const CANONICAL_NAN: u64 = 0x7FF8_0000_0000_0000;

fn d(bits: u64) -> f64 {
    f64::from_bits(bits)
}

/// The bits of `x`, with any NaN made canonical.
pub fn bits(x: f64) -> u64 {
    if x.is_nan() {
        CANONICAL_NAN
    } else {
        x.to_bits()
    }
}

/// A pair's value from its low and high words.
#[inline]
pub fn join(lo: u32, hi: u32) -> u64 {
    lo as u64 | (hi as u64) << 32
}

/// A value's low and high words.
#[inline]
pub fn split(v: u64) -> (u32, u32) {
    (v as u32, (v >> 32) as u32)
}

/// `a * b + c` on doubles, rounded once.
pub fn fma(a: u64, b: u64, c: u64) -> u64 {
    bits(libm::fma(d(a), d(b), d(c)))
}

/// `a op b`.
pub fn wide(op: WideOp, a: u64, b: u64) -> u64 {
    let (sa, sb) = (a as i64, b as i64);
    match op {
        WideOp::Add => a.wrapping_add(b),
        WideOp::Sub => a.wrapping_sub(b),
        WideOp::Mul => a.wrapping_mul(b),
        WideOp::DivS if b == 0 => u64::MAX,
        WideOp::DivS => sa.wrapping_div(sb) as u64,
        WideOp::DivU => a.checked_div(b).unwrap_or(u64::MAX),
        WideOp::RemS if b == 0 => a,
        WideOp::RemS => sa.wrapping_rem(sb) as u64,
        WideOp::RemU => a.checked_rem(b).unwrap_or(a),
        WideOp::And => a & b,
        WideOp::Or => a | b,
        WideOp::Xor => a ^ b,
        // A count past 63 shifts every bit out, as PTX's 64-bit shifts (see `alu`).
        WideOp::Shl => a.checked_shl(b.min(64) as u32).unwrap_or(0),
        WideOp::ShrU => a.checked_shr(b.min(64) as u32).unwrap_or(0),
        WideOp::ShrS => (sa >> b.min(63)) as u64,
        WideOp::MinS => sa.min(sb) as u64,
        WideOp::MaxS => sa.max(sb) as u64,
        WideOp::MinU => a.min(b),
        WideOp::MaxU => a.max(b),
        WideOp::DAdd => bits(d(a) + d(b)),
        WideOp::DSub => bits(d(a) - d(b)),
        WideOp::DMul => bits(d(a) * d(b)),
        WideOp::DDiv => bits(d(a) / d(b)),
        WideOp::DMin => bits(libm::fmin(d(a), d(b))),
        WideOp::DMax => bits(libm::fmax(d(a), d(b))),
        WideOp::DPow => bits(libm::pow(d(a), d(b))),
        WideOp::DFmod => bits(libm::fmod(d(a), d(b))),
        WideOp::DAtan2 => bits(libm::atan2(d(a), d(b))),
        WideOp::DHypot => bits(libm::hypot(d(a), d(b))),
    }
}

/// `op a`: the input is a pair's value or one word (zero-extended), as
/// [`WideUnaryOp::reads_pair`] says, and so is the result ([`WideUnaryOp::writes_pair`]: a
/// one-word result is in the low 32 bits).
pub fn wide_unary(op: WideUnaryOp, a: u64) -> u64 {
    let word = a as u32;
    let float = f32::from_bits(word);
    match op {
        WideUnaryOp::Neg => (a as i64).wrapping_neg() as u64,
        WideUnaryOp::Not => !a,
        WideUnaryOp::Abs => (a as i64).wrapping_abs() as u64,
        WideUnaryOp::DNeg => bits(-d(a)),
        WideUnaryOp::DAbs => bits(libm::fabs(d(a))),
        WideUnaryOp::DSqrt => bits(libm::sqrt(d(a))),
        WideUnaryOp::DRsqrt => bits(1.0 / libm::sqrt(d(a))),
        WideUnaryOp::DExp => bits(libm::exp(d(a))),
        WideUnaryOp::DLog => bits(libm::log(d(a))),
        WideUnaryOp::DExp2 => bits(libm::exp2(d(a))),
        WideUnaryOp::DLog2 => bits(libm::log2(d(a))),
        WideUnaryOp::DSin => bits(libm::sin(d(a))),
        WideUnaryOp::DCos => bits(libm::cos(d(a))),
        WideUnaryOp::DTanh => bits(libm::tanh(d(a))),
        WideUnaryOp::DLog10 => bits(libm::log10(d(a))),
        WideUnaryOp::DTan => bits(libm::tan(d(a))),
        WideUnaryOp::DAsin => bits(libm::asin(d(a))),
        WideUnaryOp::DAcos => bits(libm::acos(d(a))),
        WideUnaryOp::DAtan => bits(libm::atan(d(a))),
        WideUnaryOp::DSinh => bits(libm::sinh(d(a))),
        WideUnaryOp::DCosh => bits(libm::cosh(d(a))),
        WideUnaryOp::DCbrt => bits(libm::cbrt(d(a))),
        WideUnaryOp::DErf => bits(libm::erf(d(a))),
        WideUnaryOp::DErfc => bits(libm::erfc(d(a))),
        WideUnaryOp::DExpm1 => bits(libm::expm1(d(a))),
        WideUnaryOp::DLog1p => bits(libm::log1p(d(a))),
        WideUnaryOp::DExp10 => bits(libm::exp10(d(a))),
        WideUnaryOp::DFloor => bits(libm::floor(d(a))),
        WideUnaryOp::DCeil => bits(libm::ceil(d(a))),
        WideUnaryOp::DTrunc => bits(libm::trunc(d(a))),
        WideUnaryOp::DRound => bits(libm::round(d(a))),
        WideUnaryOp::IntToLong => word as i32 as i64 as u64,
        WideUnaryOp::UintToLong => word as u64,
        // Rust's float-to-int casts truncate, saturate and map NaN to 0, as CUDA's do.
        WideUnaryOp::FloatToLong => float as i64 as u64,
        WideUnaryOp::FloatToUlong => float as u64,
        WideUnaryOp::IntToDouble => bits(word as i32 as f64),
        WideUnaryOp::UintToDouble => bits(word as f64),
        WideUnaryOp::FloatToDouble => bits(float as f64),
        WideUnaryOp::DoubleToInt => d(a) as i32 as u32 as u64,
        WideUnaryOp::DoubleToUint => d(a) as u32 as u64,
        WideUnaryOp::DoubleToFloat => super::alu::bits(d(a) as f32) as u64,
        WideUnaryOp::LongToFloat => super::alu::bits(a as i64 as f32) as u64,
        WideUnaryOp::UlongToFloat => super::alu::bits(a as f32) as u64,
        WideUnaryOp::LongToDouble => bits(a as i64 as f64),
        WideUnaryOp::UlongToDouble => bits(a as f64),
        WideUnaryOp::DoubleToLong => d(a) as i64 as u64,
        WideUnaryOp::DoubleToUlong => d(a) as u64,
    }
}

/// `(a op b)` as 0 or 1.
pub fn wide_compare(op: CmpOp, ty: WideCmpType, a: u64, b: u64) -> u32 {
    (match ty {
        WideCmpType::Long => holds(op, a as i64, b as i64),
        WideCmpType::Ulong => holds(op, a, b),
        WideCmpType::Double => holds(op, d(a), d(b)),
    }) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    fn db(x: f64) -> u64 {
        x.to_bits()
    }

    #[test]
    fn integers_wrap_and_edge_cases_are_defined() {
        assert_eq!(wide(WideOp::Add, u64::MAX, 1), 0);
        assert_eq!(wide(WideOp::Mul, 1 << 40, 1 << 30), 0, "2^70: the low 64 bits are 0");
        assert_eq!(wide(WideOp::Mul, u64::MAX, 3), u64::MAX - 2);
        assert_eq!(wide(WideOp::DivS, (-7i64) as u64, 2), (-3i64) as u64);
        assert_eq!(wide(WideOp::DivS, 7, 0), u64::MAX);
        assert_eq!(wide(WideOp::DivS, i64::MIN as u64, (-1i64) as u64), i64::MIN as u64);
        assert_eq!(wide(WideOp::RemS, (-7i64) as u64, 2), (-1i64) as u64);
        assert_eq!(wide(WideOp::RemU, 7, 0), 7);
        assert_eq!(wide(WideOp::Shl, 1, 65), 0, "a count past 63 shifts every bit out");
        assert_eq!(wide(WideOp::Shl, 1, 63), 1 << 63);
        assert_eq!(wide(WideOp::ShrS, -8i64 as u64, 1 << 40), u64::MAX);
        assert_eq!(wide(WideOp::ShrS, (-8i64) as u64, 1), (-4i64) as u64);
        assert_eq!(wide(WideOp::MinS, u64::MAX, 1), u64::MAX);
        assert_eq!(wide(WideOp::MinU, u64::MAX, 1), 1);
        assert_eq!(join(0x89AB_CDEF, 0x0123_4567), 0x0123_4567_89AB_CDEF);
        assert_eq!(split(0x0123_4567_89AB_CDEF), (0x89AB_CDEF, 0x0123_4567));
    }

    #[test]
    fn doubles_are_ieee_and_nans_canonical() {
        assert_eq!(wide(WideOp::DAdd, db(0.1), db(0.2)), db(0.1 + 0.2));
        assert_ne!(wide(WideOp::DAdd, db(0.1), db(0.2)), db(0.3), "double rounding, not decimal");
        assert_eq!(wide(WideOp::DSub, db(f64::INFINITY), db(f64::INFINITY)), CANONICAL_NAN);
        assert_eq!(wide_unary(WideUnaryOp::DSqrt, db(2.0)), db(core::f64::consts::SQRT_2));
        assert_eq!(wide(WideOp::DMin, CANONICAL_NAN, db(3.0)), db(3.0));
        assert_eq!(wide_compare(CmpOp::Ne, WideCmpType::Double, CANONICAL_NAN, CANONICAL_NAN), 1);
        assert_eq!(wide_compare(CmpOp::Lt, WideCmpType::Long, u64::MAX, 0), 1);
        assert_eq!(wide_compare(CmpOp::Lt, WideCmpType::Ulong, u64::MAX, 0), 0);
    }

    #[test]
    fn conversions_extend_truncate_round_and_saturate() {
        assert_eq!(wide_unary(WideUnaryOp::IntToLong, (-2i32) as u32 as u64), (-2i64) as u64);
        assert_eq!(wide_unary(WideUnaryOp::UintToLong, u32::MAX as u64), u32::MAX as u64);
        assert_eq!(wide_unary(WideUnaryOp::FloatToDouble, 0.1f32.to_bits() as u64), db(0.1f32 as f64));
        assert_eq!(wide_unary(WideUnaryOp::DoubleToFloat, db(0.1)), 0.1f32.to_bits() as u64);
        assert_eq!(wide_unary(WideUnaryOp::DoubleToInt, db(-2.7)), (-2i32) as u32 as u64);
        assert_eq!(wide_unary(WideUnaryOp::DoubleToInt, db(1e20)), i32::MAX as u32 as u64);
        assert_eq!(wide_unary(WideUnaryOp::DoubleToUlong, db(-5.0)), 0);
        assert_eq!(wide_unary(WideUnaryOp::LongToDouble, (-3i64) as u64), db(-3.0));
        assert_eq!(wide_unary(WideUnaryOp::UlongToFloat, u64::MAX), 18446744073709551616f32.to_bits() as u64);
        assert_eq!(wide_unary(WideUnaryOp::IntToDouble, i32::MIN as u32 as u64), db(i32::MIN as f64));
        assert_eq!(wide_unary(WideUnaryOp::DoubleToLong, CANONICAL_NAN), 0);
    }
}
