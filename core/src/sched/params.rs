//! Policy parameters: the numbers a policy can be tuned by (a warp limit, a chunk size), and
//! the one text form that names a tuned policy everywhere — on the command line, in share links
//! and in [`crate::Policies`]: the policy's id, then optionally `:` and `name=value` pairs
//! separated by commas, e.g. `swl:limit=6`. Parameters left out take their defaults, and the
//! canonical form ([`PolicySpec::canonical`]) lists only those that differ from the default.

use alloc::format;
use alloc::string::{String, ToString};
use alloc::vec::Vec;
use core::fmt;

use super::PolicyInfo;

/// One tunable number of a policy. Values are whole numbers in `min..=max`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParamInfo {
    /// Stable name used in specs and links; never renamed.
    pub name: &'static str,
    /// Name in forms.
    pub label: &'static str,
    /// Unit shown beside the value ("warps", "blocks"); empty when it has none.
    pub unit: &'static str,
    /// One sentence on what it changes.
    pub description: &'static str,
    /// Smallest allowed value.
    pub min: u32,
    /// Largest allowed value.
    pub max: u32,
    /// Value when the spec does not give one.
    pub default: u32,
}

/// A policy type that can be built from parameter values. Policies without parameters keep
/// the empty default list and build themselves from `Default`.
pub trait Tunable: Sized {
    /// The parameters, in form order.
    const PARAMS: &'static [ParamInfo] = &[];

    /// The policy with `values` (already checked against [`Tunable::PARAMS`]).
    fn tuned(values: &ParamValues) -> Self;
}

/// Checked values for every parameter of one policy, defaults filled in.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParamValues {
    params: &'static [ParamInfo],
    values: Vec<u32>,
}

impl ParamValues {
    /// Every parameter at its default.
    pub fn defaults(params: &'static [ParamInfo]) -> ParamValues {
        ParamValues { params, values: params.iter().map(|p| p.default).collect() }
    }

    /// The value of parameter `name`. A name the policy does not declare is a programming
    /// error in that policy; it gets 0 rather than a panic, and the policy's tests catch it.
    pub fn get(&self, name: &str) -> u32 {
        self.params.iter().position(|p| p.name == name).map_or(0, |i| self.values[i])
    }

    /// Each parameter with its value, in declaration order.
    pub fn iter(&self) -> impl Iterator<Item = (&'static ParamInfo, u32)> + '_ {
        self.params.iter().zip(self.values.iter().copied())
    }
}

/// A policy spec, parsed: the id and the values given, in the order written.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PolicySpec {
    /// Registry id.
    pub id: String,
    /// `name=value` pairs as written; checked by [`PolicySpec::resolve`].
    pub given: Vec<(String, String)>,
}

/// Why a spec does not name a usable policy; the message is for a person.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SpecError(pub String);

impl fmt::Display for SpecError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl PolicySpec {
    /// Splits `id` or `id:name=value,name=value` (spaces around the parts are ignored).
    pub fn parse(spec: &str) -> Result<PolicySpec, SpecError> {
        let (id, rest) = match spec.split_once(':') {
            Some((id, rest)) => (id.trim(), Some(rest)),
            None => (spec.trim(), None),
        };
        if id.is_empty() {
            return Err(SpecError("no policy named: write its id, e.g. `gto`".into()));
        }
        let mut given = Vec::new();
        for part in rest.into_iter().flat_map(|r| r.split(',')) {
            let Some((name, value)) = part.split_once('=') else {
                return Err(SpecError(format!("expected `name=value` after `{id}:`, found `{}`", part.trim())));
            };
            given.push((name.trim().to_string(), value.trim().to_string()));
        }
        Ok(PolicySpec { id: id.to_string(), given })
    }

    /// The registry row of this spec's policy among `known`.
    pub fn info<'a>(&self, known: &'a [PolicyInfo]) -> Result<&'a PolicyInfo, SpecError> {
        known.iter().find(|p| p.id == self.id).ok_or_else(|| {
            let ids: Vec<&str> = known.iter().map(|p| p.id).collect();
            SpecError(format!("unknown policy `{}`; choose one of {}", self.id, ids.join(", ")))
        })
    }

    /// Checks the given values against the policy's parameters and fills in the defaults.
    pub fn resolve(&self, params: &'static [ParamInfo]) -> Result<ParamValues, SpecError> {
        let mut values = ParamValues::defaults(params);
        let mut seen = Vec::new();
        for (name, text) in &self.given {
            let Some(i) = params.iter().position(|p| p.name == name.as_str()) else {
                return Err(SpecError(if params.is_empty() {
                    format!("`{}` has no parameters, but `{name}` was given", self.id)
                } else {
                    let names: Vec<&str> = params.iter().map(|p| p.name).collect();
                    format!("`{}` has no parameter `{name}`; it has {}", self.id, names.join(", "))
                }));
            };
            if seen.contains(&i) {
                return Err(SpecError(format!("`{name}` is given twice")));
            }
            seen.push(i);
            values.values[i] = check_value(name, params[i].min, params[i].max, text)?;
        }
        Ok(values)
    }

    /// Parses `spec` and checks it against the registry `known`: the policy's row and its
    /// values, defaults filled in.
    pub fn check(spec: &str, known: &'static [PolicyInfo]) -> Result<(&'static PolicyInfo, ParamValues), SpecError> {
        let parsed = PolicySpec::parse(spec)?;
        let info = parsed.info(known)?;
        Ok((info, parsed.resolve(info.params)?))
    }

    /// The shortest spec for `id` with `values`: parameters at their default are left out.
    pub fn canonical(id: &str, values: &ParamValues) -> String {
        PolicySpec::compose(id, values.iter().map(|(p, v)| (p.name, v, p.default)))
    }

    /// The shortest spec for `id` from `(name, value, default)` triples in declaration order
    /// (for forms that hold the parameters as plain data).
    pub fn compose<'a>(id: &str, params: impl IntoIterator<Item = (&'a str, u32, u32)>) -> String {
        let changed: Vec<String> = params
            .into_iter()
            .filter(|(_, v, default)| v != default)
            .map(|(name, v, _)| format!("{name}={v}"))
            .collect();
        if changed.is_empty() {
            id.to_string()
        } else {
            format!("{id}:{}", changed.join(","))
        }
    }
}

/// `text` as a value of parameter `name` (whole, in `min..=max`), or why not.
pub fn check_value(name: &str, min: u32, max: u32, text: &str) -> Result<u32, SpecError> {
    let out_of_range = || SpecError(format!("`{name}` must be a whole number from {min} to {max}, not `{text}`"));
    let value: u32 = text.trim().parse().map_err(|_| out_of_range())?;
    if value < min || value > max {
        return Err(out_of_range());
    }
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    const LIMIT: ParamInfo = ParamInfo {
        name: "limit",
        label: "Warp limit",
        unit: "warps",
        description: "How many warps may issue.",
        min: 1,
        max: 48,
        default: 48,
    };
    const GROUP: ParamInfo =
        ParamInfo { name: "group", label: "Group", unit: "warps", description: "", min: 1, max: 8, default: 2 };
    const PARAMS: &[ParamInfo] = &[LIMIT, GROUP];

    fn resolve(spec: &str) -> Result<ParamValues, SpecError> {
        PolicySpec::parse(spec)?.resolve(PARAMS)
    }

    #[test]
    fn a_bare_id_takes_every_default() {
        let values = resolve("swl").unwrap();
        assert_eq!((values.get("limit"), values.get("group")), (48, 2));
        assert_eq!(PolicySpec::canonical("swl", &values), "swl");
    }

    #[test]
    fn given_values_override_defaults_in_any_order_and_spacing() {
        let values = resolve(" swl : group = 4 ,limit=6").unwrap();
        assert_eq!((values.get("limit"), values.get("group")), (6, 4));
        assert_eq!(PolicySpec::canonical("swl", &values), "swl:limit=6,group=4", "declaration order");
        let values = resolve("swl:limit=48,group=3").unwrap();
        assert_eq!(PolicySpec::canonical("swl", &values), "swl:group=3", "defaults are left out");
    }

    #[test]
    fn canonical_specs_parse_back_to_the_same_values() {
        for spec in ["swl", "swl:limit=1", "swl:group=8", "swl:limit=7,group=1"] {
            let values = resolve(spec).unwrap();
            assert_eq!(PolicySpec::canonical("swl", &values), spec);
            assert_eq!(resolve(&PolicySpec::canonical("swl", &values)).unwrap(), values);
        }
    }

    #[test]
    fn bad_specs_say_what_is_wrong() {
        let message = |spec: &str| resolve(spec).unwrap_err().0;
        assert_eq!(message("swl:limit=0"), "`limit` must be a whole number from 1 to 48, not `0`");
        assert_eq!(message("swl:limit=49"), "`limit` must be a whole number from 1 to 48, not `49`");
        assert_eq!(message("swl:limit=six"), "`limit` must be a whole number from 1 to 48, not `six`");
        assert_eq!(message("swl:limit=-1"), "`limit` must be a whole number from 1 to 48, not `-1`");
        assert_eq!(message("swl:size=4"), "`swl` has no parameter `size`; it has limit, group");
        assert_eq!(message("swl:limit=4,limit=5"), "`limit` is given twice");
        assert_eq!(message("swl:limit"), "expected `name=value` after `swl:`, found `limit`");
        assert_eq!(message(":limit=4"), "no policy named: write its id, e.g. `gto`");
        let none = PolicySpec::parse("gto:limit=4").unwrap().resolve(&[]).unwrap_err().0;
        assert_eq!(none, "`gto` has no parameters, but `limit` was given");
    }

    #[test]
    fn an_unknown_id_lists_the_known_ones() {
        let known = [
            PolicyInfo { id: "lrr", label: "", description: "", params: &[] },
            PolicyInfo { id: "gto", label: "", description: "", params: &[] },
        ];
        let spec = PolicySpec::parse("psychic:limit=3").unwrap();
        assert_eq!(spec.info(&known).unwrap_err().0, "unknown policy `psychic`; choose one of lrr, gto");
        assert_eq!(PolicySpec::parse("gto").unwrap().info(&known).unwrap().id, "gto");
    }
}
