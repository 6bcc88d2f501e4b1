//! Share links: the whole set-up (kernel, machine, hardware changes, policies, bounds) as a URL
//! query, and back.
//!
//! A library workload travels as its id and size (`w=hotspot&n=64`); an edited or new kernel
//! file travels as its text, deflated and base64url-encoded (`src=…`), so a 150-line file
//! still makes a link that chat programs accept. Hardware travels as the preset id plus only
//! the fields that differ from it (`hw=l1.ways:8,l1.size_bytes:32768`).

use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;

/// Largest kernel file a link may carry once inflated; larger claims are refused rather than
/// allocated.
pub const MAX_SOURCE_BYTES: usize = 1 << 20;

/// Where the kernel file comes from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SharedSource {
    /// A library workload, unmodified, at a size (`None`: its default).
    Library {
        /// Workload id.
        id: String,
        /// Value of its size knob, as the link gives it: restoring the set-up checks it as the
        /// size field does.
        size: Option<String>,
    },
    /// A kernel file's text.
    Text(String),
}

/// Everything a link restores.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SharedSetup {
    /// The kernel file.
    pub source: SharedSource,
    /// `#define` overrides besides a library workload's size: (name, value).
    pub defines: Vec<(String, String)>,
    /// Machine preset id.
    pub machine: String,
    /// Hardware fields that differ from the preset: (path, value).
    pub hardware: Vec<(String, String)>,
    /// Library workloads run beside the file.
    pub co_runners: Vec<String>,
    /// Thread-block scheduler id.
    pub tb: String,
    /// Warp scheduler id.
    pub warp: String,
    /// Cycle budget, as the link gives it (`None`: the default): restoring the set-up checks it
    /// as the budget field does.
    pub max_cycles: Option<String>,
    /// The compact, read-only view for iframes.
    pub embed: bool,
}

/// Encodes `setup` as a query string without the leading `?`.
pub fn encode(setup: &SharedSetup) -> String {
    let mut pairs: Vec<(&str, String)> = Vec::new();
    match &setup.source {
        SharedSource::Library { id, size } => {
            pairs.push(("w", id.clone()));
            if let Some(size) = size {
                pairs.push(("n", size.clone()));
            }
        }
        SharedSource::Text(text) => pairs.push(("src", pack(text))),
    }
    if !setup.defines.is_empty() {
        pairs.push(("d", join_pairs(&setup.defines)));
    }
    if !setup.co_runners.is_empty() {
        pairs.push(("with", setup.co_runners.join(",")));
    }
    pairs.push(("m", setup.machine.clone()));
    if !setup.hardware.is_empty() {
        pairs.push(("hw", join_pairs(&setup.hardware)));
    }
    pairs.push(("tb", setup.tb.clone()));
    pairs.push(("warp", setup.warp.clone()));
    if let Some(max) = &setup.max_cycles {
        pairs.push(("max", max.clone()));
    }
    if setup.embed {
        pairs.push(("embed", "1".into()));
    }
    pairs.iter().map(|(k, v)| format!("{k}={}", escape(v))).collect::<Vec<_>>().join("&")
}

/// Reads a query string (with or without `?`). `Ok(None)`: the query names no set-up (a
/// plain visit). `Err`: it names one that cannot be read, with the reason for a person.
pub fn decode(query: &str) -> Result<Option<SharedSetup>, String> {
    let query = query.strip_prefix('?').unwrap_or(query);
    let mut get = std::collections::BTreeMap::new();
    for pair in query.split('&').filter(|p| !p.is_empty()) {
        let (key, value) = pair.split_once('=').unwrap_or((pair, ""));
        get.insert(key.to_string(), unescape(value).ok_or_else(|| format!("the link's `{key}` is garbled"))?);
    }
    let source = match (get.get("w"), get.get("src")) {
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => return Err("the link names both a library workload and a kernel text".into()),
        (Some(id), None) => SharedSource::Library { id: id.clone(), size: get.get("n").cloned() },
        (None, Some(packed)) => SharedSource::Text(unpack(packed)?),
    };
    let text = |key: &str, default: &str| get.get(key).cloned().unwrap_or_else(|| default.to_string());
    let hardware = split_pairs(get.get("hw"), "hardware setting")?;
    let defines = split_pairs(get.get("d"), "#define")?;
    let max_cycles = get.get("max").cloned();
    Ok(Some(SharedSetup {
        source,
        defines,
        machine: text("m", crate::state::DEFAULT_MACHINE),
        hardware,
        co_runners: get
            .get("with")
            .map(|list| list.split(',').filter(|id| !id.is_empty()).map(str::to_string).collect())
            .unwrap_or_default(),
        tb: text("tb", "rr"),
        warp: text("warp", "gto"),
        max_cycles,
        embed: get.get("embed").is_some_and(|v| v == "1"),
    }))
}

/// `a:1,b:2`: names and values never contain `,` or `:` (paths, ids, numbers, macro names).
fn join_pairs(pairs: &[(String, String)]) -> String {
    pairs.iter().map(|(name, value)| format!("{name}:{value}")).collect::<Vec<_>>().join(",")
}

fn split_pairs(list: Option<&String>, what: &str) -> Result<Vec<(String, String)>, String> {
    let Some(list) = list else { return Ok(Vec::new()) };
    list.split(',')
        .filter(|item| !item.is_empty())
        .map(|item| {
            item.split_once(':')
                .map(|(name, value)| (name.to_string(), value.to_string()))
                .ok_or_else(|| format!("the link's {what} `{item}` has no value"))
        })
        .collect()
}

/// Deflates and base64url-encodes a kernel file.
fn pack(text: &str) -> String {
    URL_SAFE_NO_PAD.encode(miniz_oxide::deflate::compress_to_vec(text.as_bytes(), 9))
}

fn unpack(packed: &str) -> Result<String, String> {
    let damaged = "the kernel text in the link is damaged (was the link cut short?)";
    let bytes = URL_SAFE_NO_PAD.decode(packed.trim_end_matches('=')).map_err(|_| damaged.to_string())?;
    let text = miniz_oxide::inflate::decompress_to_vec_with_limit(&bytes, MAX_SOURCE_BYTES).map_err(|e| {
        if e.status == miniz_oxide::inflate::TINFLStatus::HasMoreOutput {
            format!(
                "the kernel text in the link unpacks to more than {} KB, the most a link may carry",
                MAX_SOURCE_BYTES >> 10
            )
        } else {
            damaged.to_string()
        }
    })?;
    String::from_utf8(text).map_err(|_| damaged.to_string())
}

/// Percent-encodes everything but unreserved characters and the separators our values use
/// (`:` and `,` read better unescaped in `hw=`).
fn escape(value: &str) -> String {
    let mut out = String::with_capacity(value.len());
    for byte in value.bytes() {
        match byte {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' | b':' | b',' => out.push(byte as char),
            _ => out.push_str(&format!("%{byte:02X}")),
        }
    }
    out
}

/// Undoes [`escape`] (and `+` for space, as forms write it); `None` for malformed escapes or
/// non-UTF-8 results.
fn unescape(value: &str) -> Option<String> {
    let bytes = value.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        match bytes[i] {
            b'%' => {
                let hex = value.get(i + 1..i + 3)?;
                out.push(u8::from_str_radix(hex, 16).ok()?);
                i += 3;
            }
            b'+' => {
                out.push(b' ');
                i += 1;
            }
            other => {
                out.push(other);
                i += 1;
            }
        }
    }
    String::from_utf8(out).ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn setup(source: SharedSource) -> SharedSetup {
        SharedSetup {
            source,
            defines: Vec::new(),
            machine: "ccws-fermi".into(),
            hardware: vec![("l1.ways".into(), "8".into()), ("coherence".into(), "keep-l1".into())],
            co_runners: Vec::new(),
            tb: "rr".into(),
            warp: "lrr".into(),
            max_cycles: Some("2000000".into()),
            embed: false,
        }
    }

    #[test]
    fn a_library_workload_travels_as_its_id_and_size() {
        let s = setup(SharedSource::Library { id: "hotspot".into(), size: Some("64".into()) });
        let query = encode(&s);
        assert_eq!(query, "w=hotspot&n=64&m=ccws-fermi&hw=l1.ways:8,coherence:keep-l1&tb=rr&warp=lrr&max=2000000");
        assert_eq!(decode(&format!("?{query}")), Ok(Some(s)));
    }

    #[test]
    fn co_runners_and_gated_warp_schedulers_travel_whole() {
        let mut s = setup(SharedSource::Library { id: "backprop".into(), size: None });
        s.co_runners = vec!["spmv".into(), "kmeans".into()];
        s.warp = "gto+qbmi+dmil:zero_rule=1".into();
        let query = encode(&s);
        assert!(query.contains("&with=spmv,kmeans&"), "{query}");
        assert!(query.contains("warp=gto%2Bqbmi%2Bdmil:zero_rule%3D1"), "a plus is not a space: {query}");
        assert_eq!(decode(&query), Ok(Some(s)));
    }

    #[test]
    fn a_kernel_text_round_trips_through_deflate_and_base64url() {
        let text = "// ä kernel & friends\n__global__ void k(int *a) { a[threadIdx.x] = 1; }\n".repeat(40);
        let mut s = setup(SharedSource::Text(text.clone()));
        s.embed = true;
        s.defines = vec![("N".into(), "4096".into()), ("STEPS".into(), "3".into())];
        let query = encode(&s);
        assert!(query.len() < text.len() / 4, "repetitive text compresses: {} bytes", query.len());
        assert!(query.chars().all(|c| c.is_ascii_graphic()), "a link is plain ASCII");
        assert_eq!(decode(&query), Ok(Some(s)));
    }

    #[test]
    fn a_plain_visit_names_no_setup_and_bad_links_say_why() {
        assert_eq!(decode(""), Ok(None));
        assert_eq!(decode("?debug=1"), Ok(None));
        assert!(decode("src=AAAA").unwrap_err().contains("damaged"));
        let huge = pack(&" ".repeat(MAX_SOURCE_BYTES + 1));
        assert!(decode(&format!("src={huge}")).unwrap_err().contains("more than 1024 KB"), "too big, not damaged");
        assert_eq!(decode(&format!("src={}", pack(&" ".repeat(MAX_SOURCE_BYTES)))).map(|s| s.is_some()), Ok(true));
        assert!(decode("w=a&hw=l1.ways").unwrap_err().contains("`l1.ways`"));
        assert!(decode("w=a&max=%zz").unwrap_err().contains("garbled"));
        assert!(decode("w=a&src=x").unwrap_err().contains("both"));
    }

    #[test]
    fn missing_fields_take_the_defaults() {
        let Ok(Some(s)) = decode("w=vecadd") else { panic!() };
        assert_eq!(s.source, SharedSource::Library { id: "vecadd".into(), size: None });
        assert_eq!((s.tb.as_str(), s.warp.as_str()), ("rr", "gto"));
        assert_eq!(s.machine, crate::state::DEFAULT_MACHINE);
        assert_eq!(s.max_cycles, None);
        assert!(s.hardware.is_empty() && s.defines.is_empty() && !s.embed);
    }

    #[test]
    fn escaping_round_trips_any_text() {
        for value in ["a b&c=d", "100%", "ü+#?/", ""] {
            assert_eq!(unescape(&escape(value)).as_deref(), Some(value));
        }
        assert_eq!(unescape("a+b"), Some("a b".into()));
        assert_eq!(unescape("%e2%82"), None, "cut-off UTF-8 is refused");
    }
}
