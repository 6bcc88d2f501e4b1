//! Off-chip memory: independent channels, each moving `bytes_per_cycle` with a fixed access
//! latency. A channel serves one line transfer at a time, so bandwidth limits throughput and
//! queueing delay appears under load; like the network, a channel is modelled by the time it
//! next falls free.

use alloc::vec;
use alloc::vec::Vec;

use crate::config::GpuConfig;
use crate::stats::DramStats;

/// The DRAM channels.
#[derive(Clone, Debug)]
pub struct Dram {
    free_at: Vec<u64>,
    latency: u64,
    cycles_per_line: u64,
    stats: DramStats,
}

impl Dram {
    /// Idle channels for `config`.
    pub fn new(config: &GpuConfig) -> Self {
        Dram {
            free_at: vec![0; config.dram.channels as usize],
            latency: config.dram.latency as u64,
            cycles_per_line: config.l1.line_bytes.div_ceil(config.dram.bytes_per_cycle) as u64,
            stats: DramStats::default(),
        }
    }

    /// Number of channels.
    pub fn channels(&self) -> u32 {
        self.free_at.len() as u32
    }

    /// Reads a line on `channel`, requested at `now`; returns the cycle the data is back.
    pub fn read(&mut self, now: u64, channel: u32) -> u64 {
        self.stats.reads += 1;
        let start = self.occupy(now, channel);
        start + self.latency + self.cycles_per_line
    }

    /// Writes a line back on `channel` at `now` (nobody waits for it, but it uses bandwidth).
    pub fn write(&mut self, now: u64, channel: u32) {
        self.stats.writes += 1;
        self.occupy(now, channel);
    }

    fn occupy(&mut self, now: u64, channel: u32) -> u64 {
        let free = &mut self.free_at[channel as usize];
        let start = now.max(*free);
        *free = start + self.cycles_per_line;
        start
    }

    /// Traffic so far.
    pub fn stats(&self) -> DramStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;

    #[test]
    fn back_to_back_reads_queue_behind_the_transfer_time() {
        let mut config = presets::fermi_gtx480();
        config.dram.latency = 100;
        config.dram.bytes_per_cycle = 32; // a 128 B line takes 4 cycles
        let mut dram = Dram::new(&config);
        assert_eq!(dram.read(10, 0), 10 + 100 + 4);
        assert_eq!(dram.read(10, 0), 14 + 100 + 4, "waits for the first transfer");
        assert_eq!(dram.read(10, 1), 10 + 100 + 4, "another channel is independent");
        dram.write(10, 1);
        assert_eq!(dram.read(10, 1), 18 + 100 + 4, "a write-back uses bandwidth too");
        assert_eq!(dram.stats(), DramStats { reads: 4, writes: 1 });
    }
}
