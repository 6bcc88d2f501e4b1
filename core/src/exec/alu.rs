//! What each operation computes for one lane. Pure functions of 32-bit words.
//!
//! Floats follow IEEE 754 single precision. Two things keep results identical on every
//! platform: transcendental functions come from `libm` (a software implementation, never the
//! host's), and every NaN result is replaced by the one canonical quiet NaN (wasm leaves NaN
//! payloads unspecified).

use crate::isa::{AluOp, AtomicOp, CmpOp, CmpType, SfuOp, UnaryOp};

const CANONICAL_NAN: u32 = 0x7FC0_0000;

fn f(bits: u32) -> f32 {
    f32::from_bits(bits)
}

/// The bits of `x`, with any NaN made canonical.
pub fn bits(x: f32) -> u32 {
    if x.is_nan() {
        CANONICAL_NAN
    } else {
        x.to_bits()
    }
}

/// `a op b`.
#[inline]
pub fn alu(op: AluOp, a: u32, b: u32) -> u32 {
    let (sa, sb) = (a as i32, b as i32);
    match op {
        AluOp::Add => a.wrapping_add(b),
        AluOp::Sub => a.wrapping_sub(b),
        AluOp::Mul => a.wrapping_mul(b),
        AluOp::DivS => {
            if b == 0 {
                u32::MAX
            } else {
                sa.wrapping_div(sb) as u32
            }
        }
        AluOp::DivU => a.checked_div(b).unwrap_or(u32::MAX),
        AluOp::RemS => {
            if b == 0 {
                a
            } else {
                sa.wrapping_rem(sb) as u32
            }
        }
        AluOp::RemU => a.checked_rem(b).unwrap_or(a),
        AluOp::And => a & b,
        AluOp::Or => a | b,
        AluOp::Xor => a ^ b,
        // As PTX's `shl`/`shr`: a count past 31 shifts every bit out (C leaves it undefined;
        // GPUs give 0, or the sign, rather than wrapping the count as CPUs do).
        AluOp::Shl => a.checked_shl(b).unwrap_or(0),
        AluOp::ShrU => a.checked_shr(b).unwrap_or(0),
        AluOp::ShrS => (sa >> b.min(31)) as u32,
        AluOp::MinS => sa.min(sb) as u32,
        AluOp::MaxS => sa.max(sb) as u32,
        AluOp::MinU => a.min(b),
        AluOp::MaxU => a.max(b),
        AluOp::FAdd => bits(f(a) + f(b)),
        AluOp::FSub => bits(f(a) - f(b)),
        AluOp::FMul => bits(f(a) * f(b)),
        AluOp::FMin => bits(libm::fminf(f(a), f(b))),
        AluOp::FMax => bits(libm::fmaxf(f(a), f(b))),
    }
}

/// One operand's value in all 32 lanes: a register's row, read in place (not copied), or an
/// immediate that every lane shares.
#[derive(Clone, Copy, Debug)]
pub enum Row<'a> {
    /// A value per lane.
    Lanes(&'a [u32; 32]),
    /// The same value in every lane.
    Splat(u32),
}

/// Applies `f` lane by lane; monomorphised per operation (and per operand form) so the loop
/// can be vectorised.
#[inline(always)]
fn lanes(out: &mut [u32; 32], a: Row<'_>, b: Row<'_>, f: impl Fn(u32, u32) -> u32) {
    match (a, b) {
        (Row::Lanes(a), Row::Lanes(b)) => {
            for ((o, &x), &y) in out.iter_mut().zip(a).zip(b) {
                *o = f(x, y);
            }
        }
        (Row::Lanes(a), Row::Splat(y)) => {
            for (o, &x) in out.iter_mut().zip(a) {
                *o = f(x, y);
            }
        }
        (Row::Splat(x), Row::Lanes(b)) => {
            for (o, &y) in out.iter_mut().zip(b) {
                *o = f(x, y);
            }
        }
        (Row::Splat(x), Row::Splat(y)) => out.fill(f(x, y)),
    }
}

/// `a op b` for all 32 lanes at once (inactive lanes are computed too and discarded by the
/// caller): one dispatch on `op` per warp instruction, then a loop with [`alu`] specialised to
/// the operation (its match folds away), so the formulas live in one place.
pub fn alu_row(op: AluOp, out: &mut [u32; 32], a: Row<'_>, b: Row<'_>) {
    macro_rules! per_operation {
        ($($variant:ident),*) => {
            match op {
                $(AluOp::$variant => lanes(out, a, b, |x, y| alu(AluOp::$variant, x, y)),)*
                // Divisions and the libm minimum and maximum: their cost is not the dispatch.
                other => lanes(out, a, b, |x, y| alu(other, x, y)),
            }
        };
    }
    per_operation!(Add, Sub, Mul, And, Or, Xor, Shl, ShrU, MinU, MaxU, MinS, MaxS, FAdd, FSub, FMul)
}

/// `op a`.
#[inline]
pub fn unary(op: UnaryOp, a: u32) -> u32 {
    match op {
        UnaryOp::Neg => (a as i32).wrapping_neg() as u32,
        UnaryOp::Not => !a,
        UnaryOp::LogicalNot => (a == 0) as u32,
        UnaryOp::Abs => (a as i32).wrapping_abs() as u32,
        UnaryOp::FNeg => bits(-f(a)),
        UnaryOp::FAbs => bits(libm::fabsf(f(a))),
        UnaryOp::IntToFloat => bits(a as i32 as f32),
        UnaryOp::UintToFloat => bits(a as f32),
        // Rust's float-to-int casts truncate, saturate and map NaN to 0: exactly the rule wanted.
        UnaryOp::FloatToInt => f(a) as i32 as u32,
        UnaryOp::FloatToUint => f(a) as u32,
        UnaryOp::Floor => bits(libm::floorf(f(a))),
        UnaryOp::Ceil => bits(libm::ceilf(f(a))),
        UnaryOp::Trunc => bits(libm::truncf(f(a))),
        UnaryOp::Round => bits(libm::roundf(f(a))),
        UnaryOp::Popc => a.count_ones(),
        UnaryOp::Clz => a.leading_zeros(),
        UnaryOp::Sext8 => a as u8 as i8 as i32 as u32,
        UnaryOp::Zext8 => a & 0xFF,
        UnaryOp::Sext16 => a as u16 as i16 as i32 as u32,
        UnaryOp::Zext16 => a & 0xFFFF,
    }
}

/// `op` applied to every lane of `row` in place: one dispatch on `op` per warp instruction,
/// then a loop with [`unary`] specialised to the operation (its match folds away).
pub fn unary_row(op: UnaryOp, row: &mut [u32; 32]) {
    macro_rules! per_operation {
        ($($variant:ident),*) => {
            match op {
                $(UnaryOp::$variant => row.iter_mut().for_each(|x| *x = unary(UnaryOp::$variant, *x)),)*
                // The libm roundings and bit counts: their call is the cost, not the dispatch.
                other => row.iter_mut().for_each(|x| *x = unary(other, *x)),
            }
        };
    }
    per_operation!(
        Neg,
        Not,
        LogicalNot,
        FNeg,
        IntToFloat,
        UintToFloat,
        FloatToInt,
        FloatToUint,
        Sext8,
        Zext8,
        Sext16,
        Zext16
    )
}

/// `a * b + c` with one rounding.
pub fn fma(a: u32, b: u32, c: u32) -> u32 {
    bits(libm::fmaf(f(a), f(b), f(c)))
}

/// `op(a[, b])` on the special-function unit.
pub fn sfu(op: SfuOp, a: u32, b: u32) -> u32 {
    let x = f(a);
    bits(match op {
        SfuOp::FDiv => x / f(b),
        SfuOp::Sqrt => libm::sqrtf(x),
        SfuOp::Rsqrt => 1.0 / libm::sqrtf(x),
        SfuOp::Exp => libm::expf(x),
        SfuOp::Log => libm::logf(x),
        SfuOp::Sin => libm::sinf(x),
        SfuOp::Cos => libm::cosf(x),
        SfuOp::Exp2 => libm::exp2f(x),
        SfuOp::Log2 => libm::log2f(x),
        SfuOp::Tanh => libm::tanhf(x),
        SfuOp::Pow => libm::powf(x, f(b)),
        SfuOp::Log10 => libm::log10f(x),
        SfuOp::Fmod => libm::fmodf(x, f(b)),
        SfuOp::Tan => libm::tanf(x),
        SfuOp::Asin => libm::asinf(x),
        SfuOp::Acos => libm::acosf(x),
        SfuOp::Atan => libm::atanf(x),
        SfuOp::Atan2 => libm::atan2f(x, f(b)),
        SfuOp::Sinh => libm::sinhf(x),
        SfuOp::Cosh => libm::coshf(x),
        SfuOp::Cbrt => libm::cbrtf(x),
        SfuOp::Hypot => libm::hypotf(x, f(b)),
        SfuOp::Erf => libm::erff(x),
        SfuOp::Erfc => libm::erfcf(x),
        SfuOp::Expm1 => libm::expm1f(x),
        SfuOp::Log1p => libm::log1pf(x),
        SfuOp::Exp10 => libm::exp10f(x),
    })
}

/// Whether `a op b` holds under `T`'s order (for floats, any comparison with NaN is false
/// but `Ne`): the comparison rule of 32- and 64-bit values alike.
pub(crate) fn holds<T: PartialOrd>(op: CmpOp, a: T, b: T) -> bool {
    match op {
        CmpOp::Eq => a == b,
        CmpOp::Ne => a != b,
        CmpOp::Lt => a < b,
        CmpOp::Le => a <= b,
        CmpOp::Gt => a > b,
        CmpOp::Ge => a >= b,
    }
}

/// `(a op b)` as 0 or 1.
pub fn compare(op: CmpOp, ty: CmpType, a: u32, b: u32) -> u32 {
    (match ty {
        CmpType::Int => holds(op, a as i32, b as i32),
        CmpType::Uint => holds(op, a, b),
        CmpType::Float => holds(op, f(a), f(b)),
    }) as u32
}

/// `(a op b)` as 0 or 1 for all 32 lanes at once, dispatching on `op` and `ty` once.
pub fn compare_row(op: CmpOp, ty: CmpType, out: &mut [u32; 32], a: Row<'_>, b: Row<'_>) {
    #[inline(always)]
    fn by_op<T: PartialOrd>(op: CmpOp, out: &mut [u32; 32], a: Row<'_>, b: Row<'_>, as_t: impl Fn(u32) -> T) {
        match op {
            CmpOp::Eq => lanes(out, a, b, |x, y| (as_t(x) == as_t(y)) as u32),
            CmpOp::Ne => lanes(out, a, b, |x, y| (as_t(x) != as_t(y)) as u32),
            CmpOp::Lt => lanes(out, a, b, |x, y| (as_t(x) < as_t(y)) as u32),
            CmpOp::Le => lanes(out, a, b, |x, y| (as_t(x) <= as_t(y)) as u32),
            CmpOp::Gt => lanes(out, a, b, |x, y| (as_t(x) > as_t(y)) as u32),
            CmpOp::Ge => lanes(out, a, b, |x, y| (as_t(x) >= as_t(y)) as u32),
        }
    }
    match ty {
        CmpType::Int => by_op(op, out, a, b, |x| x as i32),
        CmpType::Uint => by_op(op, out, a, b, |x| x),
        CmpType::Float => by_op(op, out, a, b, f),
    }
}

/// The value an atomic leaves in memory, given the `old` one.
pub fn atomic(op: AtomicOp, old: u32, src: u32, compare: u32) -> u32 {
    match op {
        AtomicOp::Add => old.wrapping_add(src),
        AtomicOp::FAdd => bits(f(old) + f(src)),
        AtomicOp::MinS => (old as i32).min(src as i32) as u32,
        AtomicOp::MaxS => (old as i32).max(src as i32) as u32,
        AtomicOp::MinU => old.min(src),
        AtomicOp::MaxU => old.max(src),
        AtomicOp::And => old & src,
        AtomicOp::Or => old | src,
        AtomicOp::Xor => old ^ src,
        AtomicOp::Exch => src,
        AtomicOp::Inc => {
            if old >= src {
                0
            } else {
                old + 1
            }
        }
        AtomicOp::Dec => {
            if old == 0 || old > src {
                src
            } else {
                old - 1
            }
        }
        AtomicOp::Cas => {
            if old == compare {
                src
            } else {
                old
            }
        }
    }
}

/// The 64-bit form of [`atomic`]: the new value at the address (`FAdd` adds doubles). `Inc`
/// and `Dec` have no 64-bit form; they leave the old value.
pub fn atomic64(op: AtomicOp, old: u64, src: u64, compare: u64) -> u64 {
    match op {
        AtomicOp::Add => old.wrapping_add(src),
        AtomicOp::FAdd => (f64::from_bits(old) + f64::from_bits(src)).to_bits(),
        AtomicOp::MinS => (old as i64).min(src as i64) as u64,
        AtomicOp::MaxS => (old as i64).max(src as i64) as u64,
        AtomicOp::MinU => old.min(src),
        AtomicOp::MaxU => old.max(src),
        AtomicOp::And => old & src,
        AtomicOp::Or => old | src,
        AtomicOp::Xor => old ^ src,
        AtomicOp::Exch => src,
        AtomicOp::Cas if old == compare => src,
        AtomicOp::Cas | AtomicOp::Inc | AtomicOp::Dec => old,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn fb(x: f32) -> u32 {
        x.to_bits()
    }

    #[test]
    fn the_row_form_agrees_with_the_lane_form_for_every_operation() {
        use AluOp::*;
        let a: [u32; 32] = core::array::from_fn(|i| (i as u32).wrapping_mul(0x9E37_79B9) ^ 0x8000_0001);
        let b: [u32; 32] = core::array::from_fn(|i| (i as u32).wrapping_mul(0x85EB_CA6B).rotate_left(7));
        let ops = [
            Add, Sub, Mul, DivS, DivU, RemS, RemU, And, Or, Xor, Shl, ShrU, ShrS, MinS, MaxS, MinU, MaxU, FAdd, FSub,
            FMul, FMin, FMax,
        ];
        // Every operand form: registers on both sides, an immediate on either, or both.
        let (x, y) = (a[5], b[9]);
        let forms = [
            (Row::Lanes(&a), Row::Lanes(&b), a, b),
            (Row::Lanes(&a), Row::Splat(y), a, [y; 32]),
            (Row::Splat(x), Row::Lanes(&b), [x; 32], b),
            (Row::Splat(x), Row::Splat(y), [x; 32], [y; 32]),
        ];
        for op in ops {
            for (ra, rb, la, lb) in forms {
                let mut out = [0u32; 32];
                alu_row(op, &mut out, ra, rb);
                for lane in 0..32 {
                    assert_eq!(out[lane], alu(op, la[lane], lb[lane]), "{op:?} {ra:?} {rb:?} lane {lane}");
                }
            }
        }
    }

    #[test]
    fn the_unary_row_agrees_with_the_lane_form() {
        use UnaryOp::*;
        let specials = [0, 1, u32::MAX, i32::MIN as u32, CANONICAL_NAN, fb(-0.0), fb(1.5), fb(-2.5e9), 0x80, 0x8000];
        let row: [u32; 32] = core::array::from_fn(|i| specials[i % specials.len()] ^ (i as u32 / 10));
        let ops = [
            Neg,
            Not,
            LogicalNot,
            Abs,
            FNeg,
            FAbs,
            IntToFloat,
            UintToFloat,
            FloatToInt,
            FloatToUint,
            Floor,
            Ceil,
            Trunc,
            Round,
            Popc,
            Clz,
            Sext8,
            Zext8,
            Sext16,
            Zext16,
        ];
        for op in ops {
            let mut out = row;
            unary_row(op, &mut out);
            for lane in 0..32 {
                assert_eq!(out[lane], unary(op, row[lane]), "{op:?} lane {lane}: {:#x}", row[lane]);
            }
        }
    }

    #[test]
    fn the_row_comparison_agrees_with_the_lane_form() {
        let specials = [0, 1, u32::MAX, i32::MIN as u32, CANONICAL_NAN, fb(-0.0), fb(1.5), fb(f32::INFINITY)];
        let a: [u32; 32] = core::array::from_fn(|i| specials[i % 8]);
        let b: [u32; 32] = core::array::from_fn(|i| specials[(i / 4) % 8]);
        for ty in [CmpType::Int, CmpType::Uint, CmpType::Float] {
            for op in [CmpOp::Eq, CmpOp::Ne, CmpOp::Lt, CmpOp::Le, CmpOp::Gt, CmpOp::Ge] {
                let mut out = [0u32; 32];
                compare_row(op, ty, &mut out, Row::Lanes(&a), Row::Lanes(&b));
                for lane in 0..32 {
                    assert_eq!(out[lane], compare(op, ty, a[lane], b[lane]), "{op:?} {ty:?} lane {lane}");
                }
                // An immediate on the right, the common form of a loop bound.
                compare_row(op, ty, &mut out, Row::Lanes(&a), Row::Splat(b[4]));
                for lane in 0..32 {
                    assert_eq!(out[lane], compare(op, ty, a[lane], b[4]), "{op:?} {ty:?} imm lane {lane}");
                }
            }
        }
    }

    #[test]
    fn integer_edge_cases_are_defined() {
        assert_eq!(alu(AluOp::DivS, 7, 0), u32::MAX);
        assert_eq!(alu(AluOp::DivS, i32::MIN as u32, -1i32 as u32), i32::MIN as u32);
        assert_eq!(alu(AluOp::DivS, -7i32 as u32, 2), -3i32 as u32, "rounds toward zero like C");
        assert_eq!(alu(AluOp::RemS, -7i32 as u32, 2), -1i32 as u32, "remainder takes the dividend's sign");
        assert_eq!(alu(AluOp::DivU, 7, 0), u32::MAX);
        assert_eq!(alu(AluOp::RemU, 7, 0), 7);
        assert_eq!(alu(AluOp::Shl, 1, 33), 0, "a count past 31 shifts every bit out, as PTX's shl");
        assert_eq!(alu(AluOp::Shl, 1, 32), 0);
        assert_eq!(alu(AluOp::Shl, 1, 31), 1 << 31);
        assert_eq!(alu(AluOp::ShrU, u32::MAX, 32), 0);
        assert_eq!(alu(AluOp::ShrS, -8i32 as u32, 40), u32::MAX, "the sign fills an arithmetic shift");
        assert_eq!(alu(AluOp::ShrS, 8, 40), 0);
        assert_eq!(alu(AluOp::ShrS, -8i32 as u32, 1), -4i32 as u32);
        assert_eq!(alu(AluOp::MinS, -1i32 as u32, 1), -1i32 as u32);
        assert_eq!(alu(AluOp::MinU, -1i32 as u32, 1), 1);
    }

    #[test]
    fn floats_are_ieee_and_nans_canonical() {
        assert_eq!(alu(AluOp::FAdd, fb(0.1), fb(0.2)), fb(0.1 + 0.2));
        let nan = alu(AluOp::FSub, fb(f32::INFINITY), fb(f32::INFINITY));
        assert_eq!(nan, CANONICAL_NAN);
        assert_eq!(sfu(SfuOp::Sqrt, fb(-1.0), 0), CANONICAL_NAN);
        assert_eq!(sfu(SfuOp::Sqrt, fb(2.0), 0), fb(core::f32::consts::SQRT_2));
        assert_eq!(alu(AluOp::FMin, CANONICAL_NAN, fb(3.0)), fb(3.0), "fminf ignores a NaN operand");
        // fma rounds once: (1 + 2^-23) * (1 - 2^-23) - 1 is exactly -2^-46, lost by mul-then-add.
        let (a, b) = (1.0 + f32::EPSILON, 1.0 - f32::EPSILON);
        assert_eq!(fma(fb(a), fb(b), fb(-1.0)), fb(-(f32::EPSILON * f32::EPSILON)));
        assert_eq!(alu(AluOp::FAdd, alu(AluOp::FMul, fb(a), fb(b)), fb(-1.0)), fb(0.0));
    }

    #[test]
    fn conversions_truncate_and_saturate() {
        assert_eq!(unary(UnaryOp::FloatToInt, fb(-2.7)), -2i32 as u32);
        assert_eq!(unary(UnaryOp::FloatToInt, fb(1e20)), i32::MAX as u32);
        assert_eq!(unary(UnaryOp::FloatToInt, CANONICAL_NAN), 0);
        assert_eq!(unary(UnaryOp::FloatToUint, fb(-5.0)), 0);
        assert_eq!(unary(UnaryOp::IntToFloat, -3i32 as u32), fb(-3.0));
        assert_eq!(unary(UnaryOp::UintToFloat, u32::MAX), fb(4294967296.0));
    }

    #[test]
    fn narrowing_keeps_the_low_bytes_and_extends_them() {
        assert_eq!(unary(UnaryOp::Sext8, 300), 44, "300 as char");
        assert_eq!(unary(UnaryOp::Sext8, 200), -56i32 as u32, "200 as char");
        assert_eq!(unary(UnaryOp::Zext8, -1i32 as u32), 255);
        assert_eq!(unary(UnaryOp::Sext16, 40_000), -25_536i32 as u32);
        assert_eq!(unary(UnaryOp::Zext16, 70_000), 4_464);
    }

    #[test]
    fn comparisons_respect_the_type() {
        let minus_one = -1i32 as u32;
        assert_eq!(compare(CmpOp::Lt, CmpType::Int, minus_one, 0), 1);
        assert_eq!(compare(CmpOp::Lt, CmpType::Uint, minus_one, 0), 0);
        assert_eq!(compare(CmpOp::Eq, CmpType::Float, fb(0.0), fb(-0.0)), 1);
        assert_eq!(compare(CmpOp::Ne, CmpType::Float, CANONICAL_NAN, CANONICAL_NAN), 1);
        assert_eq!(compare(CmpOp::Ge, CmpType::Float, CANONICAL_NAN, fb(1.0)), 0);
    }

    #[test]
    fn atomics_return_the_new_memory_value() {
        assert_eq!(atomic(AtomicOp::Cas, 5, 9, 5), 9);
        assert_eq!(atomic(AtomicOp::Cas, 5, 9, 4), 5);
        assert_eq!(atomic(AtomicOp::MinS, 3, -2i32 as u32, 0), -2i32 as u32);
        assert_eq!(atomic(AtomicOp::FAdd, fb(1.5), fb(2.0), 0), fb(3.5));
        // CUDA's definitions: a counter that wraps to 0 past `src`, and down to `src` past 0.
        assert_eq!(atomic(AtomicOp::Inc, 3, 5, 0), 4);
        assert_eq!(atomic(AtomicOp::Inc, 5, 5, 0), 0);
        assert_eq!(atomic(AtomicOp::Inc, 9, 5, 0), 0);
        assert_eq!(atomic(AtomicOp::Dec, 3, 5, 0), 2);
        assert_eq!(atomic(AtomicOp::Dec, 0, 5, 0), 5);
        assert_eq!(atomic(AtomicOp::Dec, 9, 5, 0), 5);
    }
}
