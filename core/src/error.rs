//! Errors that reach a person: each names what was wrong and why, in the user's vocabulary.

use alloc::string::String;
use core::fmt;
use serde::{Deserialize, Serialize};

/// A configuration value that cannot be simulated.
///
/// `field` is the dotted path of the offending value as the user sees it in the settings
/// (for example `cache.ways`), so that the UI can mark the field and the CLI can name the flag.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ConfigError {
    /// Dotted path of the offending field, e.g. `cache.size_bytes`.
    pub field: String,
    /// Why the value is rejected, phrased for a person ("must be a power of two, got 48").
    pub reason: String,
}

impl ConfigError {
    /// Builds an error for `field` with a human-readable `reason`.
    pub fn new(field: impl Into<String>, reason: impl Into<String>) -> Self {
        ConfigError { field: field.into(), reason: reason.into() }
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.field, self.reason)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ConfigError {}
