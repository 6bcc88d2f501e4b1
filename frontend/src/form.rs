//! The sweep settings as the person types them, and their translation into a spec.
//!
//! Fields hold the raw text so that a half-typed value is never lost; [`SweepForm::parse`]
//! turns them into a [`CacheSweepSpec`] or into the first field that is wrong and why.

use warpscope_core::mem::cache::{CacheGeometry, Replacement};
use warpscope_core::sweep::AccessPattern;
use warpscope_core::CacheSweepSpec;

/// One input of the form. The id is the element id in the page (tests use it too).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Field {
    /// Cache capacity, KiB.
    CacheKib,
    /// Line size, bytes.
    LineBytes,
    /// Associativity.
    Ways,
    /// `lru` or `fifo`.
    Replacement,
    /// `random` or `strided`.
    Pattern,
    /// Footprint of the address stream, KiB.
    FootprintKib,
    /// Stride of the strided pattern, bytes.
    StrideBytes,
    /// Lookups per pass of the random pattern.
    AccessesPerPass,
    /// Seed of the random pattern.
    Seed,
    /// Repetitions.
    Passes,
}

impl Field {
    /// Element id of the input.
    pub fn id(self) -> &'static str {
        match self {
            Field::CacheKib => "cache-kib",
            Field::LineBytes => "line-bytes",
            Field::Ways => "ways",
            Field::Replacement => "replacement",
            Field::Pattern => "pattern",
            Field::FootprintKib => "footprint-kib",
            Field::StrideBytes => "stride-bytes",
            Field::AccessesPerPass => "accesses-per-pass",
            Field::Seed => "seed",
            Field::Passes => "passes",
        }
    }

    /// The form field that shows an engine error about `path` (a [`warpscope_core::ConfigError`] field).
    pub fn for_config_path(path: &str) -> Option<Field> {
        Some(match path {
            "cache.size_bytes" => Field::CacheKib,
            "cache.line_bytes" => Field::LineBytes,
            "cache.ways" => Field::Ways,
            "pattern.footprint_bytes" => Field::FootprintKib,
            "pattern.stride_bytes" => Field::StrideBytes,
            "pattern.accesses_per_pass" => Field::AccessesPerPass,
            "passes" => Field::Passes,
            _ => return None,
        })
    }
}

/// A field that does not hold a usable value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldError {
    /// Which input.
    pub field: Field,
    /// Why, for a person.
    pub reason: String,
}

/// The raw text of every input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SweepForm {
    /// See [`Field::CacheKib`].
    pub cache_kib: String,
    /// See [`Field::LineBytes`].
    pub line_bytes: String,
    /// See [`Field::Ways`].
    pub ways: String,
    /// See [`Field::Replacement`].
    pub replacement: String,
    /// See [`Field::Pattern`].
    pub pattern: String,
    /// See [`Field::FootprintKib`].
    pub footprint_kib: String,
    /// See [`Field::StrideBytes`].
    pub stride_bytes: String,
    /// See [`Field::AccessesPerPass`].
    pub accesses_per_pass: String,
    /// See [`Field::Seed`].
    pub seed: String,
    /// See [`Field::Passes`].
    pub passes: String,
}

impl Default for SweepForm {
    fn default() -> Self {
        SweepForm::from_spec(&CacheSweepSpec::default())
    }
}

impl SweepForm {
    /// The form showing `spec`. Sizes that are not whole KiB are shown as fractions.
    pub fn from_spec(spec: &CacheSweepSpec) -> Self {
        let kib = |bytes: u64| {
            if bytes % 1024 == 0 {
                (bytes / 1024).to_string()
            } else {
                format!("{}", bytes as f64 / 1024.0)
            }
        };
        let (pattern, footprint, stride, per_pass, seed) = match spec.pattern {
            AccessPattern::Strided { footprint_bytes, stride_bytes } => {
                ("strided", footprint_bytes, stride_bytes, 1_000_000, 1)
            }
            AccessPattern::Random { footprint_bytes, accesses_per_pass, seed } => {
                ("random", footprint_bytes, 4, accesses_per_pass, seed)
            }
        };
        SweepForm {
            cache_kib: kib(spec.cache.size_bytes as u64),
            line_bytes: spec.cache.line_bytes.to_string(),
            ways: spec.cache.ways.to_string(),
            replacement: match spec.replacement {
                Replacement::Lru => "lru",
                Replacement::Fifo => "fifo",
            }
            .into(),
            pattern: pattern.into(),
            footprint_kib: kib(footprint),
            stride_bytes: stride.to_string(),
            accesses_per_pass: per_pass.to_string(),
            seed: seed.to_string(),
            passes: spec.passes.to_string(),
        }
    }

    /// The text of `field`.
    pub fn get(&self, field: Field) -> &str {
        match field {
            Field::CacheKib => &self.cache_kib,
            Field::LineBytes => &self.line_bytes,
            Field::Ways => &self.ways,
            Field::Replacement => &self.replacement,
            Field::Pattern => &self.pattern,
            Field::FootprintKib => &self.footprint_kib,
            Field::StrideBytes => &self.stride_bytes,
            Field::AccessesPerPass => &self.accesses_per_pass,
            Field::Seed => &self.seed,
            Field::Passes => &self.passes,
        }
    }

    /// Sets the text of `field`.
    pub fn set(&mut self, field: Field, value: String) {
        let slot = match field {
            Field::CacheKib => &mut self.cache_kib,
            Field::LineBytes => &mut self.line_bytes,
            Field::Ways => &mut self.ways,
            Field::Replacement => &mut self.replacement,
            Field::Pattern => &mut self.pattern,
            Field::FootprintKib => &mut self.footprint_kib,
            Field::StrideBytes => &mut self.stride_bytes,
            Field::AccessesPerPass => &mut self.accesses_per_pass,
            Field::Seed => &mut self.seed,
            Field::Passes => &mut self.passes,
        };
        *slot = value;
    }

    /// Whether the random pattern is selected (its own fields are shown, the stride hidden).
    pub fn is_random(&self) -> bool {
        self.pattern == "random"
    }

    /// The spec these fields describe, validated by the engine, or the first bad field.
    pub fn parse(&self) -> Result<CacheSweepSpec, FieldError> {
        let cache = CacheGeometry {
            size_bytes: kib_to_bytes(self, Field::CacheKib, u32::MAX as u64)? as u32,
            line_bytes: whole(self, Field::LineBytes, u32::MAX as u64)? as u32,
            ways: whole(self, Field::Ways, u32::MAX as u64)? as u32,
        };
        let replacement = match self.replacement.as_str() {
            "lru" => Replacement::Lru,
            "fifo" => Replacement::Fifo,
            other => return Err(error(Field::Replacement, format!("unknown replacement policy \"{other}\""))),
        };
        let footprint_bytes = kib_to_bytes(self, Field::FootprintKib, 1 << 40)?;
        let pattern = match self.pattern.as_str() {
            "strided" => {
                AccessPattern::Strided { footprint_bytes, stride_bytes: whole(self, Field::StrideBytes, 1 << 40)? }
            }
            "random" => AccessPattern::Random {
                footprint_bytes,
                accesses_per_pass: whole(self, Field::AccessesPerPass, 1 << 40)?,
                seed: whole(self, Field::Seed, u32::MAX as u64)? as u32,
            },
            other => return Err(error(Field::Pattern, format!("unknown access pattern \"{other}\""))),
        };
        let passes = whole(self, Field::Passes, u32::MAX as u64)? as u32;
        let spec = CacheSweepSpec { cache, replacement, pattern, passes };
        spec.validate().map_err(|err| FieldError {
            field: Field::for_config_path(&err.field).unwrap_or(Field::Passes),
            reason: err.reason,
        })?;
        Ok(spec)
    }
}

fn error(field: Field, reason: String) -> FieldError {
    FieldError { field, reason }
}

/// A whole number no larger than `max`.
fn whole(form: &SweepForm, field: Field, max: u64) -> Result<u64, FieldError> {
    let text = form.get(field).trim();
    if text.is_empty() {
        return Err(error(field, "enter a value".into()));
    }
    let value: u64 = text.parse().map_err(|_| error(field, format!("\"{text}\" is not a whole number")))?;
    if value > max {
        return Err(error(field, format!("must be at most {max}")));
    }
    Ok(value)
}

/// A size in KiB (fractions allowed, e.g. 0.5) that is a whole number of bytes.
fn kib_to_bytes(form: &SweepForm, field: Field, max_bytes: u64) -> Result<u64, FieldError> {
    let text = form.get(field).trim();
    if text.is_empty() {
        return Err(error(field, "enter a size in KiB".into()));
    }
    let kib: f64 = text.parse().map_err(|_| error(field, format!("\"{text}\" is not a number of KiB")))?;
    let bytes = kib * 1024.0;
    if !(bytes.is_finite() && bytes >= 0.0 && bytes.fract() == 0.0) {
        return Err(error(field, format!("{text} KiB is not a whole number of bytes")));
    }
    if bytes > max_bytes as f64 {
        return Err(error(field, format!("must be at most {} KiB", max_bytes / 1024)));
    }
    Ok(bytes as u64)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_default_form_is_the_default_spec() {
        assert_eq!(SweepForm::default().parse(), Ok(CacheSweepSpec::default()));
    }

    #[test]
    fn a_strided_form_round_trips() {
        let spec = CacheSweepSpec {
            cache: CacheGeometry { size_bytes: 512, line_bytes: 64, ways: 2 },
            replacement: Replacement::Fifo,
            pattern: AccessPattern::Strided { footprint_bytes: 1536, stride_bytes: 8 },
            passes: 3,
        };
        let form = SweepForm::from_spec(&spec);
        assert_eq!(form.cache_kib, "0.5");
        assert_eq!(form.footprint_kib, "1.5");
        assert_eq!(form.parse(), Ok(spec));
    }

    #[test]
    fn errors_point_at_the_field_that_is_wrong() {
        let mut form = SweepForm::default();
        form.set(Field::Ways, "four".into());
        assert_eq!(form.parse().unwrap_err(), error(Field::Ways, "\"four\" is not a whole number".into()));

        let mut form = SweepForm::default();
        form.set(Field::Ways, "3".into());
        let err = form.parse().unwrap_err();
        assert_eq!(err.field, Field::CacheKib, "16 KiB is not a multiple of 3 x 128 B");

        let mut form = SweepForm::default();
        form.set(Field::FootprintKib, "0.001".into());
        assert_eq!(form.parse().unwrap_err().field, Field::FootprintKib);

        let mut form = SweepForm::default();
        form.set(Field::Passes, "".into());
        assert_eq!(form.parse().unwrap_err(), error(Field::Passes, "enter a value".into()));
    }
}
