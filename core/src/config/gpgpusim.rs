//! Importer for GPGPU-Sim `gpgpusim.config` files, so that a machine described for GPGPU-Sim
//! can be simulated here without retyping it.
//!
//! The file is read in two passes. The first parses every line into typed settings (the last
//! occurrence of an option wins) and rejects malformed values with their line and column. The
//! second applies the settings on top of a base [`GpuConfig`], so that options that depend on
//! each other (the L2 geometry on `-gpgpu_n_mem`, the DRAM bandwidth on the clocks) give the
//! same result whatever their order in the file. Options that warpscope does not model, and
//! the parts of an option it could not apply, are reported in [`Imported::ignored`].
//!
//! Mapping decisions, where GPGPU-Sim and warpscope differ:
//! - SM count: `-gpgpu_n_clusters` × `-gpgpu_n_cores_per_cluster`. The base machine is read as
//!   `sm_count` clusters of one core each, so a missing cluster count keeps the base's SM count
//!   and a missing cores-per-cluster is 1 (every GPGPU-Sim preset of Fermi and later uses 1).
//! - L2: GPGPU-Sim gives `-gpgpu_cache:dl2` per memory sub-partition. warpscope has one bank per
//!   sub-partition: `l2.banks = n_mem × n_sub_partition_per_mchannel` (a missing `n_mem` is the
//!   base's channel count, a missing sub-partition count is 1, GPGPU-Sim's default) and
//!   `l2.size_bytes` is the per-sub-partition capacity times the banks.
//! - L1 write policy letters: `L` (local write-back, global write-evict), `E` (write-evict) and
//!   `R` (read-only; GPGPU-Sim evicts on a store hit) become [`L1WritePolicy::WriteEvict`], since
//!   warpscope has no local memory and global stores are what it models. `T` (write-through)
//!   becomes [`L1WritePolicy::WriteThrough`], and so does `B` (write-back, not modelled), noted.
//! - DRAM bandwidth per channel and core cycle: `bus_width × n_mem_per_ctrlr × data_rate ×
//!   dram_mhz / core_mhz`, rounded, at least 1 (see `dram_bytes_per_cycle`).
//!
//! Latencies are taken as they are: GPGPU-Sim counts `-gpgpu_l2_rop_latency` and
//! `-gpgpu_dram_latency` in core cycles too. The machine's `name` is left to the caller.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use core::fmt;
use serde::{Deserialize, Serialize};

use super::{GpuConfig, L1WritePolicy, Replacement, SetIndex};

/// An option the importer did not apply, and why.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct IgnoredOption {
    /// 1-based line of the option in the file.
    pub line: u32,
    /// The option's name as written, with its leading `-`.
    pub option: String,
    /// Why it was not applied (or what part of it was not).
    pub reason: String,
}

/// The result of an import.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Imported {
    /// The base machine with every applicable option applied; valid.
    pub config: GpuConfig,
    /// Options, or parts of options, that were not applied, in line order.
    pub ignored: Vec<IgnoredOption>,
    /// The warp scheduler named by `-gpgpu_scheduler` (`gto`, `lrr`, `two_level_active`, ...),
    /// without its parameters, so that the policy picker can preselect it.
    pub warp_scheduler: Option<String>,
}

/// A malformed option, or options that together give a machine warpscope cannot simulate.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ImportError {
    /// 1-based line; 0 when the problem cannot be traced to one line.
    pub line: u32,
    /// 1-based column (in characters) of the offending token; 0 when unknown.
    pub column: u32,
    /// The option's name with its leading `-`; empty when unknown.
    pub option: String,
    /// What was expected or which warpscope field became invalid, phrased for a person.
    pub reason: String,
}

impl fmt::Display for ImportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            return f.write_str(&self.reason);
        }
        write!(f, "line {}: ", self.line)?;
        if !self.option.is_empty() {
            write!(f, "{}: ", self.option)?;
        }
        f.write_str(&self.reason)
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ImportError {}

/// Applies the options of a gpgpusim.config text on top of `base` (usually a preset).
pub fn import(text: &str, base: GpuConfig) -> Result<Imported, ImportError> {
    let mut ignored = Vec::new();
    let options = parse(text, &mut ignored)?;
    let mut sources = Sources::default();
    let config = apply(&options, base, &mut ignored, &mut sources);
    if let Err(e) = config.validate() {
        let origin = sources.of(&e.field);
        return Err(ImportError {
            line: origin.map_or(0, |o| o.line),
            column: origin.map_or(0, |o| o.column),
            option: origin.map_or_else(String::new, |o| String::from(o.option)),
            reason: format!("invalid {}: {}", e.field, e.reason),
        });
    }
    ignored.sort_by_key(|i| i.line);
    let warp_scheduler = options.scheduler.map(|s| String::from(s.value));
    Ok(Imported { config, ignored, warp_scheduler })
}

// ---------------------------------------------------------------------------------------------
// Lexing: tokens that remember where they are, for columns in error messages.

/// A piece of one line and its byte offset in that line.
#[derive(Clone, Copy, Debug)]
struct Token<'a> {
    text: &'a str,
    start: usize,
}

impl<'a> Token<'a> {
    /// The bytes `from..to` of this token (empty if out of range, which callers never ask).
    fn slice(self, from: usize, to: usize) -> Token<'a> {
        Token { text: self.text.get(from..to).unwrap_or(""), start: self.start.saturating_add(from) }
    }

    /// The pieces between `separator`s, empty ones included.
    fn split(self, separator: char) -> Vec<Token<'a>> {
        let mut start = self.start;
        self.text
            .split(separator)
            .map(|piece| {
                let token = Token { text: piece, start };
                start = start.saturating_add(piece.len() + separator.len_utf8());
                token
            })
            .collect()
    }

    /// The whitespace-separated words.
    fn words(self) -> Vec<Token<'a>> {
        let mut words = Vec::new();
        let mut word_start = None;
        for (i, c) in self.text.char_indices() {
            match (c.is_whitespace(), word_start) {
                (true, Some(from)) => {
                    words.push(self.slice(from, i));
                    word_start = None;
                }
                (false, None) => word_start = Some(i),
                _ => {}
            }
        }
        if let Some(from) = word_start {
            words.push(self.slice(from, self.text.len()));
        }
        words
    }

    /// The token without one pair of surrounding double quotes (GPGPU-Sim accepts them).
    fn unquoted(self) -> Token<'a> {
        let len = self.text.len();
        if len >= 2 && self.text.starts_with('"') && self.text.ends_with('"') {
            self.slice(1, len - 1)
        } else {
            self
        }
    }
}

/// Where a setting came from, to point errors and notes at it.
#[derive(Clone, Copy, Debug)]
struct Origin<'a> {
    line: u32,
    /// Column of the value.
    column: u32,
    option: &'a str,
}

/// The option line being parsed: builds errors that point into it.
struct Line<'a> {
    number: u32,
    text: &'a str,
    option: &'a str,
}

impl<'a> Line<'a> {
    /// 1-based column, in characters, of `token`.
    fn column(&self, token: Token<'_>) -> u32 {
        let chars = self.text.get(..token.start).map_or(token.start, |before| before.chars().count());
        u32::try_from(chars).unwrap_or(u32::MAX).saturating_add(1)
    }

    fn error(&self, at: Token<'_>, reason: String) -> ImportError {
        ImportError { line: self.number, column: self.column(at), option: String::from(self.option), reason }
    }

    fn origin(&self, value: Token<'_>) -> Origin<'a> {
        Origin { line: self.number, column: self.column(value), option: self.option }
    }

    fn note(&self, reason: impl Into<String>) -> IgnoredOption {
        IgnoredOption { line: self.number, option: String::from(self.option), reason: reason.into() }
    }
}

// ---------------------------------------------------------------------------------------------
// Parsing: text to typed settings.

/// A parsed value and where it came from.
#[derive(Clone, Copy, Debug)]
struct Setting<'a, T> {
    value: T,
    at: Origin<'a>,
}

/// A `-gpgpu_cache:dl1`/`dl2` value.
#[derive(Clone, Copy, Debug)]
enum CacheSpec {
    /// `none`.
    Disabled,
    Enabled(CacheGeometry),
}

/// The parts of a GPGPU-Sim cache spec. Policy letters are kept raw; [`apply`] decides what
/// each means for the L1 or the L2.
#[derive(Clone, Copy, Debug)]
struct CacheGeometry {
    /// Type letter `S`: 32-byte sectors.
    sectored: bool,
    sets: u32,
    line_bytes: u32,
    ways: u32,
    replacement: Replacement,
    write_policy: char,
    allocation: char,
    write_allocate: char,
    /// Set index function letter; `L` when the spec has none.
    set_index: char,
    mshr_entries: u32,
    mshr_max_merge: u32,
    miss_queue_entries: u32,
}

/// `-gpgpu_clock_domains core:icnt:l2:dram`, in MHz.
#[derive(Clone, Copy, Debug)]
struct ClockDomains {
    core: f64,
    interconnect: f64,
    l2: f64,
    dram: f64,
}

/// Every option the importer applies, last occurrence wins.
#[derive(Default)]
struct Options<'a> {
    clusters: Option<Setting<'a, u32>>,
    cores_per_cluster: Option<Setting<'a, u32>>,
    /// Threads per SM and warp size.
    pipeline: Option<Setting<'a, (u32, u32)>>,
    tbs_per_sm: Option<Setting<'a, u32>>,
    registers: Option<Setting<'a, u32>>,
    shared_memory: Option<Setting<'a, u32>>,
    schedulers: Option<Setting<'a, u32>>,
    issue_per_warp: Option<Setting<'a, u32>>,
    scheduler: Option<Setting<'a, &'a str>>,
    dl1: Option<Setting<'a, CacheSpec>>,
    dl2: Option<Setting<'a, CacheSpec>>,
    memory_channels: Option<Setting<'a, u32>>,
    sub_partitions_per_channel: Option<Setting<'a, u32>>,
    chips_per_channel: Option<Setting<'a, u32>>,
    bus_width: Option<Setting<'a, u32>>,
    data_command_ratio: Option<Setting<'a, u32>>,
    clocks: Option<Setting<'a, ClockDomains>>,
    l1_latency: Option<Setting<'a, u32>>,
    shared_memory_latency: Option<Setting<'a, u32>>,
    shared_memory_banks: Option<Setting<'a, u32>>,
    l2_latency: Option<Setting<'a, u32>>,
    dram_latency: Option<Setting<'a, u32>>,
    dram_queue: Option<Setting<'a, u32>>,
}

/// Stores `new` in `slot`, noting that an earlier occurrence was overridden.
fn set<'a, T>(slot: &mut Option<Setting<'a, T>>, new: Setting<'a, T>, ignored: &mut Vec<IgnoredOption>) {
    let new_line = new.at.line;
    if let Some(old) = slot.replace(new) {
        ignored.push(IgnoredOption {
            line: old.at.line,
            option: String::from(old.at.option),
            reason: format!("overridden by line {new_line}"),
        });
    }
}

/// Parses every line; unmodelled options go straight to `ignored`.
fn parse<'a>(text: &'a str, ignored: &mut Vec<IgnoredOption>) -> Result<Options<'a>, ImportError> {
    let mut options = Options::default();
    for (index, raw) in text.lines().enumerate() {
        let number = u32::try_from(index).unwrap_or(u32::MAX).saturating_add(1);
        let content = raw.find('#').and_then(|hash| raw.get(..hash)).unwrap_or(raw);
        let words = Token { text: content, start: 0 }.words();
        let Some(&name) = words.first() else { continue };
        let line = Line { number, text: raw, option: name.text };
        if !name.text.starts_with('-') || name.text.len() < 2 {
            return Err(
                line.error(name, format!("expected an option such as -gpgpu_n_clusters, found \"{}\"", name.text))
            );
        }
        // The value is everything after the name (values of some options contain spaces).
        let value_start = name.start.saturating_add(name.text.len());
        let value = Token { text: content, start: 0 }.slice(value_start, content.len());
        let value_start = value.text.len() - value.text.trim_start().len();
        let value = value.slice(value_start, value.text.trim_end().len()).unquoted();
        parse_option(&line, value, &mut options, ignored)?;
    }
    Ok(options)
}

/// Parses one option into `options`, or notes it as ignored.
fn parse_option<'a>(
    line: &Line<'a>,
    value: Token<'a>,
    options: &mut Options<'a>,
    ignored: &mut Vec<IgnoredOption>,
) -> Result<(), ImportError> {
    let whole_number = |slot: &mut Option<Setting<'a, u32>>, ignored: &mut Vec<IgnoredOption>| {
        let token = single_value(line, value)?;
        set(slot, Setting { value: whole(line, token)?, at: line.origin(token) }, ignored);
        Ok(())
    };
    let o = options;
    match line.option {
        "-gpgpu_n_clusters" => whole_number(&mut o.clusters, ignored),
        "-gpgpu_n_cores_per_cluster" => whole_number(&mut o.cores_per_cluster, ignored),
        "-gpgpu_shader_cta" => whole_number(&mut o.tbs_per_sm, ignored),
        "-gpgpu_shader_registers" => whole_number(&mut o.registers, ignored),
        "-gpgpu_shmem_size" => whole_number(&mut o.shared_memory, ignored),
        "-gpgpu_num_sched_per_core" => whole_number(&mut o.schedulers, ignored),
        "-gpgpu_max_insn_issue_per_warp" => whole_number(&mut o.issue_per_warp, ignored),
        "-gpgpu_n_mem" => whole_number(&mut o.memory_channels, ignored),
        "-gpgpu_n_sub_partition_per_mchannel" => whole_number(&mut o.sub_partitions_per_channel, ignored),
        "-gpgpu_n_mem_per_ctrlr" => whole_number(&mut o.chips_per_channel, ignored),
        "-gpgpu_dram_buswidth" => whole_number(&mut o.bus_width, ignored),
        "-dram_data_command_freq_ratio" => whole_number(&mut o.data_command_ratio, ignored),
        "-gpgpu_l1_latency" => whole_number(&mut o.l1_latency, ignored),
        "-gpgpu_smem_latency" => whole_number(&mut o.shared_memory_latency, ignored),
        "-gpgpu_shmem_num_banks" => whole_number(&mut o.shared_memory_banks, ignored),
        "-gpgpu_l2_rop_latency" => whole_number(&mut o.l2_latency, ignored),
        "-gpgpu_dram_latency" => whole_number(&mut o.dram_latency, ignored),
        "-gpgpu_dram_sched_queue_size" => whole_number(&mut o.dram_queue, ignored),
        "-gpgpu_shader_core_pipeline" => {
            let token = single_value(line, value)?;
            let fields = token.split(':');
            let [threads, warp] = fields.as_slice() else {
                return Err(line.error(token, format!("expected threads:warp_size, found \"{}\"", token.text)));
            };
            let value = (whole(line, *threads)?, whole(line, *warp)?);
            set(&mut o.pipeline, Setting { value, at: line.origin(token) }, ignored);
            Ok(())
        }
        "-gpgpu_scheduler" => {
            let token = single_value(line, value)?;
            let name = token.split(':').first().map_or("", |t| t.text);
            if name.is_empty() {
                return Err(
                    line.error(token, format!("expected a scheduler name such as gto, found \"{}\"", token.text))
                );
            }
            set(&mut o.scheduler, Setting { value: name, at: line.origin(token) }, ignored);
            Ok(())
        }
        "-gpgpu_cache:dl1" | "-gpgpu_cache:dl2" => {
            let token = single_value(line, value)?;
            let spec = Setting { value: cache_spec(line, token)?, at: line.origin(token) };
            let slot = if line.option == "-gpgpu_cache:dl1" { &mut o.dl1 } else { &mut o.dl2 };
            set(slot, spec, ignored);
            Ok(())
        }
        "-gpgpu_clock_domains" => {
            let token = single_value(line, value)?;
            let fields = token.split(':');
            let [core, interconnect, l2, dram] = fields.as_slice() else {
                return Err(line.error(token, format!("expected core:icnt:l2:dram in MHz, found \"{}\"", token.text)));
            };
            let value = ClockDomains {
                core: megahertz(line, *core)?,
                interconnect: megahertz(line, *interconnect)?,
                l2: megahertz(line, *l2)?,
                dram: megahertz(line, *dram)?,
            };
            set(&mut o.clocks, Setting { value, at: line.origin(token) }, ignored);
            Ok(())
        }
        name => {
            ignored.push(line.note(unmodelled_reason(name)));
            Ok(())
        }
    }
}

/// Why an option warpscope has no counterpart for is skipped.
fn unmodelled_reason(name: &str) -> &'static str {
    match name {
        "-gpgpu_kernel_launch_latency" => {
            "host launch overhead is not modelled by warpscope; a CDP child kernel's is device_launch.kernel_launch_latency"
        }
        "-gpgpu_dram_timing_opt" => "DRAM timing is modelled as a fixed latency and bandwidth (-gpgpu_dram_latency)",
        "-gpgpu_dram_burst_length" => "the burst length does not change the peak bandwidth; not modelled by warpscope",
        "-network_mode" | "-inter_config_file" => "the interconnect is set in warpscope's interconnect settings",
        "-gpgpu_cache:il1" | "-gpgpu_tex_cache:l1" | "-gpgpu_const_cache:l1" => {
            "instruction, texture and constant caches are not modelled by warpscope"
        }
        _ if name.starts_with("-gpgpu_ptx_") => "PTX front-end option; warpscope runs its own instruction set",
        _ if name.contains("power") => "warpscope has no power model",
        _ if name.starts_with("-visualizer") => "AerialVision output is not produced by warpscope",
        _ if name.starts_with("-trace") => "GPGPU-Sim debug tracing; not applicable",
        _ => "not modelled by warpscope",
    }
}

/// The value as one word: present, and nothing after it.
fn single_value<'a>(line: &Line<'_>, value: Token<'a>) -> Result<Token<'a>, ImportError> {
    let words = value.words();
    match words.as_slice() {
        [] => Err(line.error(value, String::from("expected a value after the option name"))),
        [word] => Ok(*word),
        [_, extra, ..] => Err(line.error(*extra, format!("unexpected \"{}\" after the value", extra.text))),
    }
}

/// A non-negative integer that fits in 32 bits.
fn whole(line: &Line<'_>, token: Token<'_>) -> Result<u32, ImportError> {
    let text = token.text;
    if text.is_empty() || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(line.error(token, format!("expected a whole number, found \"{text}\"")));
    }
    text.parse().map_err(|_| line.error(token, format!("expected a whole number below 2^32, found \"{text}\"")))
}

/// A finite, non-negative frequency.
fn megahertz(line: &Line<'_>, token: Token<'_>) -> Result<f64, ImportError> {
    match token.text.parse::<f64>() {
        Ok(mhz) if mhz.is_finite() && mhz >= 0.0 => Ok(mhz),
        _ => Err(line.error(token, format!("expected a frequency in MHz, found \"{}\"", token.text))),
    }
}

/// One policy letter that must be among `allowed`.
fn letter(line: &Line<'_>, token: Token<'_>, what: &str, allowed: &str) -> Result<char, ImportError> {
    let mut chars = token.text.chars();
    match (chars.next(), chars.next()) {
        (Some(c), None) if allowed.contains(c) => Ok(c),
        _ => Err(line.error(token, format!("expected {what}, found \"{}\"", token.text))),
    }
}

/// What a cache spec looks like, for error messages.
const CACHE_SPEC_SHAPE: &str =
    "[N|S:]sets:line_bytes:ways,replacement:write:allocation:write_allocate[:index],A:mshr_entries:max_merge,miss_queue";

/// Parses `[N:|S:]sets:line:assoc,rp:wp:ap:wap[:sif],A:entries:merge,miss_queue[:fifo][,port]` or `none`.
fn cache_spec(line: &Line<'_>, token: Token<'_>) -> Result<CacheSpec, ImportError> {
    if token.text == "none" {
        return Ok(CacheSpec::Disabled);
    }
    let groups = token.split(',');
    let (geometry, policies, mshr, queue) = match groups.as_slice() {
        [geometry, policies, mshr, queue] | [geometry, policies, mshr, queue, _] => {
            (*geometry, *policies, *mshr, *queue)
        }
        [_, _, _, _, _, extra, ..] => {
            return Err(line.error(*extra, format!("unexpected \"{}\" after the cache spec", extra.text)));
        }
        _ => {
            return Err(line.error(token, format!("expected {CACHE_SPEC_SHAPE} or none, found \"{}\"", token.text)));
        }
    };

    let geometry_fields = geometry.split(':');
    let (sectored, sets, line_bytes, ways) = match geometry_fields.as_slice() {
        [sets, line_bytes, ways] => (false, *sets, *line_bytes, *ways),
        [kind, sets, line_bytes, ways] => {
            let sectored = letter(line, *kind, "the cache type N (normal) or S (sectored)", "NS")? == 'S';
            (sectored, *sets, *line_bytes, *ways)
        }
        _ => {
            return Err(
                line.error(geometry, format!("expected [N|S:]sets:line_bytes:ways, found \"{}\"", geometry.text))
            );
        }
    };
    // Fields are checked left to right, so that the first error reported is the leftmost.
    let (sets, line_bytes, ways) = (whole(line, sets)?, whole(line, line_bytes)?, whole(line, ways)?);

    let policy_fields = policies.split(':');
    let (replacement, write_policy, allocation, write_allocate, set_index) = match policy_fields.as_slice() {
        [r, w, a, wa] => (*r, *w, *a, *wa, None),
        [r, w, a, wa, index] => (*r, *w, *a, *wa, Some(*index)),
        _ => {
            return Err(line.error(
                policies,
                format!("expected replacement:write:allocation:write_allocate[:index], found \"{}\"", policies.text),
            ));
        }
    };
    let replacement = match letter(line, replacement, "a replacement policy L (LRU) or F (FIFO)", "LF")? {
        'F' => Replacement::Fifo,
        _ => Replacement::Lru,
    };
    let write_policy = letter(line, write_policy, "a write policy R, B, T, E or L", "RBTEL")?;
    let allocation = letter(line, allocation, "an allocation policy m (on miss), f (on fill) or s (streaming)", "mfs")?;
    let write_allocate = letter(line, write_allocate, "a write-allocate policy N, W, F or L", "NWFL")?;
    let set_index = match set_index {
        None => 'L',
        Some(index) => {
            letter(line, index, "a set index function letter (H, L, P, C or X)", "ABCDEFGHIJKLMNOPQRSTUVWXYZ")?
        }
    };

    let mshr_fields = mshr.split(':');
    let [kind, entries, merge] = mshr_fields.as_slice() else {
        return Err(line.error(mshr, format!("expected A:mshr_entries:max_merge, found \"{}\"", mshr.text)));
    };
    letter(line, *kind, "the MSHR type A (associative) or S (sectored)", "AS")?;
    let (mshr_entries, mshr_max_merge) = (whole(line, *entries)?, whole(line, *merge)?);

    let queue_fields = queue.split(':');
    let miss_queue_entries = match queue_fields.as_slice() {
        // The result FIFO and the data port width (4.x) are accepted and not modelled.
        [entries] | [entries, _] => whole(line, *entries)?,
        _ => return Err(line.error(queue, format!("expected miss_queue[:result_fifo], found \"{}\"", queue.text))),
    };
    if let [_, result_fifo] = queue_fields.as_slice() {
        whole(line, *result_fifo)?;
    }
    if let Some(port_width) = groups.get(4) {
        whole(line, *port_width)?;
    }

    Ok(CacheSpec::Enabled(CacheGeometry {
        sectored,
        sets,
        line_bytes,
        ways,
        replacement,
        write_policy,
        allocation,
        write_allocate,
        set_index,
        mshr_entries,
        mshr_max_merge,
        miss_queue_entries,
    }))
}

// ---------------------------------------------------------------------------------------------
// Applying: typed settings to a GpuConfig.

/// Which option set each warpscope field, so that a validation error can point at its line.
#[derive(Default)]
struct Sources<'a> {
    /// `(field, origin)` in the order recorded; the last record of a field wins.
    records: Vec<(&'static str, Origin<'a>)>,
}

impl<'a> Sources<'a> {
    fn record(&mut self, fields: &[&'static str], at: Origin<'a>) {
        self.records.extend(fields.iter().map(|field| (*field, at)));
    }

    fn of(&self, field: &str) -> Option<Origin<'a>> {
        self.records.iter().rev().find(|(f, _)| *f == field).map(|(_, at)| *at)
    }
}

/// Applies one whole-number setting to one field.
fn put<'a>(target: &mut u32, setting: Option<Setting<'a, u32>>, field: &'static str, sources: &mut Sources<'a>) {
    if let Some(s) = setting {
        *target = s.value;
        sources.record(&[field], s.at);
    }
}

fn ignored_at(at: Origin<'_>, reason: impl Into<String>) -> IgnoredOption {
    IgnoredOption { line: at.line, option: String::from(at.option), reason: reason.into() }
}

/// The DRAM bandwidth per channel in bytes per core cycle:
/// `bus_width × chips_per_channel × data_rate × dram_mhz / core_mhz`, rounded, at least 1 when
/// positive: a zero bus width, chip count or data rate gives 0, which validation refuses.
///
/// `-gpgpu_dram_buswidth` is the width of one DRAM chip in bytes, `-gpgpu_n_mem_per_ctrlr` the
/// chips per channel (GPGPU-Sim's default 1) and `-dram_data_command_freq_ratio` the transfers
/// per DRAM command clock (default 2, DDR; GDDR5 configs give 4). The DRAM clock is the command
/// clock of `-gpgpu_clock_domains`. The GTX 480's 4 B × 2 × 4 × 924 / 700 gives 42 B per cycle
/// and channel, 177 GB/s over 6 channels. `None` when the core clock is 0 (validation reports it).
fn dram_bytes_per_cycle(
    bus_width: u32,
    chips_per_channel: u32,
    data_rate: u32,
    dram_mhz: f64,
    core_mhz: f64,
) -> Option<u32> {
    if core_mhz <= 0.0 {
        return None;
    }
    let bytes = f64::from(bus_width) * f64::from(chips_per_channel) * f64::from(data_rate) * dram_mhz / core_mhz;
    if bytes <= 0.0 || bytes.is_nan() {
        return Some(0);
    }
    // `as` saturates, so no value can overflow.
    Some((libm::round(bytes) as u32).max(1))
}

/// What the L1 cannot do of what a cache spec asks, as notes.
fn l1_spec_notes(spec: &CacheGeometry) -> Vec<String> {
    let mut notes = Vec::new();
    if spec.write_policy == 'B' {
        notes.push(String::from("write-back L1 ('B') is not modelled; using write-through"));
    }
    if spec.write_allocate != 'N' {
        notes.push(format!(
            "write-allocate '{}' is not modelled; warpscope's L1 never allocates on a store",
            spec.write_allocate
        ));
    }
    notes.extend(common_spec_notes(spec));
    notes
}

/// What the L2 cannot do of what a cache spec asks, as notes.
fn l2_spec_notes(spec: &CacheGeometry, l1_line_bytes: u32) -> Vec<String> {
    let mut notes = Vec::new();
    if spec.write_policy != 'B' {
        notes.push(format!("warpscope's L2 is always write-back (found write policy '{}')", spec.write_policy));
    }
    if spec.write_allocate != 'W' {
        notes.push(format!(
            "warpscope's L2 always allocates on a store (found write-allocate '{}')",
            spec.write_allocate
        ));
    }
    if spec.line_bytes != l1_line_bytes {
        notes.push(format!(
            "L2 lines are the L1 line size in warpscope ({l1_line_bytes} B, found {} B); capacity kept",
            spec.line_bytes
        ));
    }
    notes.extend(common_spec_notes(spec));
    notes
}

fn common_spec_notes(spec: &CacheGeometry) -> Vec<String> {
    let mut notes = Vec::new();
    match spec.allocation {
        'f' => notes.push(String::from("allocate-on-fill ('f') is not modelled")),
        's' => notes.push(String::from("streaming allocation ('s') is not modelled")),
        _ => {}
    }
    if set_index(spec.set_index).is_none() {
        let name = match spec.set_index {
            'P' => "IPOLY hash",
            'C' => "custom",
            'X' => "bitwise XOR",
            _ => "unknown",
        };
        notes.push(format!("set index function '{}' ({name}) is not modelled; using linear indexing", spec.set_index));
    }
    notes
}

/// The set index function a letter names, if warpscope models it.
fn set_index(letter: char) -> Option<SetIndex> {
    match letter {
        'H' => Some(SetIndex::FermiHash),
        'L' => Some(SetIndex::Linear),
        _ => None,
    }
}

/// Pushes the notes of a partly applied option as one ignored entry.
fn push_notes(at: Origin<'_>, notes: Vec<String>, ignored: &mut Vec<IgnoredOption>) {
    if !notes.is_empty() {
        ignored.push(ignored_at(at, format!("partly applied: {}", notes.join("; "))));
    }
}

/// `sets × line × ways`, saturating (validation rejects the saturated value).
fn capacity(spec: &CacheGeometry) -> u32 {
    spec.sets.saturating_mul(spec.line_bytes).saturating_mul(spec.ways)
}

/// Builds the machine: `base` with every setting applied.
fn apply<'a>(
    options: &Options<'a>,
    base: GpuConfig,
    ignored: &mut Vec<IgnoredOption>,
    sources: &mut Sources<'a>,
) -> GpuConfig {
    let mut config = base;
    apply_core(options, &mut config, ignored, sources);
    apply_l1(options, &mut config, ignored, sources);
    apply_l2(options, &mut config, ignored, sources);
    apply_memory(options, &mut config, ignored, sources);
    config
}

fn apply_core<'a>(
    options: &Options<'a>,
    config: &mut GpuConfig,
    ignored: &mut Vec<IgnoredOption>,
    sources: &mut Sources<'a>,
) {
    let core = &mut config.core;
    if options.clusters.is_some() || options.cores_per_cluster.is_some() {
        // The base is `sm_count` clusters of one core each.
        let clusters = options.clusters.map_or(core.sm_count, |s| s.value);
        let per_cluster = options.cores_per_cluster.map_or(1, |s| s.value);
        core.sm_count = clusters.saturating_mul(per_cluster);
        for s in [options.clusters, options.cores_per_cluster].into_iter().flatten() {
            sources.record(&["core.sm_count", "interconnect.topology"], s.at);
        }
    }
    if let Some(s) = options.pipeline {
        let (threads, warp_size) = s.value;
        core.max_threads_per_sm = threads;
        core.warp_size = warp_size;
        core.max_warps_per_sm = threads.checked_div(warp_size).unwrap_or(0);
        sources.record(&["core.max_threads_per_sm", "core.warp_size", "core.max_warps_per_sm"], s.at);
    }
    put(&mut core.max_tbs_per_sm, options.tbs_per_sm, "core.max_tbs_per_sm", sources);
    put(&mut core.registers_per_sm, options.registers, "core.registers_per_sm", sources);
    put(&mut core.shared_memory_per_sm, options.shared_memory, "core.shared_memory_per_sm", sources);
    put(&mut core.schedulers_per_sm, options.schedulers, "core.schedulers_per_sm", sources);
    if let Some(s) = options.issue_per_warp {
        // GPGPU-Sim's limit is per warp (dual issue); warpscope's closest knob is what each
        // scheduler issues per cycle, which it allows from 1 to 8.
        core.issue_width = s.value.clamp(1, 8);
        if core.issue_width != s.value {
            ignored.push(ignored_at(s.at, format!("issue width must be 1 to 8; used {}", core.issue_width)));
        }
        sources.record(&["core.issue_width"], s.at);
    }
    if let Some(s) = options.scheduler {
        ignored.push(ignored_at(s.at, format!("warp scheduler is chosen in the policy picker (found: {})", s.value)));
    }
}

fn apply_l1<'a>(
    options: &Options<'a>,
    config: &mut GpuConfig,
    ignored: &mut Vec<IgnoredOption>,
    sources: &mut Sources<'a>,
) {
    let l1 = &mut config.l1;
    match options.dl1 {
        None => {}
        Some(Setting { value: CacheSpec::Disabled, at }) => {
            l1.size_bytes = 0;
            sources.record(&["l1.size_bytes"], at);
        }
        Some(Setting { value: CacheSpec::Enabled(spec), at }) => {
            l1.size_bytes = capacity(&spec);
            l1.line_bytes = spec.line_bytes;
            l1.sector_bytes = if spec.sectored { 32 } else { spec.line_bytes };
            l1.ways = spec.ways;
            l1.replacement = spec.replacement;
            l1.index = set_index(spec.set_index).unwrap_or(SetIndex::Linear);
            l1.mshr_entries = spec.mshr_entries;
            l1.mshr_max_merge = spec.mshr_max_merge;
            l1.miss_queue_entries = spec.miss_queue_entries;
            l1.write_policy = match spec.write_policy {
                'T' | 'B' => L1WritePolicy::WriteThrough,
                _ => L1WritePolicy::WriteEvict,
            };
            sources.record(
                &[
                    "l1.size_bytes",
                    "l1.line_bytes",
                    "l1.sector_bytes",
                    "l1.ways",
                    "l1.index",
                    "l1.mshr_entries",
                    "l1.mshr_max_merge",
                    "l1.miss_queue_entries",
                    "interconnect.flit_bytes",
                ],
                at,
            );
            push_notes(at, l1_spec_notes(&spec), ignored);
        }
    }
    put(&mut l1.hit_latency, options.l1_latency, "l1.hit_latency", sources);
    put(&mut config.shared_memory.latency, options.shared_memory_latency, "shared_memory.latency", sources);
    put(&mut config.shared_memory.banks, options.shared_memory_banks, "shared_memory.banks", sources);
}

fn apply_l2<'a>(
    options: &Options<'a>,
    config: &mut GpuConfig,
    ignored: &mut Vec<IgnoredOption>,
    sources: &mut Sources<'a>,
) {
    const BANK_FIELDS: [&str; 4] = ["l2.banks", "l2.size_bytes", "dram.channels", "interconnect.topology"];
    let channels = options.memory_channels.map_or(config.dram.channels, |s| s.value);
    let per_channel = options.sub_partitions_per_channel.map_or(1, |s| s.value);
    let sub_partitions = channels.saturating_mul(per_channel);
    let l2 = &mut config.l2;
    let dl2_enabled = matches!(options.dl2, Some(Setting { value: CacheSpec::Enabled(_), .. }));
    if options.memory_channels.is_some() || options.sub_partitions_per_channel.is_some() || dl2_enabled {
        // Without a dl2 geometry the base's total capacity is kept, spread over the new banks.
        l2.banks = sub_partitions;
    }
    for s in [options.memory_channels, options.sub_partitions_per_channel].into_iter().flatten() {
        sources.record(&BANK_FIELDS, s.at);
    }
    match options.dl2 {
        None => {}
        Some(Setting { value: CacheSpec::Disabled, at }) => {
            ignored.push(ignored_at(at, "warpscope always simulates an L2; kept the base's L2"));
        }
        Some(Setting { value: CacheSpec::Enabled(spec), at }) => {
            l2.size_bytes = capacity(&spec).saturating_mul(sub_partitions);
            l2.ways = spec.ways;
            l2.replacement = spec.replacement;
            l2.index = set_index(spec.set_index).unwrap_or(SetIndex::Linear);
            l2.mshr_entries = spec.mshr_entries;
            l2.mshr_max_merge = spec.mshr_max_merge;
            // GPGPU-Sim's sectored caches ('S') keep 32-byte sectors.
            l2.sector_bytes = if spec.sectored { 32 } else { config.l1.line_bytes };
            sources.record(&BANK_FIELDS, at);
            sources.record(&["l2.ways", "l2.index", "l2.mshr_entries", "l2.mshr_max_merge", "l2.sector_bytes"], at);
            push_notes(at, l2_spec_notes(&spec, config.l1.line_bytes), ignored);
        }
    }
    put(&mut l2.hit_latency, options.l2_latency, "l2.hit_latency", sources);
}

fn apply_memory<'a>(
    options: &Options<'a>,
    config: &mut GpuConfig,
    ignored: &mut Vec<IgnoredOption>,
    sources: &mut Sources<'a>,
) {
    put(&mut config.dram.channels, options.memory_channels, "dram.channels", sources);
    put(&mut config.dram.latency, options.dram_latency, "dram.latency", sources);
    if let Some(s) = options.dram_queue {
        config.dram.queue_entries = if s.value == 0 { 64 } else { s.value };
        if s.value == 0 {
            ignored.push(ignored_at(s.at, "0 (unlimited in GPGPU-Sim) mapped to 64 entries"));
        }
        sources.record(&["dram.queue_entries"], s.at);
    }

    let mut core_mhz = f64::from(config.clocks.core_mhz);
    let mut dram_mhz = f64::from(config.clocks.memory_mhz);
    if let Some(s) = options.clocks {
        let clocks = s.value;
        core_mhz = clocks.core;
        dram_mhz = clocks.dram;
        config.clocks.core_mhz = libm::round(clocks.core) as u32;
        config.clocks.memory_mhz = libm::round(clocks.dram) as u32;
        sources.record(&["clocks.core_mhz", "clocks.memory_mhz"], s.at);
        if clocks.interconnect != clocks.core || clocks.l2 != clocks.core {
            ignored.push(ignored_at(
                s.at,
                format!(
                    "partly applied: the interconnect and L2 run at the core clock in warpscope (found {} and {} MHz)",
                    clocks.interconnect, clocks.l2
                ),
            ));
        }
    }

    match options.bus_width {
        Some(bus) => {
            let chips = options.chips_per_channel.map_or(1, |s| s.value);
            let rate = options.data_command_ratio.map_or(2, |s| s.value);
            if let Some(bytes) = dram_bytes_per_cycle(bus.value, chips, rate, dram_mhz, core_mhz) {
                config.dram.bytes_per_cycle = bytes;
            }
            sources.record(&["dram.bytes_per_cycle"], bus.at);
        }
        None => {
            for s in [options.chips_per_channel, options.data_command_ratio].into_iter().flatten() {
                ignored.push(ignored_at(s.at, "used only with -gpgpu_dram_buswidth, to compute the DRAM bandwidth"));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets::fermi_gtx480;
    use alloc::string::ToString;
    use alloc::vec;

    /// A Fermi GTX 480-like machine, written for these tests.
    const GTX480_LIKE: &str = "\
# A GTX 480-like GPU
-gpgpu_n_clusters 15
-gpgpu_n_cores_per_cluster 1
-gpgpu_shader_core_pipeline 1536:32   # threads per SM : warp size

-gpgpu_shader_cta 8
-gpgpu_shader_registers 32768
-gpgpu_shmem_size 49152
-gpgpu_num_sched_per_core 2
-gpgpu_max_insn_issue_per_warp 1
-gpgpu_scheduler gto
-gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:32:8,8
-gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4,4
-gpgpu_n_mem 6
-gpgpu_n_sub_partition_per_mchannel 2
-gpgpu_n_mem_per_ctrlr 2
-gpgpu_dram_buswidth 4
-gpgpu_dram_burst_length 8
-dram_data_command_freq_ratio 4
-gpgpu_clock_domains 700.0:700.0:700.0:924.0
-gpgpu_ptx_force_max_capability 20
-gpgpu_perfect_mem 0
";

    fn import_gtx(text: &str) -> Result<Imported, ImportError> {
        import(text, fermi_gtx480())
    }

    fn note(line: u32, option: &str, reason: &str) -> IgnoredOption {
        IgnoredOption { line, option: option.to_string(), reason: reason.to_string() }
    }

    #[test]
    fn a_gtx480_like_file_maps_every_field() {
        let imported = import_gtx(GTX480_LIKE).unwrap();
        let c = &imported.config;
        assert_eq!(c.core.sm_count, 15);
        assert_eq!((c.core.max_threads_per_sm, c.core.warp_size, c.core.max_warps_per_sm), (1536, 32, 48));
        assert_eq!((c.core.max_tbs_per_sm, c.core.registers_per_sm), (8, 32768));
        assert_eq!((c.core.shared_memory_per_sm, c.core.schedulers_per_sm, c.core.issue_width), (49152, 2, 1));
        assert_eq!((c.l1.size_bytes, c.l1.line_bytes, c.l1.sector_bytes, c.l1.ways), (16384, 128, 128, 4));
        assert_eq!(
            (c.l1.index, c.l1.replacement, c.l1.write_policy),
            (SetIndex::FermiHash, Replacement::Lru, L1WritePolicy::WriteEvict)
        );
        assert_eq!((c.l1.mshr_entries, c.l1.mshr_max_merge, c.l1.miss_queue_entries), (32, 8, 8));
        assert_eq!((c.l2.banks, c.l2.size_bytes, c.l2.ways), (12, 768 * 1024, 8));
        assert_eq!((c.l2.index, c.l2.mshr_entries, c.l2.mshr_max_merge), (SetIndex::Linear, 32, 4));
        assert_eq!((c.dram.channels, c.dram.bytes_per_cycle), (6, 42));
        assert_eq!((c.clocks.core_mhz, c.clocks.memory_mhz), (700, 924));
        assert_eq!(imported.warp_scheduler.as_deref(), Some("gto"));
        assert_eq!(
            imported.ignored,
            vec![
                note(11, "-gpgpu_scheduler", "warp scheduler is chosen in the policy picker (found: gto)"),
                note(
                    18,
                    "-gpgpu_dram_burst_length",
                    "the burst length does not change the peak bandwidth; not modelled by warpscope"
                ),
                note(
                    21,
                    "-gpgpu_ptx_force_max_capability",
                    "PTX front-end option; warpscope runs its own instruction set"
                ),
                note(22, "-gpgpu_perfect_mem", "not modelled by warpscope"),
            ]
        );
        // The preset is this machine, except the L2 hash, which the file sets to linear.
        let mut expected = fermi_gtx480();
        expected.l2.index = SetIndex::Linear;
        assert_eq!(imported.config, expected);
    }

    #[test]
    fn every_mapped_option_changes_its_field() {
        let text = "\
-gpgpu_n_clusters 7
-gpgpu_n_cores_per_cluster 2
-gpgpu_shader_core_pipeline 2048:32
-gpgpu_shader_cta 16
-gpgpu_shader_registers 65536
-gpgpu_shmem_size 32768
-gpgpu_num_sched_per_core 4
-gpgpu_max_insn_issue_per_warp 2
-gpgpu_cache:dl1 S:64:128:6,F:T:m:N:L,S:64:4,12:0,32
-gpgpu_cache:dl2 32:128:16,F:B:m:W:H,A:64:8,8
-gpgpu_n_mem 4
-gpgpu_n_sub_partition_per_mchannel 4
-gpgpu_dram_buswidth 8
-gpgpu_clock_domains 1000.4:1000.4:1000.4:2500.6
-gpgpu_l1_latency 28
-gpgpu_smem_latency 24
-gpgpu_shmem_num_banks 16
-gpgpu_l2_rop_latency 90
-gpgpu_dram_latency 250
-gpgpu_dram_sched_queue_size 24
";
        let imported = import_gtx(text).unwrap();
        let mut expected = fermi_gtx480();
        expected.core.sm_count = 14;
        expected.core.max_threads_per_sm = 2048;
        expected.core.max_warps_per_sm = 64;
        expected.core.max_tbs_per_sm = 16;
        expected.core.registers_per_sm = 65536;
        expected.core.shared_memory_per_sm = 32768;
        expected.core.schedulers_per_sm = 4;
        expected.core.issue_width = 2;
        expected.l1.size_bytes = 64 * 128 * 6;
        expected.l1.sector_bytes = 32;
        expected.l1.ways = 6;
        expected.l1.replacement = Replacement::Fifo;
        expected.l1.index = SetIndex::Linear;
        expected.l1.mshr_entries = 64;
        expected.l1.mshr_max_merge = 4;
        expected.l1.miss_queue_entries = 12;
        expected.l1.write_policy = L1WritePolicy::WriteThrough;
        expected.l1.hit_latency = 28;
        expected.shared_memory = crate::config::SharedMemoryConfig { banks: 16, latency: 24 };
        expected.l2.banks = 16;
        expected.l2.size_bytes = 32 * 128 * 16 * 16;
        expected.l2.ways = 16;
        expected.l2.replacement = Replacement::Fifo;
        expected.l2.index = SetIndex::FermiHash;
        expected.l2.mshr_entries = 64;
        expected.l2.mshr_max_merge = 8;
        expected.l2.hit_latency = 90;
        expected.dram.channels = 4;
        // 8 B × 1 chip × 2 transfers × 2500.6 / 1000.4 = 39.99 → 40.
        expected.dram.bytes_per_cycle = 40;
        expected.dram.latency = 250;
        expected.dram.queue_entries = 24;
        expected.clocks.core_mhz = 1000;
        expected.clocks.memory_mhz = 2501;
        assert_eq!(imported.config, expected);
        assert_eq!(imported.ignored, vec![]);
        assert_eq!(imported.warp_scheduler, None);
    }

    #[test]
    fn comments_and_blank_lines_change_nothing() {
        let text = "\n# only a comment\n   \n\t# indented comment -gpgpu_n_clusters 3\n-gpgpu_n_clusters 5 # five\n";
        let imported = import_gtx(text).unwrap();
        assert_eq!(imported.config.core.sm_count, 5);
        assert_eq!(imported.ignored, vec![]);
        assert_eq!(import_gtx("").unwrap().config, fermi_gtx480());
    }

    #[test]
    fn unknown_options_are_listed_with_their_lines() {
        let text = "-gpgpu_n_clusters 15\n\n-gpgpu_kernel_launch_latency 5000\n-gpgpu_dram_timing_opt \"nbk=16:CCD=2 RRD=6\"\n-visualizer_enabled 0\n-power_simulation_enabled 0\n-network_mode 1\n-some_future_option\n";
        let ignored = import_gtx(text).unwrap().ignored;
        let lines: Vec<(u32, &str)> = ignored.iter().map(|i| (i.line, i.option.as_str())).collect();
        assert_eq!(
            lines,
            vec![
                (3, "-gpgpu_kernel_launch_latency"),
                (4, "-gpgpu_dram_timing_opt"),
                (5, "-visualizer_enabled"),
                (6, "-power_simulation_enabled"),
                (7, "-network_mode"),
                (8, "-some_future_option"),
            ]
        );
        assert_eq!(ignored[0].reason, "host launch overhead is not modelled by warpscope; a CDP child kernel's is device_launch.kernel_launch_latency");
        assert_eq!(ignored[3].reason, "warpscope has no power model");
        assert_eq!(ignored[5].reason, "not modelled by warpscope");
    }

    #[test]
    fn later_occurrences_override_earlier_ones() {
        let imported = import_gtx("-gpgpu_shader_cta 4\n-gpgpu_scheduler lrr\n-gpgpu_shader_cta 6\n").unwrap();
        assert_eq!(imported.config.core.max_tbs_per_sm, 6);
        assert_eq!(imported.warp_scheduler.as_deref(), Some("lrr"));
        assert_eq!(imported.ignored[0], note(1, "-gpgpu_shader_cta", "overridden by line 3"));
    }

    #[test]
    fn the_scheduler_name_drops_its_parameters() {
        let imported = import_gtx("-gpgpu_scheduler two_level_active:6:0:1\n").unwrap();
        assert_eq!(imported.warp_scheduler.as_deref(), Some("two_level_active"));
        assert_eq!(
            imported.ignored,
            vec![note(
                1,
                "-gpgpu_scheduler",
                "warp scheduler is chosen in the policy picker (found: two_level_active)"
            )]
        );
    }

    #[test]
    fn a_missing_cluster_count_keeps_the_base_sm_count() {
        assert_eq!(import_gtx("-gpgpu_n_cores_per_cluster 2\n").unwrap().config.core.sm_count, 30);
        assert_eq!(import_gtx("-gpgpu_n_clusters 10\n").unwrap().config.core.sm_count, 10);
    }

    #[test]
    fn dl2_is_per_sub_partition_and_defaults_to_the_base_channels() {
        // No -gpgpu_n_mem: the base's 6 channels, one sub-partition each.
        let c = import_gtx("-gpgpu_cache:dl2 64:128:8,L:B:m:W:L,A:32:4,4\n").unwrap().config;
        assert_eq!((c.l2.banks, c.l2.size_bytes), (6, 6 * 64 * 1024));
        // Only the channel count: the base's total capacity over the new banks.
        let c = import_gtx("-gpgpu_n_mem 12\n-gpgpu_n_sub_partition_per_mchannel 2\n").unwrap().config;
        assert_eq!((c.l2.banks, c.l2.size_bytes, c.dram.channels), (24, 768 * 1024, 12));
    }

    #[test]
    fn dl1_none_disables_the_l1() {
        let imported = import_gtx("-gpgpu_cache:dl1 none\n").unwrap();
        let mut expected = fermi_gtx480();
        expected.l1.size_bytes = 0;
        assert_eq!(imported.config, expected);
        assert_eq!(imported.ignored, vec![]);
    }

    #[test]
    fn dl2_none_keeps_the_l2_and_says_so() {
        let imported = import_gtx("-gpgpu_cache:dl2 none\n").unwrap();
        assert_eq!(imported.config.l2, fermi_gtx480().l2);
        assert_eq!(
            imported.ignored,
            vec![note(1, "-gpgpu_cache:dl2", "warpscope always simulates an L2; kept the base's L2")]
        );
    }

    #[test]
    fn old_specs_without_an_index_letter_are_linear() {
        let c = import_gtx("-gpgpu_cache:dl1 32:128:4,L:L:m:N,A:32:8,8\n").unwrap().config;
        assert_eq!((c.l1.index, c.l1.size_bytes), (SetIndex::Linear, 16384));
    }

    #[test]
    fn unmodelled_cache_policies_are_applied_as_close_as_possible_and_noted() {
        let imported = import_gtx("-gpgpu_cache:dl1 N:64:128:4,L:B:f:W:P,A:32:8,8\n").unwrap();
        assert_eq!(imported.config.l1.write_policy, L1WritePolicy::WriteThrough);
        assert_eq!(imported.config.l1.index, SetIndex::Linear);
        assert_eq!(
            imported.ignored,
            vec![note(
                1,
                "-gpgpu_cache:dl1",
                "partly applied: write-back L1 ('B') is not modelled; using write-through; write-allocate 'W' is not \
                 modelled; warpscope's L1 never allocates on a store; allocate-on-fill ('f') is not modelled; set \
                 index function 'P' (IPOLY hash) is not modelled; using linear indexing"
            )]
        );
    }

    #[test]
    fn an_l2_line_size_other_than_the_l1_keeps_the_capacity() {
        let imported = import_gtx("-gpgpu_n_mem 6\n-gpgpu_cache:dl2 128:64:8,L:T:m:W:L,A:32:4,4\n").unwrap();
        assert_eq!(imported.config.l2.size_bytes, 128 * 64 * 8 * 6);
        assert_eq!(
            imported.ignored,
            vec![note(
                2,
                "-gpgpu_cache:dl2",
                "partly applied: warpscope's L2 is always write-back (found write policy 'T'); L2 lines are the L1 line \
                 size in warpscope (128 B, found 64 B); capacity kept"
            )]
        );
    }

    #[test]
    fn a_malformed_dl1_spec_points_at_the_bad_token() {
        let e = import_gtx("-gpgpu_n_clusters 15\n-gpgpu_cache:dl1 32:128:4,L:Q:m:N:H,A:32:8,8\n").unwrap_err();
        assert_eq!((e.line, e.column, e.option.as_str()), (2, 29, "-gpgpu_cache:dl1"));
        assert_eq!(e.reason, "expected a write policy R, B, T, E or L, found \"Q\"");
        assert_eq!(e.to_string(), "line 2: -gpgpu_cache:dl1: expected a write policy R, B, T, E or L, found \"Q\"");

        let e = import_gtx("  -gpgpu_cache:dl1 32:128:4,L:L:m:N:H,A:32:x8,8\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 44));
        assert_eq!(e.reason, "expected a whole number, found \"x8\"");

        let e = import_gtx("-gpgpu_cache:dl1 32:128:4,L:L:m:N:H\n").unwrap_err();
        assert_eq!((e.line, e.column), (1, 18));
        assert!(e.reason.starts_with("expected [N|S:]sets:line_bytes:ways,"), "{}", e.reason);

        let e = import_gtx("-gpgpu_cache:dl1 X:32:128:4,L:L:m:N:H,A:32:8,8\n").unwrap_err();
        assert_eq!(
            (e.column, e.reason.as_str()),
            (18, "expected the cache type N (normal) or S (sectored), found \"X\"")
        );
    }

    #[test]
    fn a_bad_integer_points_at_the_value() {
        let e = import_gtx("# machine\n-gpgpu_shader_cta   abc\n").unwrap_err();
        assert_eq!(
            e,
            ImportError {
                line: 2,
                column: 21,
                option: "-gpgpu_shader_cta".to_string(),
                reason: "expected a whole number, found \"abc\"".to_string(),
            }
        );
        let e = import_gtx("-gpgpu_shader_core_pipeline 1536:-32\n").unwrap_err();
        assert_eq!((e.column, e.reason.as_str()), (34, "expected a whole number, found \"-32\""));
        let e = import_gtx("-gpgpu_n_mem 99999999999\n").unwrap_err();
        assert_eq!(e.column, 14);
        let e = import_gtx("-gpgpu_n_mem 6 7\n").unwrap_err();
        assert_eq!((e.column, e.reason.as_str()), (16, "unexpected \"7\" after the value"));
        let e = import_gtx("-gpgpu_n_mem\n").unwrap_err();
        assert_eq!(e.reason, "expected a value after the option name");
        let e = import_gtx("-gpgpu_clock_domains 700:700:fast:924\n").unwrap_err();
        assert_eq!((e.column, e.reason.as_str()), (30, "expected a frequency in MHz, found \"fast\""));
    }

    #[test]
    fn a_line_that_is_not_an_option_is_an_error() {
        let e = import_gtx("-gpgpu_n_mem 6\n  gpgpu_n_clusters 4\n").unwrap_err();
        assert_eq!((e.line, e.column), (2, 3));
        assert_eq!(e.reason, "expected an option such as -gpgpu_n_clusters, found \"gpgpu_n_clusters\"");
    }

    #[test]
    fn an_invalid_result_names_the_field_and_the_line() {
        // 16 sets cannot use the Fermi hash.
        let e = import_gtx("-gpgpu_n_mem 6\n-gpgpu_cache:dl1 16:128:4,L:L:m:N:H,A:32:8,8\n").unwrap_err();
        assert_eq!((e.line, e.column, e.option.as_str()), (2, 18, "-gpgpu_cache:dl1"));
        assert!(e.reason.starts_with("invalid l1.index: the Fermi hash is defined for 32 or 64 sets"), "{}", e.reason);

        // 33 × 64 B × 3 ways per bank is not a whole number of 128 B × 3-way sets.
        let e = import_gtx("-gpgpu_cache:dl2 33:64:3,L:B:m:W:L,A:32:4,4\n-gpgpu_n_mem 6\n").unwrap_err();
        assert_eq!((e.line, e.option.as_str()), (1, "-gpgpu_cache:dl2"));
        assert!(e.reason.starts_with("invalid l2.size_bytes: must be a non-zero multiple of"), "{}", e.reason);

        let e = import_gtx("-gpgpu_shader_core_pipeline 1536:0\n").unwrap_err();
        assert_eq!((e.line, e.reason.as_str()), (1, "invalid core.warp_size: must be between 1 and 32, got 0"));

        let e = import_gtx("-gpgpu_n_mem 5\n").unwrap_err();
        assert_eq!((e.line, e.option.as_str()), (1, "-gpgpu_n_mem"));
        assert!(e.reason.starts_with("invalid l2.size_bytes: must divide evenly into 5 banks"), "{}", e.reason);
    }

    #[test]
    fn huge_values_saturate_and_are_rejected_by_validation() {
        let e = import_gtx("-gpgpu_cache:dl1 4294967295:4294967295:4,L:L:m:N:L,A:32:8,8\n").unwrap_err();
        assert_eq!((e.line, e.option.as_str()), (1, "-gpgpu_cache:dl1"));
        assert_eq!(e.reason, "invalid l1.line_bytes: must be a power of two, got 4294967295");
        let e = import_gtx("-gpgpu_n_clusters 4294967295\n-gpgpu_n_cores_per_cluster 2\n").unwrap_err();
        assert_eq!(
            (e.line, e.reason.as_str()),
            (2, "invalid core.sm_count: must be between 1 and 1024, got 4294967295")
        );
        let e = import_gtx("-gpgpu_dram_buswidth 4294967295\n-gpgpu_clock_domains 1:1:1:100000\n").unwrap_err();
        assert_eq!(
            (e.line, e.reason.as_str()),
            (1, "invalid dram.bytes_per_cycle: must be between 1 and 65536, got 4294967295")
        );
    }

    #[test]
    fn a_zero_bus_width_is_refused_not_rounded_up() {
        let e = import_gtx("-gpgpu_dram_buswidth 0\n").unwrap_err();
        assert_eq!(
            (e.line, e.reason.as_str()),
            (1, "invalid dram.bytes_per_cycle: must be between 1 and 65536, got 0")
        );
        let e = import_gtx("-gpgpu_dram_buswidth 4\n-gpgpu_n_mem_per_ctrlr 0\n").unwrap_err();
        assert_eq!(e.reason, "invalid dram.bytes_per_cycle: must be between 1 and 65536, got 0");
    }

    #[test]
    fn the_leftmost_error_is_reported_first() {
        let e = import_gtx("-gpgpu_cache:dl1 3x:128:4,L:Q:m:N:H,A:32:8,8\n").unwrap_err();
        assert_eq!((e.column, e.reason.as_str()), (18, "expected a whole number, found \"3x\""));
    }

    #[test]
    fn a_zero_dram_queue_is_unlimited_and_mapped_to_64() {
        let imported = import_gtx("-gpgpu_dram_sched_queue_size 0\n").unwrap();
        assert_eq!(imported.config.dram.queue_entries, 64);
        assert_eq!(
            imported.ignored,
            vec![note(1, "-gpgpu_dram_sched_queue_size", "0 (unlimited in GPGPU-Sim) mapped to 64 entries")]
        );
    }

    #[test]
    fn issue_width_is_clamped_and_noted() {
        let imported = import_gtx("-gpgpu_max_insn_issue_per_warp 0\n").unwrap();
        assert_eq!(imported.config.core.issue_width, 1);
        assert_eq!(
            imported.ignored,
            vec![note(1, "-gpgpu_max_insn_issue_per_warp", "issue width must be 1 to 8; used 1")]
        );
    }

    #[test]
    fn dram_bandwidth_follows_bus_width_data_rate_and_clocks() {
        assert_eq!(dram_bytes_per_cycle(4, 2, 4, 924.0, 700.0), Some(42));
        assert_eq!(dram_bytes_per_cycle(1, 1, 2, 100.0, 1000.0), Some(1)); // 0.2 rounds up to the minimum
        assert_eq!(dram_bytes_per_cycle(4, 1, 2, 924.0, 0.0), None);
        // Without a bus width the base bandwidth stays and the helpers are noted.
        let imported = import_gtx("-dram_data_command_freq_ratio 4\n").unwrap();
        assert_eq!(imported.config.dram.bytes_per_cycle, 42);
        assert_eq!(imported.ignored.len(), 1);
        // A bus width alone uses GPGPU-Sim's defaults and the base clocks: 4 × 1 × 2 × 924 / 700.
        assert_eq!(import_gtx("-gpgpu_dram_buswidth 4\n").unwrap().config.dram.bytes_per_cycle, 11);
    }

    #[test]
    fn separate_interconnect_and_l2_clocks_are_noted() {
        let imported = import_gtx("-gpgpu_clock_domains 700.0:1400.0:700.0:924.0\n").unwrap();
        assert_eq!(imported.config.clocks.core_mhz, 700);
        assert_eq!(
            imported.ignored,
            vec![note(
                1,
                "-gpgpu_clock_domains",
                "partly applied: the interconnect and L2 run at the core clock in warpscope (found 1400 and 700 MHz)"
            )]
        );
    }

    #[test]
    fn display_without_a_line_is_just_the_reason() {
        let e = ImportError { line: 0, column: 0, option: String::new(), reason: "invalid l2.ways: x".to_string() };
        assert_eq!(e.to_string(), "invalid l2.ways: x");
    }

    #[test]
    fn arbitrary_input_never_panics() {
        let pieces = [
            "-gpgpu_cache:dl1",
            "-gpgpu_cache:dl2",
            "-gpgpu_clock_domains",
            "-gpgpu_shader_core_pipeline",
            "-gpgpu_n_mem",
            "-gpgpu_n_clusters",
            "-gpgpu_scheduler",
            " ",
            ":",
            ",",
            "#",
            "\"",
            "\n",
            "4294967295",
            "0",
            "1e308",
            "NaN",
            "é",
            "\u{a0}",
            "S",
            "L",
            "H",
            "A",
            "-",
            "none",
            "\r\n",
            "\t",
            "32:128:4,L:L:m:N:H,A:32:8,8",
            "4294967295:4294967295:4294967295,F:T:s:L:X,S:4294967295:0,0:0,0",
            "-gpgpu_dram_buswidth",
            "-gpgpu_n_sub_partition_per_mchannel",
            "1e308:0:0:1e308",
        ];
        let mut state: u64 = 0x9e37_79b9_7f4a_7c15;
        for _ in 0..3000 {
            let mut text = String::new();
            for _ in 0..24 {
                state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
                let index = (state >> 33) as usize % pieces.len();
                text.push_str(pieces[index]);
            }
            let _ = import_gtx(&text);
        }
    }
}
