//! What a simulation runs: kernels, the buffers they work on, and the host's launch sequence.
//!
//! The kernel language compiles a source file into a [`Workload`]; tests and benchmarks build
//! one directly. [`Workload::validate`] checks it against the machine, so that everything the
//! engine meets afterwards is known to fit.

use alloc::boxed::Box;
use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;
use serde::{Deserialize, Serialize};

use crate::config::GpuConfig;
use crate::error::ConfigError;
use crate::exec::memory::{GlobalMemory, Region};
use crate::isa::{Dim3, Instr, Kernel, Width};
use crate::rng::SplitMix64;

mod contents;
mod corun;
pub mod graph;

pub use contents::buffer_text;
pub use corun::Part;

/// Initial contents of a buffer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum BufferInit {
    /// All zero.
    Zeros,
    /// Element `i` holds `i` (elements are words but in buffers of narrow types).
    Iota,
    /// Every element holds the value.
    Constant(u32),
    /// Uniform floats in `min..max` from a seeded stream (the bits of each `f32`).
    RandomFloat {
        /// Seed of the stream.
        seed: u32,
        /// Smallest value (the bits of an `f32`).
        min: u32,
        /// Bound of the range (the bits of an `f32`), not reached.
        max: u32,
    },
    /// Uniform integers in `min..=max` from a seeded stream.
    Random {
        /// Seed of the stream.
        seed: u32,
        /// Smallest value.
        min: u32,
        /// Largest value.
        max: u32,
    },
    /// Exactly these elements (the rest, if the buffer is longer, zero).
    Words(Vec<u32>),
    /// Addresses of other buffers' elements (a `float*` array for a `float**` parameter):
    /// element `i` holds the address `pointers[i]` names once every buffer is placed, or 0
    /// (a null pointer) where it is `None`. The rest, if the buffer is longer, zero.
    Pointers(Vec<Option<PointerInit>>),
    /// `base`, then what the host block writes into the buffer before the first launch
    /// (`a[3] = 1.5;`), in program order.
    Patched {
        /// The contents before the writes.
        base: Box<BufferInit>,
        /// The writes, in order.
        writes: Vec<HostWrite>,
    },
}

/// Where a pointer in a [`BufferInit::Pointers`] buffer points.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PointerInit {
    /// The buffer it points into.
    pub buffer: u32,
    /// Bytes from that buffer's start (at most its length: one past the end is a pointer C
    /// allows).
    pub offset: u32,
}

/// One value the host block writes into a buffer: before the first launch as part of its
/// initial contents ([`BufferInit::Patched`]), or between launches ([`HostCopy`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostWrite {
    /// Bytes from the buffer's start, a multiple of the width.
    pub offset: u32,
    /// How many bytes it writes (a narrow write leaves the rest of its word).
    pub width: Width,
    /// What it writes.
    pub value: WriteValue,
}

/// What a [`HostWrite`] writes.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum WriteValue {
    /// These bits (the low `width` bytes of them).
    Bits(u64),
    /// The address of a buffer's element, once the buffers are placed (a word).
    Address(PointerInit),
}

/// A value the host writes between launches, as a synchronous `cudaMemcpy` of something it
/// computed: it lands once every launch before launch `before` is complete, and launches from
/// `before` on start only after it. `before` equal to the number of launches puts it after the
/// last one, in the run's final memory. It takes no simulated time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct HostCopy {
    /// The launch it comes before (index into [`Workload::launches`]).
    pub before: u32,
    /// The buffer it writes.
    pub buffer: u32,
    /// Where and what.
    pub write: HostWrite,
}

impl BufferInit {
    /// The contents before any host writes, and the writes.
    pub fn split_writes(&self) -> (&BufferInit, &[HostWrite]) {
        match self {
            BufferInit::Patched { base, writes } => (base, writes),
            init => (init, &[]),
        }
    }
}

/// The type of a buffer's elements: how its bytes are read (for display), and, for the
/// narrow types, how its initial values are packed into words.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub enum ElemType {
    /// Signed 32-bit integers.
    #[default]
    Int,
    /// Unsigned 32-bit integers.
    Uint,
    /// IEEE single-precision floats.
    Float,
    /// Signed bytes (`char`).
    Char,
    /// Unsigned bytes (`unsigned char`).
    UChar,
    /// Signed 16-bit integers (`short`).
    Short,
    /// Unsigned 16-bit integers (`unsigned short`).
    UShort,
    /// One byte each, 0 or 1 (`bool`).
    Bool,
    /// Signed 64-bit integers (`long long`), low word first.
    Long,
    /// Unsigned 64-bit integers (`unsigned long long`).
    ULong,
    /// IEEE double-precision floats.
    Double,
}

impl ElemType {
    /// How an element is loaded: its size, and how it extends to a word.
    pub fn width(self) -> Width {
        match self {
            ElemType::Int | ElemType::Uint | ElemType::Float => Width::Word,
            ElemType::Char => Width::S8,
            ElemType::UChar | ElemType::Bool => Width::U8,
            ElemType::Short => Width::S16,
            ElemType::UShort => Width::U16,
            ElemType::Long | ElemType::ULong | ElemType::Double => Width::Dword,
        }
    }

    /// Whether an element is 8 bytes (two words).
    pub fn is_wide(self) -> bool {
        self.width() == Width::Dword
    }

    /// The elements that `words` hold, each extended to a word (a narrow buffer's last word
    /// may hold padding past its last element: zeros unless a kernel wrote there).
    pub fn elements(self, words: &[u32]) -> Vec<u32> {
        let width = self.width();
        if width == Width::Word || width == Width::Dword {
            return words.to_vec();
        }
        let per_word = 4 / width.bytes();
        (0..words.len() as u32 * per_word)
            .map(|i| {
                let addr = i * width.bytes();
                width.extract(words[(addr / 4) as usize], addr)
            })
            .collect()
    }
}

/// A device buffer.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BufferSpec {
    /// Name, for reports and error messages.
    pub name: String,
    /// Length in 32-bit words.
    pub words: u32,
    /// Initial contents.
    pub init: BufferInit,
    /// Element type, for display.
    #[serde(default)]
    pub elem: ElemType,
}

/// A kernel argument.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub enum Arg {
    /// The base address of buffer `n`.
    Buffer(u32),
    /// A constant word.
    Value(u32),
    /// An address inside a buffer (`a + 64` or `&a[64]` in a launch).
    Element {
        /// The buffer.
        buffer: u32,
        /// Bytes from its start, at most its size.
        offset: u32,
    },
}

/// One kernel launch of the host program.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LaunchSpec {
    /// Index into [`Workload::kernels`].
    pub kernel: u32,
    /// Grid dimensions in blocks.
    pub grid: Dim3,
    /// Block dimensions in threads.
    pub block: Dim3,
    /// One argument per kernel parameter.
    pub args: Vec<Arg>,
    /// The stream it is issued to. Launches in one stream run in order; launches in different
    /// streams may run concurrently. Stream 0 is CUDA's legacy default stream: a launch there
    /// waits for every earlier launch, and every later launch waits for it.
    #[serde(default)]
    pub stream: u32,
    /// Bytes of dynamic shared memory per block (the launch's third value, which sizes the
    /// kernel's `extern __shared__` arrays), on top of the kernel's own.
    #[serde(default, skip_serializing_if = "crate::stats::is_zero")]
    pub dynamic_shared: u32,
}

/// Kernels, buffers and launches. A launch starts when the launches it depends on (see
/// [`LaunchSpec::stream`]) have finished, including every grid they launched from the device.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Workload {
    /// Compiled kernels.
    pub kernels: Vec<Kernel>,
    /// Device buffers, mapped in order.
    pub buffers: Vec<BufferSpec>,
    /// The launch sequence.
    pub launches: Vec<LaunchSpec>,
    /// For programs run side by side ([`Workload::co_run`]), each one's name and streams; empty
    /// for one program.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub parts: Vec<Part>,
    /// The host's writes between launches, in program order.
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub copies: Vec<HostCopy>,
}

/// Most registers a thread may use.
pub const MAX_REGS_PER_THREAD: u32 = 255;

/// Most words of local memory a thread may use for spilled registers (4 KiB): far more than a
/// kernel that fits in 255 registers spills, and small enough that a frame for every warp
/// slot of a large GPU fits the local window ([`crate::isa::LOCAL_WINDOW_BYTES`]).
pub const MAX_SPILL_WORDS: u32 = 1024;

/// The bytes of local memory one warp's spilled registers take (`spill_words` per thread).
pub fn local_frame_bytes(spill_words: u32) -> u64 {
    spill_words as u64 * 4 * crate::exec::LANES as u64
}

fn err<T>(field: String, reason: String) -> Result<T, ConfigError> {
    Err(ConfigError::new(field, reason))
}

impl Workload {
    /// That `p` points into a buffer of the workload, at most one past its end; the error's
    /// field is `at()`.
    fn check_pointer(&self, p: &PointerInit, at: impl Fn() -> String) -> Result<(), ConfigError> {
        let Some(target) = self.buffers.get(p.buffer as usize) else {
            return err(at(), format!("points into buffer {}, which does not exist", p.buffer));
        };
        if p.offset as u64 > target.words as u64 * 4 {
            return err(
                at(),
                format!("points {} bytes into `{}`, which has {}", p.offset, target.name, target.words * 4),
            );
        }
        Ok(())
    }

    /// That host write `w` fits `buffer` aligned and any address it writes points into a
    /// buffer; the error's field is `at()`.
    fn check_write(&self, buffer: &BufferSpec, w: &HostWrite, at: impl Fn() -> String) -> Result<(), ConfigError> {
        let bytes = match w.value {
            WriteValue::Bits(_) => w.width.bytes(),
            WriteValue::Address(_) => 4,
        };
        if w.offset % bytes != 0 || w.offset as u64 + bytes as u64 > buffer.words as u64 * 4 {
            return err(at(), format!("{bytes} bytes at {} do not fit `{}` aligned", w.offset, buffer.name));
        }
        if let WriteValue::Address(p) = w.value {
            self.check_pointer(&p, at)?;
        }
        Ok(())
    }

    /// Checks the host's writes between launches: each into a buffer, at a launch (or after
    /// the last), in program order, and not under a measurement window.
    fn check_copies(&self, config: &GpuConfig) -> Result<(), ConfigError> {
        let mut previous = 0;
        for (i, copy) in self.copies.iter().enumerate() {
            let at = || format!("copies[{i}]");
            if copy.before as usize > self.launches.len() {
                return err(
                    format!("copies[{i}].before"),
                    format!("comes before launch {}, but the workload has {}", copy.before, self.launches.len()),
                );
            }
            if copy.before < previous {
                return err(
                    format!("copies[{i}].before"),
                    format!(
                        "comes before launch {}, earlier than the write before it (launch {previous})",
                        copy.before
                    ),
                );
            }
            previous = copy.before;
            let Some(buffer) = self.buffers.get(copy.buffer as usize) else {
                return err(format!("copies[{i}].buffer"), format!("buffer {} does not exist", copy.buffer));
            };
            self.check_write(buffer, &copy.write, at)?;
        }
        if config.window.cycles > 0 && !self.copies.is_empty() {
            return err(
                "window.cycles".into(),
                "under a measurement window the launches start again and again, which the host's writes between \
                 launches (each after every launch before it) cannot follow: run the program without a window"
                    .into(),
            );
        }
        Ok(())
    }

    /// Checks kernels, buffers and launches against `config`.
    pub fn validate(&self, config: &GpuConfig) -> Result<(), ConfigError> {
        if self.launches.is_empty() {
            return err("launches".into(), "the workload launches no kernel".into());
        }
        for (k, kernel) in self.kernels.iter().enumerate() {
            let at = format!("kernels[{k}]");
            validate_kernel(kernel, &at)?;
            for (pc, instr) in kernel.code.iter().enumerate() {
                let Instr::Launch { kernel: child, dims, args } = *instr else { continue };
                let Some(child) = self.kernels.get(child as usize) else {
                    return err(format!("{at}.code[{pc}]"), format!("launches kernel {child}, which does not exist"));
                };
                let last_dim = dims.0 as u32 + 5;
                let last_arg = (args.0 as u32 + child.params).saturating_sub(1);
                if last_dim >= kernel.regs_per_thread || last_arg >= kernel.regs_per_thread {
                    return err(
                        format!("{at}.code[{pc}]"),
                        format!(
                            "a launch of {} reads registers beyond the kernel's {}",
                            child.name, kernel.regs_per_thread
                        ),
                    );
                }
            }
        }
        if let Some((k, kernel)) = self.kernels.iter().enumerate().max_by_key(|(_, k)| k.spill_words) {
            let frames = config.core.sm_count as u64 * config.core.max_warps_per_sm as u64;
            let window = frames * local_frame_bytes(kernel.spill_words);
            if window > crate::isa::LOCAL_WINDOW_BYTES {
                return err(
                    format!("kernels[{k}].spill_words"),
                    format!(
                        "{} spills {} bytes per thread; a frame for each of the GPU's {frames} warp slots \
                         takes {} MiB, more than the {} MiB of local memory",
                        kernel.name,
                        kernel.spill_words * 4,
                        window >> 20,
                        crate::isa::LOCAL_WINDOW_BYTES >> 20
                    ),
                );
            }
        }
        let mut total_bytes = 0u64;
        for (b, buffer) in self.buffers.iter().enumerate() {
            total_bytes += buffer.words as u64 * 4;
            let (init, writes) = buffer.init.split_writes();
            if let BufferInit::Random { min, max, .. } = *init {
                if min > max {
                    return err(format!("buffers[{b}].init"), format!("random range {min}..={max} is empty"));
                }
            }
            if matches!(init, BufferInit::Patched { .. }) {
                return err(format!("buffers[{b}].init"), "host writes cannot patch host writes".into());
            }
            for (i, w) in writes.iter().enumerate() {
                self.check_write(buffer, w, || format!("buffers[{b}].init.writes[{i}]"))?;
            }
            if let BufferInit::Pointers(pointers) = init {
                if buffer.elem.width() != Width::Word {
                    return err(format!("buffers[{b}].elem"), "a buffer of pointers has 4-byte elements".into());
                }
                for (i, p) in pointers.iter().enumerate().filter_map(|(i, p)| p.map(|p| (i, p))) {
                    self.check_pointer(&p, || format!("buffers[{b}].init[{i}]"))?;
                }
            }
        }
        if total_bytes > crate::exec::memory::MAX_GLOBAL_BYTES / 2 {
            return err("buffers".into(), format!("{total_bytes} bytes of buffers is more than the 512 MiB allowed"));
        }
        let core = &config.core;
        for (l, launch) in self.launches.iter().enumerate() {
            let at = |what: &str| format!("launches[{l}].{what}");
            let Some(kernel) = self.kernels.get(launch.kernel as usize) else {
                return err(at("kernel"), format!("there is no kernel {}", launch.kernel));
            };
            let threads = launch.block.count();
            if launch.block.x == 0 || launch.block.y == 0 || launch.block.z == 0 {
                return err(at("block"), "every block dimension must be at least 1".into());
            }
            if threads > core.max_threads_per_sm as u64 {
                return err(
                    at("block"),
                    format!("{threads} threads per block; an SM holds at most {}", core.max_threads_per_sm),
                );
            }
            if kernel.max_block_threads > 0 && threads > kernel.max_block_threads as u64 {
                return err(
                    at("block"),
                    format!(
                        "{threads} threads per block; {}'s launch bounds allow at most {}",
                        kernel.name, kernel.max_block_threads
                    ),
                );
            }
            let warps = threads.div_ceil(core.warp_size as u64);
            if warps > core.max_warps_per_sm as u64 {
                return err(
                    at("block"),
                    format!("{warps} warps per block; an SM holds at most {}", core.max_warps_per_sm),
                );
            }
            let regs = warps * core.warp_size as u64 * kernel.regs_per_thread as u64;
            if regs > core.registers_per_sm as u64 {
                return err(
                    at("block"),
                    format!(
                        "a block needs {regs} registers ({} per thread × {} threads), an SM has {}",
                        kernel.regs_per_thread,
                        warps * core.warp_size as u64,
                        core.registers_per_sm
                    ),
                );
            }
            if kernel.shared_bytes > core.shared_memory_per_sm {
                return err(
                    at("kernel"),
                    format!(
                        "kernel {} uses {} bytes of shared memory per block, an SM has {}",
                        kernel.name, kernel.shared_bytes, core.shared_memory_per_sm
                    ),
                );
            }
            let blocks = launch.grid.count();
            if blocks == 0 || blocks > i32::MAX as u64 {
                return err(at("grid"), format!("must have between 1 and {} blocks, got {blocks}", i32::MAX));
            }
            if launch.args.len() != kernel.params as usize {
                return err(
                    at("args"),
                    format!("kernel {} takes {} arguments, got {}", kernel.name, kernel.params, launch.args.len()),
                );
            }
            for (a, arg) in launch.args.iter().enumerate() {
                let (b, offset) = match *arg {
                    Arg::Buffer(b) => (b, 0),
                    Arg::Element { buffer, offset } => (buffer, offset),
                    Arg::Value(_) => continue,
                };
                let Some(buffer) = self.buffers.get(b as usize) else {
                    return err(format!("launches[{l}].args[{a}]"), format!("there is no buffer {b}"));
                };
                if offset as u64 > buffer.words as u64 * 4 {
                    return err(
                        format!("launches[{l}].args[{a}]"),
                        format!("offset {offset} is past the end of buffer {b} ({} bytes)", buffer.words as u64 * 4),
                    );
                }
            }
        }
        if !self.parts.is_empty() && config.l1.replacement == crate::config::Replacement::Belady {
            return err(
                "l1.replacement".into(),
                "Belady's replay empties the whole L1 at every kernel boundary, but with programs side by side a \
                 boundary drops only the launching program's lines: choose Lru or Fifo"
                    .into(),
            );
        }
        let default_stream = self.launches.iter().any(|l| l.stream == 0);
        if config.window.cycles > 0 && default_stream && self.launches.iter().any(|l| l.stream != 0) {
            return err(
                "window.cycles".into(),
                "under a measurement window each stream starts its launches again on its own, which launches \
                 into the default stream (ordered against every other stream) cannot do: launch every kernel \
                 into a named stream, or every one into the default stream"
                    .into(),
            );
        }
        self.check_copies(config)
    }

    /// Maps and initialises every buffer; returns the memory and each buffer's region.
    /// Call after [`Workload::validate`].
    pub fn materialize(&self) -> (GlobalMemory, Vec<Region>) {
        let mut memory = GlobalMemory::default();
        memory.reserve(self.buffers.iter().map(|b| b.words.saturating_mul(4)));
        let mut regions = Vec::with_capacity(self.buffers.len());
        for buffer in &self.buffers {
            let Some(region) = memory.alloc(buffer.words.saturating_mul(4)) else { break };
            let words = memory.words_mut(region);
            let (init, _) = buffer.init.split_writes();
            match buffer.elem.width() {
                Width::Dword => widen_elements(init, buffer.elem, words),
                Width::Word => fill_words(init, words),
                width => pack_elements(init, width, words),
            }
            regions.push(region);
        }
        // Addresses, once every buffer has its place; then the host block's writes.
        for (buffer, region) in self.buffers.iter().zip(&regions) {
            let (init, writes) = buffer.init.split_writes();
            let words = memory.words_mut(*region);
            if let BufferInit::Pointers(pointers) = init {
                let addresses = pointers.iter().map(|p| p.as_ref().map_or(0, |p| address(p, &regions)));
                words.iter_mut().zip(addresses).for_each(|(w, a)| *w = a);
            }
            for w in writes {
                write_bits(words, w.offset, w.width, w.value.bits(&regions));
            }
        }
        (memory, regions)
    }

    /// The host's writes that come right before launch `launch` (after the last launch when
    /// `launch` is the number of launches).
    pub fn copies_before(&self, launch: u32) -> &[HostCopy] {
        let start = self.copies.partition_point(|c| c.before < launch);
        let end = self.copies.partition_point(|c| c.before <= launch);
        &self.copies[start..end]
    }

    /// Makes the host's writes that come right before launch `launch` (after the last launch
    /// when `launch` is the number of launches) in `memory`, whose buffers are at `regions`.
    pub fn apply_copies_before(&self, launch: u32, memory: &mut GlobalMemory, regions: &[Region]) {
        for copy in self.copies_before(launch) {
            Self::apply_copy(copy, memory, regions);
        }
    }

    /// Makes host write `copy` in `memory`, whose buffers are at `regions`; a kernel that
    /// reads the buffer afterwards sees it as it sees a store.
    fn apply_copy(copy: &HostCopy, memory: &mut GlobalMemory, regions: &[Region]) {
        let Some(region) = regions.get(copy.buffer as usize) else { return };
        let (addr, bits) = (region.base + copy.write.offset, copy.write.value.bits(regions));
        match copy.write.width {
            Width::Dword => {
                memory.set_word(addr, bits as u32);
                memory.set_word(addr + 4, (bits >> 32) as u32);
            }
            width => memory.set_narrow(addr, width, bits as u32),
        }
    }

    /// The argument words of `launch` given the buffers' regions.
    pub fn arg_words(launch: &LaunchSpec, regions: &[Region]) -> Vec<u32> {
        launch
            .args
            .iter()
            .map(|a| match *a {
                Arg::Buffer(b) => regions.get(b as usize).map_or(0, |r| r.base),
                Arg::Element { buffer, offset } => regions.get(buffer as usize).map_or(0, |r| r.base + offset),
                Arg::Value(v) => v,
            })
            .collect()
    }
}

/// The address `p` names, given the buffers' regions (0 for a buffer that is not placed).
fn address(p: &PointerInit, regions: &[Region]) -> u32 {
    regions.get(p.buffer as usize).map_or(0, |r| r.base.wrapping_add(p.offset))
}

impl WriteValue {
    /// The bits it writes, given the buffers' regions.
    fn bits(self, regions: &[Region]) -> u64 {
        match self {
            WriteValue::Bits(bits) => bits,
            WriteValue::Address(p) => address(&p, regions) as u64,
        }
    }
}

/// Writes the low `width` bytes of `bits` at byte `offset` of `words` (nothing outside them).
fn write_bits(words: &mut [u32], offset: u32, width: Width, bits: u64) {
    let at = (offset / 4) as usize;
    match width {
        Width::Dword => {
            if let Some(pair) = words.get_mut(at..at + 2) {
                pair.copy_from_slice(&[bits as u32, (bits >> 32) as u32]);
            }
        }
        width => {
            if let Some(word) = words.get_mut(at) {
                *word = width.insert(*word, offset, bits as u32);
            }
        }
    }
}

/// Fills a word buffer (or a wide buffer's 32-bit counterparts) as `init` says.
fn fill_words(init: &BufferInit, words: &mut [u32]) {
    match init {
        BufferInit::Zeros => {}
        BufferInit::Iota => words.iter_mut().enumerate().for_each(|(i, w)| *w = i as u32),
        BufferInit::Constant(v) => words.fill(*v),
        BufferInit::RandomFloat { seed, min, max } => {
            let mut rng = SplitMix64::new(*seed as u64);
            let (lo, hi) = (f32::from_bits(*min), f32::from_bits(*max));
            words.iter_mut().for_each(|w| *w = (lo + (hi - lo) * rng.unit_f32()).to_bits());
        }
        BufferInit::Random { seed, min, max } => {
            let mut rng = SplitMix64::new(*seed as u64);
            let span = (*max - *min) as u64 + 1;
            words.iter_mut().for_each(|w| *w = *min + rng.below(span) as u32);
        }
        BufferInit::Words(values) => words.iter_mut().zip(values).for_each(|(w, v)| *w = *v),
        // Filled once every buffer is placed (`Workload::materialize`).
        BufferInit::Pointers(_) => {}
        // The writes come once every buffer is placed (`Workload::materialize`).
        BufferInit::Patched { base, .. } => fill_words(base, words),
    }
}

/// Fills `words` with a buffer of 8-byte elements, which `init` gives element by element in
/// the 32-bit type of the same kind (`int`, `unsigned`, `float`), widened: sign-extended for
/// `long long`, zero-extended for `unsigned long long`, exactly converted for `double` (whose
/// `iota` counts 0.0, 1.0, …).
fn widen_elements(init: &BufferInit, elem: ElemType, words: &mut [u32]) {
    let count = words.len() / 2;
    let mut narrow = alloc::vec![0u32; count];
    fill_words(init, &mut narrow);
    let counting = matches!(init, BufferInit::Iota);
    for (i, &w) in narrow.iter().enumerate() {
        let value = match elem {
            ElemType::Double if counting => (w as f64).to_bits(),
            ElemType::Double => (f32::from_bits(w) as f64).to_bits(),
            ElemType::ULong => w as u64,
            _ => w as i32 as i64 as u64,
        };
        words[2 * i] = value as u32;
        words[2 * i + 1] = (value >> 32) as u32;
    }
}

/// Fills `words` with a buffer of narrow elements (`width` bytes each), which `init` gives
/// element by element as it gives a word buffer's words.
fn pack_elements(init: &BufferInit, width: Width, words: &mut [u32]) {
    let count = words.len() as u32 * (4 / width.bytes());
    let mut put = |i: u32, value: u32| {
        let addr = i * width.bytes();
        let word = &mut words[(addr / 4) as usize];
        *word = width.insert(*word, addr, value);
    };
    match init {
        BufferInit::Zeros => {}
        BufferInit::Iota => (0..count).for_each(|i| put(i, i)),
        BufferInit::Constant(v) => (0..count).for_each(|i| put(i, *v)),
        // Not made by the compiler for narrow elements; the bits of each float, truncated.
        BufferInit::RandomFloat { seed, min, max } => {
            let mut rng = SplitMix64::new(*seed as u64);
            let (lo, hi) = (f32::from_bits(*min), f32::from_bits(*max));
            (0..count).for_each(|i| put(i, (lo + (hi - lo) * rng.unit_f32()).to_bits()));
        }
        BufferInit::Random { seed, min, max } => {
            let mut rng = SplitMix64::new(*seed as u64);
            let span = (*max - *min) as u64 + 1;
            (0..count).for_each(|i| put(i, *min + rng.below(span) as u32));
        }
        BufferInit::Words(values) => {
            values.iter().take(count as usize).enumerate().for_each(|(i, &v)| put(i as u32, v))
        }
        // Pointer buffers have word elements (`Workload::validate`).
        BufferInit::Pointers(_) => {}
        BufferInit::Patched { base, .. } => pack_elements(base, width, words),
    }
}

/// Checks that a kernel's code is self-consistent: registers in range, branch targets inside
/// the code, and no way to run past the last instruction.
pub fn validate_kernel(kernel: &Kernel, at: &str) -> Result<(), ConfigError> {
    let len = kernel.code.len() as u32;
    if len == 0 {
        return err(format!("{at}.code"), format!("kernel {} has no instructions", kernel.name));
    }
    if kernel.regs_per_thread == 0 || kernel.regs_per_thread > MAX_REGS_PER_THREAD {
        return err(
            format!("{at}.regs_per_thread"),
            format!("must be between 1 and {MAX_REGS_PER_THREAD}, got {}", kernel.regs_per_thread),
        );
    }
    if kernel.spill_words > MAX_SPILL_WORDS {
        return err(
            format!("{at}.spill_words"),
            format!("must be at most {MAX_SPILL_WORDS}, got {}", kernel.spill_words),
        );
    }
    if kernel.params > kernel.regs_per_thread {
        return err(format!("{at}.params"), "parameters live in registers: more parameters than registers".into());
    }
    for (pc, instr) in kernel.code.iter().enumerate() {
        let second = instr.dst().filter(|_| instr.writes_pair()).map(|r| crate::isa::Reg(r.0.wrapping_add(1)));
        let regs = instr.srcs().into_iter().flatten().chain(instr.dst()).chain(second);
        for reg in regs {
            if reg.0 as u32 >= kernel.regs_per_thread {
                return err(
                    format!("{at}.code[{pc}]"),
                    format!("uses register r{} but the kernel declares {} registers", reg.0, kernel.regs_per_thread),
                );
            }
        }
        if let Instr::Store { width: Width::Dword, src: crate::isa::Operand::Imm(_), .. } = *instr {
            return err(
                format!("{at}.code[{pc}]"),
                "an 8-byte store's source must be a register (the low word of a pair)".into(),
            );
        }
        if let Instr::Spill { slot, pair, .. } | Instr::Fill { slot, pair, .. } = *instr {
            let end = slot as u32 + 1 + pair as u32;
            if end > kernel.spill_words || (pair && slot % 2 != 0) {
                return err(
                    format!("{at}.code[{pc}]"),
                    format!(
                        "local memory word {slot}{} is outside the kernel's {} spill words{}",
                        if pair { " (a pair)" } else { "" },
                        kernel.spill_words,
                        if pair { " or not even" } else { "" }
                    ),
                );
            }
        }
        if let Instr::Bound { array, .. } = *instr {
            if !kernel.local_arrays.is_empty() && array as usize >= kernel.local_arrays.len() {
                return err(
                    format!("{at}.code[{pc}]"),
                    format!(
                        "bounds check names local array #{array} but the kernel names {}",
                        kernel.local_arrays.len()
                    ),
                );
            }
        }
        if let Instr::Branch { target, reconverge, .. } = *instr {
            if target >= len || reconverge >= len {
                return err(
                    format!("{at}.code[{pc}]"),
                    format!("branch to {target} (reconverging at {reconverge}) leaves the code of {len} instructions"),
                );
            }
        }
    }
    match kernel.code[len as usize - 1] {
        Instr::Exit | Instr::Branch { cond: None, .. } => Ok(()),
        _ => err(
            format!("{at}.code"),
            format!("kernel {} can run past its last instruction (end it with exit)", kernel.name),
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;
    use crate::isa::builder::KernelBuilder;
    use crate::isa::{AluOp, Operand, Reg};

    fn tiny() -> Workload {
        let mut b = KernelBuilder::new("k", 1);
        let r = b.reg();
        b.alu(AluOp::Add, r, b.param(0), Operand::Imm(1)).exit();
        Workload {
            kernels: alloc::vec![b.build()],
            buffers: alloc::vec![BufferSpec {
                name: "a".into(),
                words: 4,
                init: BufferInit::Iota,
                elem: ElemType::Int
            }],
            launches: alloc::vec![LaunchSpec {
                kernel: 0,
                grid: Dim3::linear(2),
                block: Dim3::linear(64),
                args: alloc::vec![Arg::Buffer(0)],
                stream: 0,
                dynamic_shared: 0,
            }],
            parts: Vec::new(),
            copies: Vec::new(),
        }
    }

    #[test]
    fn a_well_formed_workload_passes_and_materialises() {
        let w = tiny();
        assert_eq!(w.validate(&presets::fermi_gtx480()), Ok(()));
        let (memory, regions) = w.materialize();
        assert_eq!(memory.words(regions[0]), [0, 1, 2, 3]);
        assert_eq!(Workload::arg_words(&w.launches[0], &regions), [regions[0].base]);
    }

    #[test]
    fn launches_that_do_not_fit_name_the_field() {
        let config = presets::fermi_gtx480();
        let mut w = tiny();
        w.launches[0].block = Dim3::linear(2048);
        let e = w.validate(&config).unwrap_err();
        assert_eq!(e.field, "launches[0].block");
        assert!(e.reason.contains("at most 1536"), "{}", e.reason);

        let mut w = tiny();
        w.kernels[0].regs_per_thread = 64;
        w.launches[0].block = Dim3::linear(1024);
        assert!(w.validate(&config).unwrap_err().reason.contains("65536 registers"));

        let mut w = tiny();
        w.kernels[0].shared_bytes = 64 * 1024;
        assert_eq!(w.validate(&config).unwrap_err().field, "launches[0].kernel");

        let mut w = tiny();
        w.launches[0].args.clear();
        assert_eq!(w.validate(&config).unwrap_err().field, "launches[0].args");

        let mut w = tiny();
        w.launches[0].args[0] = Arg::Buffer(3);
        assert_eq!(w.validate(&config).unwrap_err().field, "launches[0].args[0]");

        // An element's address may be one past the last of the buffer's 16 bytes, no further.
        let mut w = tiny();
        w.launches[0].args[0] = Arg::Element { buffer: 0, offset: 16 };
        assert!(w.validate(&config).is_ok());
        w.launches[0].args[0] = Arg::Element { buffer: 0, offset: 20 };
        let e = w.validate(&config).unwrap_err();
        assert_eq!(
            (e.field.as_str(), e.reason.as_str()),
            ("launches[0].args[0]", "offset 20 is past the end of buffer 0 (16 bytes)")
        );
        w.launches[0].args[0] = Arg::Element { buffer: 1, offset: 0 };
        assert_eq!(w.validate(&config).unwrap_err().reason, "there is no buffer 1");

        // Host writes stay inside their buffer, aligned, and point into one that exists.
        let patched = |offset, width, value| {
            let mut w = tiny();
            let write = HostWrite { offset, width, value };
            w.buffers[0].init = BufferInit::Patched { base: Box::new(BufferInit::Iota), writes: alloc::vec![write] };
            w.validate(&config)
        };
        assert!(patched(8, Width::Dword, WriteValue::Bits(1)).is_ok());
        assert!(patched(15, Width::U8, WriteValue::Bits(1)).is_ok());
        for bad in [
            patched(12, Width::Dword, WriteValue::Bits(1)),
            patched(2, Width::Word, WriteValue::Bits(1)),
            patched(0, Width::Word, WriteValue::Address(PointerInit { buffer: 1, offset: 0 })),
            patched(0, Width::Word, WriteValue::Address(PointerInit { buffer: 0, offset: 20 })),
        ] {
            assert_eq!(bad.unwrap_err().field, "buffers[0].init.writes[0]");
        }
    }

    #[test]
    fn host_writes_land_after_the_initializer_and_addresses_once_placed() {
        let mut w = tiny();
        w.buffers.push(BufferSpec { name: "p".into(), words: 2, init: BufferInit::Zeros, elem: ElemType::Uint });
        let writes = alloc::vec![
            HostWrite { offset: 4, width: Width::Word, value: WriteValue::Bits(40) },
            HostWrite { offset: 9, width: Width::U8, value: WriteValue::Bits(0xAB) },
        ];
        w.buffers[0].init = BufferInit::Patched { base: Box::new(BufferInit::Iota), writes };
        let address = HostWrite {
            offset: 4,
            width: Width::Word,
            value: WriteValue::Address(PointerInit { buffer: 0, offset: 8 }),
        };
        w.buffers[1].init = BufferInit::Patched { base: Box::new(BufferInit::Zeros), writes: alloc::vec![address] };
        let (memory, regions) = w.materialize();
        assert_eq!(memory.words(regions[0]), [0, 40, 0xAB02, 3]);
        assert_eq!(memory.words(regions[1]), [0, regions[0].base + 8]);
    }

    #[test]
    fn host_copies_are_checked_and_applied_where_they_come() {
        let config = presets::fermi_gtx480();
        let mut w = tiny();
        w.launches.push(w.launches[0].clone());
        let copy = |before, offset, bits| HostCopy {
            before,
            buffer: 0,
            write: HostWrite { offset, width: Width::Word, value: WriteValue::Bits(bits) },
        };
        w.copies = alloc::vec![copy(1, 0, 7), copy(1, 4, 8), copy(2, 12, 9)];
        assert_eq!(w.validate(&config), Ok(()));
        assert_eq!(w.copies_before(0), []);
        assert_eq!(w.copies_before(1), [copy(1, 0, 7), copy(1, 4, 8)]);
        assert_eq!(w.copies_before(2), [copy(2, 12, 9)], "after the last launch");
        let (mut memory, regions) = w.materialize();
        assert_eq!(memory.words(regions[0]), [0, 1, 2, 3], "a copy is not part of the initial contents");
        w.apply_copies_before(1, &mut memory, &regions);
        assert_eq!(memory.words(regions[0]), [7, 8, 2, 3]);

        let field = |w: &Workload, config: &GpuConfig| w.validate(config).unwrap_err().field;
        let mut bad = w.clone();
        bad.copies[2].before = 3;
        assert_eq!(field(&bad, &config), "copies[2].before", "past the launches");
        bad.copies[2].before = 0;
        assert_eq!(field(&bad, &config), "copies[2].before", "out of program order");
        bad = w.clone();
        bad.copies[1].buffer = 5;
        assert_eq!(field(&bad, &config), "copies[1].buffer");
        bad = w.clone();
        bad.copies[2].write.offset = 16;
        assert_eq!(field(&bad, &config), "copies[2]", "past the buffer's end");
        let mut windowed = config.clone();
        windowed.window.cycles = 1000;
        assert_eq!(field(&w, &windowed), "window.cycles");
    }

    #[test]
    fn one_stream_alone_keeps_each_copy_before_its_next_launch() {
        let mut w = tiny();
        let mut other = w.launches[0].clone();
        other.stream = 2;
        w.launches[0].stream = 1;
        let mine = w.launches[0].clone();
        w.launches = alloc::vec![mine.clone(), other.clone(), mine, other];
        let copy = |before| HostCopy {
            before,
            buffer: 0,
            write: HostWrite { offset: 0, width: Width::Word, value: WriteValue::Bits(before as u64) },
        };
        w.copies = alloc::vec![copy(1), copy(2), copy(3), copy(4)];
        let alone = w.only_stream(1);
        assert_eq!(alone.launches.len(), 2);
        let before: Vec<u32> = alone.copies.iter().map(|c| c.before).collect();
        assert_eq!(before, [1, 1, 2, 2], "stream 1's launches were 0 and 2");
    }

    #[test]
    fn malformed_kernels_are_caught() {
        let config = presets::fermi_gtx480();
        let mut w = tiny();
        w.kernels[0].code.pop(); // drop the exit
        assert_eq!(w.validate(&config).unwrap_err().field, "kernels[0].code");

        let mut w = tiny();
        w.kernels[0].code.insert(0, Instr::Mov { dst: Reg(9), src: Operand::Imm(0) });
        assert_eq!(w.validate(&config).unwrap_err().field, "kernels[0].code[0]");

        let mut w = tiny();
        w.kernels[0].code.insert(0, Instr::Branch { cond: None, negate: false, target: 7, reconverge: 7 });
        assert!(w.validate(&config).unwrap_err().reason.contains("leaves the code"));

        let mut w = tiny();
        w.kernels[0].code.insert(0, Instr::Bound { index: Operand::Reg(Reg(9)), len: 4, array: 0 });
        assert_eq!(w.validate(&config).unwrap_err().field, "kernels[0].code[0]");

        // A check's array must be one the debug info names, when it names any.
        let mut w = tiny();
        w.kernels[0].code.insert(0, Instr::Bound { index: Operand::Reg(Reg(0)), len: 4, array: 1 });
        assert!(w.validate(&config).is_ok(), "a hand-built kernel without names");
        w.kernels[0].local_arrays = alloc::vec!["local array `x`".into()];
        assert!(w.validate(&config).unwrap_err().reason.contains("names local array #1"));

        // Spills and fills stay inside the kernel's local words; a pair starts at an even one.
        let mut w = tiny();
        w.kernels[0].spill_words = 2;
        w.kernels[0].code.insert(0, Instr::Fill { dst: Reg(0), slot: 0, pair: true });
        assert!(w.validate(&config).is_ok());
        w.kernels[0].code.insert(0, Instr::Spill { src: Reg(0), slot: 1, pair: false });
        assert!(w.validate(&config).is_ok());
        w.kernels[0].code[0] = Instr::Spill { src: Reg(0), slot: 1, pair: true };
        let e = w.validate(&config).unwrap_err();
        assert_eq!(e.field, "kernels[0].code[0]");
        assert!(e.reason.contains("outside the kernel's 2 spill words"), "{}", e.reason);
        w.kernels[0].code[0] = Instr::Fill { dst: Reg(0), slot: 2, pair: false };
        assert_eq!(w.validate(&config).unwrap_err().field, "kernels[0].code[0]");
    }

    #[test]
    fn every_warp_slot_gets_a_frame_of_local_memory_or_the_workload_is_refused() {
        // 15 SMs × 48 warp slots × 1024 words × 128 bytes = 90 MiB fits the 3 GiB window;
        // 1024 SMs × 64 slots × 512 words × 128 bytes = 4 GiB does not.
        let mut config = presets::fermi_gtx480();
        let mut w = tiny();
        w.kernels[0].spill_words = MAX_SPILL_WORDS;
        assert!(w.validate(&config).is_ok());
        w.kernels[0].spill_words = MAX_SPILL_WORDS + 1;
        assert_eq!(w.validate(&config).unwrap_err().field, "kernels[0].spill_words");
        config.core.sm_count = 1024;
        config.core.max_warps_per_sm = 64;
        w.kernels[0].spill_words = 512;
        let e = w.validate(&config).unwrap_err();
        assert_eq!(e.field, "kernels[0].spill_words");
        assert!(e.reason.contains("takes 4096 MiB, more than the 3072 MiB"), "{}", e.reason);
        w.kernels[0].spill_words = 256;
        assert!(w.validate(&config).is_ok());
    }
}
