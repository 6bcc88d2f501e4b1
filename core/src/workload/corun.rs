//! Several programs sharing the GPU: the concurrent-kernel papers' workloads (a compute-intensive
//! program beside a memory-intensive one, or three side by side), built from whole programs,
//! each as it runs alone.
//!
//! Each program keeps its kernels, buffers and launch order; its streams become streams of its
//! own, so no program waits for another's launches (a program's default stream becomes a named
//! one: it orders that program's launches only). With a measurement window each program's
//! streams then start again whenever they complete, as the papers relaunch a finished kernel.
//!
//! A kernel boundary concerns the program whose kernel starts: under GPU coherence and DeNovo
//! it drops from the L1s only lines of that program's buffers (a co-runner's data cannot be
//! stale for it, and wiping it would charge the co-runner for another program's launches);
//! alone, a program's boundary drops as before.

use alloc::format;
use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

use super::{Arg, Workload};
use crate::error::ConfigError;

/// One program of a co-run: its name, the streams its host launches went to and its buffers.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Part {
    /// Its name (the library id it came from).
    pub name: String,
    /// The streams of the combined program that are this program's.
    pub streams: Vec<u32>,
    /// Its buffers: indices `first_buffer..first_buffer + buffers` of the combined program.
    pub first_buffer: u32,
    /// How many.
    pub buffers: u32,
}

impl Workload {
    /// The programs of `parts` (name, program) running side by side, each in streams of its own.
    /// An error if a program mixes the default stream with named ones: apart from the others it
    /// would need the default stream's ordering against its own streams only, which the combined
    /// program cannot express.
    pub fn co_run(parts: Vec<(String, Workload)>) -> Result<Workload, ConfigError> {
        if parts.len() < 2 {
            return Err(ConfigError::new("parts", "a co-run needs at least two programs"));
        }
        // A run's program is one byte in the report (`stats::parts::run_parts`).
        let most = crate::stats::parts::NO_PART as usize;
        if parts.len() > most {
            return Err(ConfigError::new("parts", format!("at most {most} programs run side by side")));
        }
        let mut combined = Workload {
            kernels: Vec::new(),
            buffers: Vec::new(),
            launches: Vec::new(),
            parts: Vec::new(),
            copies: Vec::new(),
        };
        let mut next_stream = 1u32;
        for (p, (name, program)) in parts.into_iter().enumerate() {
            if !program.parts.is_empty() {
                return Err(ConfigError::new(format!("parts[{p}]"), format!("{name} is itself a co-run")));
            }
            if !program.copies.is_empty() {
                return Err(ConfigError::new(
                    format!("parts[{p}]"),
                    format!(
                        "{name} writes buffers from the host between its launches; each write waits for every \
                         launch before it, which beside another program would hold that program's launches too"
                    ),
                ));
            }
            let default_stream = program.launches.iter().any(|l| l.stream == 0);
            if default_stream && program.launches.iter().any(|l| l.stream != 0) {
                return Err(ConfigError::new(
                    format!("parts[{p}]"),
                    format!(
                        "{name} launches into the default stream and into named streams; beside another program \
                         its default stream would order only its own launches, which cannot be expressed"
                    ),
                ));
            }
            // The program's streams in order of first use, each given a fresh number.
            let mut streams: Vec<(u32, u32)> = Vec::new();
            for launch in &program.launches {
                if !streams.iter().any(|&(old, _)| old == launch.stream) {
                    streams.push((launch.stream, next_stream));
                    next_stream += 1;
                }
            }
            let kernel_base = combined.kernels.len() as u32;
            let buffer_base = combined.buffers.len() as u32;
            for mut kernel in program.kernels {
                for instr in &mut kernel.code {
                    if let crate::isa::Instr::Launch { kernel: child, .. } = instr {
                        *child += kernel_base;
                    }
                }
                combined.kernels.push(kernel);
            }
            let buffers = program.buffers.len() as u32;
            combined.buffers.extend(program.buffers);
            for mut launch in program.launches {
                launch.kernel += kernel_base;
                launch.stream = streams.iter().find(|&&(old, _)| old == launch.stream).map_or(0, |&(_, new)| new);
                for arg in &mut launch.args {
                    if let Arg::Buffer(b) | Arg::Element { buffer: b, .. } = arg {
                        *b += buffer_base;
                    }
                }
                combined.launches.push(launch);
            }
            let streams = streams.into_iter().map(|(_, new)| new).collect();
            combined.parts.push(Part { name, streams, first_buffer: buffer_base, buffers });
        }
        Ok(combined)
    }

    /// The host streams the launches go to, in order of first launch: the co-running kernels of
    /// the concurrent-kernel mechanisms.
    pub fn host_streams(&self) -> Vec<u32> {
        let mut streams: Vec<u32> = Vec::new();
        for launch in &self.launches {
            if !streams.contains(&launch.stream) {
                streams.push(launch.stream);
            }
        }
        streams
    }

    /// The launches of host stream `stream` alone, as one program: what that co-running kernel
    /// does without the others (every kernel and buffer is kept, so indices stay valid). The
    /// host's writes between launches stay, each before the first kept launch after it.
    pub fn only_stream(&self, stream: u32) -> Workload {
        // Before each launch (and after the last), how many of the kept launches came earlier.
        let kept: Vec<u32> = core::iter::once(0)
            .chain(self.launches.iter().scan(0, |n, l| {
                *n += u32::from(l.stream == stream);
                Some(*n)
            }))
            .collect();
        let kept = |before: u32| kept.get(before as usize).or(kept.last()).copied().unwrap_or(0);
        Workload {
            kernels: self.kernels.clone(),
            buffers: self.buffers.clone(),
            launches: self.launches.iter().filter(|l| l.stream == stream).cloned().collect(),
            parts: Vec::new(),
            copies: self.copies.iter().map(|&c| super::HostCopy { before: kept(c.before), ..c }).collect(),
        }
    }

    /// The part whose program launched into host stream `stream`, for a co-run.
    pub fn part_of_stream(&self, stream: u32) -> Option<usize> {
        Part::of_stream(&self.parts, stream)
    }
}

impl Part {
    /// Which of `parts` launched into host stream `stream`.
    pub fn of_stream(parts: &[Part], stream: u32) -> Option<usize> {
        parts.iter().position(|p| p.streams.contains(&stream))
    }
}
