//! The standard headers a CUDA file includes: which are known, and the macros each defines
//! (`INT_MAX`, `FLT_MAX`, `M_PI`, `CUDART_PI_F`, …), as the C library and CUDA's headers
//! define them. The values are the standard ones: limits of the types as nvcc's Linux targets
//! have them (`long` is 64 bits), IEEE single and double precision, and the digits of the
//! mathematical constants; a special value is written by its bits (`__int_as_float`).

/// Headers a CUDA file includes for what the language has built in: `#include` of one of
/// them reads nothing, with a note (and defines the macros [`macros`] lists for it).
pub(super) const STANDARD: &[&str] = &[
    "cuda.h",
    "cuda_runtime.h",
    "cuda_runtime_api.h",
    "device_launch_parameters.h",
    "device_functions.h",
    "math_functions.h",
    "math_constants.h",
    "stdio.h",
    "stdlib.h",
    "string.h",
    "math.h",
    "assert.h",
    "stdint.h",
    "float.h",
    "limits.h",
    "time.h",
    "sys/time.h",
    "cstdio",
    "cstdlib",
    "cstring",
    "cmath",
    "cassert",
    "cstdint",
    "climits",
    "cfloat",
    "iostream",
    "helper_cuda.h",
    "helper_functions.h",
];

/// The macros `#include <header>` defines, as (name, value as source text).
pub(super) fn macros(header: &str) -> &'static [(&'static str, &'static str)] {
    match header {
        "limits.h" | "climits" => LIMITS,
        "float.h" | "cfloat" => FLOAT,
        "math.h" | "cmath" => MATH,
        "stdint.h" | "cstdint" => STDINT,
        "math_constants.h" => CUDA_MATH,
        _ => &[],
    }
}

const LIMITS: &[(&str, &str)] = &[
    ("CHAR_BIT", "8"),
    ("SCHAR_MIN", "(-128)"),
    ("SCHAR_MAX", "127"),
    ("UCHAR_MAX", "255"),
    // `char` is signed on nvcc's targets.
    ("CHAR_MIN", "(-128)"),
    ("CHAR_MAX", "127"),
    ("SHRT_MIN", "(-32768)"),
    ("SHRT_MAX", "32767"),
    ("USHRT_MAX", "65535"),
    ("INT_MIN", "(-2147483647 - 1)"),
    ("INT_MAX", "2147483647"),
    ("UINT_MAX", "4294967295U"),
    ("LONG_MIN", "(-9223372036854775807L - 1)"),
    ("LONG_MAX", "9223372036854775807L"),
    ("ULONG_MAX", "18446744073709551615UL"),
    ("LLONG_MIN", "(-9223372036854775807LL - 1)"),
    ("LLONG_MAX", "9223372036854775807LL"),
    ("ULLONG_MAX", "18446744073709551615ULL"),
];

const FLOAT: &[(&str, &str)] = &[
    ("FLT_RADIX", "2"),
    ("FLT_MANT_DIG", "24"),
    ("DBL_MANT_DIG", "53"),
    ("FLT_DIG", "6"),
    ("DBL_DIG", "15"),
    ("FLT_MAX", "3.40282347e+38F"),
    ("FLT_MIN", "1.17549435e-38F"),
    ("FLT_EPSILON", "1.19209290e-07F"),
    ("DBL_MAX", "1.7976931348623157e+308"),
    ("DBL_MIN", "2.2250738585072014e-308"),
    ("DBL_EPSILON", "2.2204460492503131e-16"),
];

const MATH: &[(&str, &str)] = &[
    ("M_E", "2.7182818284590452354"),
    ("M_LOG2E", "1.4426950408889634074"),
    ("M_LOG10E", "0.43429448190325182765"),
    ("M_LN2", "0.69314718055994530942"),
    ("M_LN10", "2.30258509299404568402"),
    ("M_PI", "3.14159265358979323846"),
    ("M_PI_2", "1.57079632679489661923"),
    ("M_PI_4", "0.78539816339744830962"),
    ("M_1_PI", "0.31830988618379067154"),
    ("M_2_PI", "0.63661977236758134308"),
    ("M_2_SQRTPI", "1.12837916709551257390"),
    ("M_SQRT2", "1.41421356237309504880"),
    ("M_SQRT1_2", "0.70710678118654752440"),
    // `float` constants, as C99 has them; `NAN` is the quiet NaN the C library makes.
    ("INFINITY", "__int_as_float(0x7f800000)"),
    ("HUGE_VALF", "__int_as_float(0x7f800000)"),
    ("NAN", "__int_as_float(0x7fc00000)"),
    ("HUGE_VAL", "__longlong_as_double(0x7ff0000000000000LL)"),
];

const STDINT: &[(&str, &str)] = &[
    ("INT8_MIN", "(-128)"),
    ("INT8_MAX", "127"),
    ("UINT8_MAX", "255"),
    ("INT16_MIN", "(-32768)"),
    ("INT16_MAX", "32767"),
    ("UINT16_MAX", "65535"),
    ("INT32_MIN", "(-2147483647 - 1)"),
    ("INT32_MAX", "2147483647"),
    ("UINT32_MAX", "4294967295U"),
    ("INT64_MIN", "(-9223372036854775807LL - 1)"),
    ("INT64_MAX", "9223372036854775807LL"),
    ("UINT64_MAX", "18446744073709551615ULL"),
];

/// CUDA's `math_constants.h`: those kernels use most.
const CUDA_MATH: &[(&str, &str)] = &[
    ("CUDART_PI_F", "3.141592654f"),
    ("CUDART_PIO2_F", "1.570796327f"),
    ("CUDART_PIO4_F", "0.785398163f"),
    ("CUDART_PI", "3.1415926535897931e+0"),
    ("CUDART_ZERO_F", "0.0f"),
    ("CUDART_ONE_F", "1.0f"),
    ("CUDART_INF_F", "__int_as_float(0x7f800000)"),
    ("CUDART_NAN_F", "__int_as_float(0x7fffffff)"),
    ("CUDART_MAX_NORMAL_F", "__int_as_float(0x7f7fffff)"),
    ("CUDART_MIN_DENORM_F", "__int_as_float(0x00000001)"),
    ("CUDART_INF", "__longlong_as_double(0x7ff0000000000000ULL)"),
    ("CUDART_NAN", "__longlong_as_double(0xfff8000000000000ULL)"),
];
