//! What one field of the hardware panel shows: its element id, the text in its input (the
//! configuration's value, or what the person typed while it cannot be applied), and values
//! described for people ("16 KiB", "LRU (least recently used)").

use warpscope_core::config::fields::{FieldInfo, FieldKind, FieldValue};
use warpscope_core::config::GpuConfig;

use crate::format::{bytes, grouped};

/// Element id of the input for `path`: `l1.ways` → `hw-l1-ways`.
pub fn input_id(path: &str) -> String {
    format!("hw-{}", path.replace('.', "-"))
}

/// `value` of the field `info` as a person reads it: sizes in binary units, counts grouped with
/// their unit, options by label; `"—"` where the field does not apply (a crossbar's mesh rows).
pub fn describe(info: &FieldInfo, value: Option<FieldValue>) -> String {
    match (value, info.kind) {
        (None, _) => "—".into(),
        (Some(FieldValue::Number(n)), _) if info.unit == "bytes" => bytes(n),
        (Some(FieldValue::Number(n)), _) if info.unit.is_empty() => grouped(n),
        (Some(FieldValue::Number(n)), _) => format!("{} {}", grouped(n), info.unit),
        (Some(FieldValue::Choice(id)), FieldKind::Choice(options)) => {
            options.iter().find(|(option, _)| *option == id).map_or(id, |(_, label)| label).into()
        }
        (Some(FieldValue::Choice(id)), FieldKind::Number { .. }) => id.into(),
    }
}

/// The input's text and, when that text cannot be applied, why.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FieldText {
    /// What the input shows.
    pub text: String,
    /// The reason the text is refused, to be shown at the field.
    pub refusal: Option<String>,
}

/// What the field at `path` shows, given the `draft` the person last typed into it, if any.
///
/// A refused draft stays visible with its reason so that nothing typed is lost; an accepted
/// draft stays while the configuration holds its value (so `08` is not rewritten to `8` under
/// the cursor) and gives way to the configuration once that moves on (a preset was chosen).
pub fn field_text(config: &GpuConfig, path: &str, draft: Option<&str>) -> FieldText {
    let current = config.get_field(path);
    let from_config = || FieldText { text: current.map(|v| v.to_string()).unwrap_or_default(), refusal: None };
    let Some(draft) = draft else { return from_config() };
    let mut trial = config.clone();
    match trial.set_field(path, draft) {
        Err(e) => FieldText { text: draft.into(), refusal: Some(e.reason) },
        Ok(()) if trial.get_field(path) == current => FieldText { text: draft.into(), refusal: None },
        Ok(()) => from_config(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use warpscope_core::config::fields::field;
    use warpscope_core::config::presets;

    fn info(path: &str) -> &'static FieldInfo {
        field(path).unwrap()
    }

    #[test]
    fn ids_replace_dots_with_dashes() {
        assert_eq!(input_id("l1.ways"), "hw-l1-ways");
        assert_eq!(input_id("interconnect.topology.columns"), "hw-interconnect-topology-columns");
        assert_eq!(input_id("coherence"), "hw-coherence");
    }

    #[test]
    fn values_are_described_in_their_unit() {
        let config = presets::fermi_gtx480();
        let describe_at = |path: &str| describe(info(path), config.get_field(path));
        assert_eq!(describe_at("l1.size_bytes"), "16 KiB");
        assert_eq!(describe_at("l2.size_bytes"), "768 KiB");
        assert_eq!(describe_at("l1.mshr_entries"), "32 entries");
        assert_eq!(describe_at("clocks.memory_mhz"), "924 MHz");
        assert_eq!(describe_at("core.sm_count"), "15");
        assert_eq!(describe_at("l1.index"), "Fermi XOR hash");
        assert_eq!(describe_at("interconnect.topology.rows"), "—");
    }

    #[test]
    fn without_a_draft_the_configuration_is_shown() {
        let config = presets::fermi_gtx480();
        assert_eq!(field_text(&config, "l1.ways", None), FieldText { text: "4".into(), refusal: None });
        assert_eq!(field_text(&config, "l1.replacement", None).text, "Lru");
        assert_eq!(field_text(&config, "interconnect.topology.rows", None).text, "");
    }

    #[test]
    fn a_refused_draft_stays_with_its_reason() {
        let config = presets::fermi_gtx480();
        let shown = field_text(&config, "l2.ways", Some("65"));
        assert_eq!(shown.text, "65");
        assert_eq!(shown.refusal.as_deref(), Some("must be between 1 and 64, got 65"));
        assert_eq!(
            field_text(&config, "l2.ways", Some("")).refusal.as_deref(),
            Some("needs a number between 1 and 64")
        );
    }

    #[test]
    fn an_accepted_draft_stays_only_while_the_configuration_holds_its_value() {
        let mut config = presets::fermi_gtx480();
        config.l1.ways = 8;
        assert_eq!(field_text(&config, "l1.ways", Some("08")), FieldText { text: "08".into(), refusal: None });
        // The configuration moved on (another preset): its value wins.
        assert_eq!(field_text(&config, "l1.ways", Some("16")), FieldText { text: "8".into(), refusal: None });
    }
}
