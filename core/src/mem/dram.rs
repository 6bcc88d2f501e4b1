//! Off-chip memory: independent channels, each moving `bytes_per_cycle` with a fixed access
//! latency. A channel serves one line transfer at a time, in the order requests were accepted,
//! so bandwidth limits throughput and queueing delay appears under load; like the network, a
//! channel is modelled by the time it next falls free.
//!
//! Each channel has a request queue of `queue_entries`: a request waits there from the cycle
//! it is accepted until its transfer starts. A read that finds the queue full is not refused:
//! the L2 bank holds it (and takes nothing new) until the oldest waiting request starts and
//! frees a slot, which with timestamps is a cycle known at once — [`DramRead::accepted`]. A
//! write-back always gets in (the bank's write buffer is not modelled) but takes a slot, so it
//! delays the reads behind it.

use alloc::collections::VecDeque;
use alloc::vec::Vec;

use crate::config::GpuConfig;
use crate::stats::DramStats;

/// One channel.
#[derive(Clone, Debug, Default)]
struct Channel {
    /// The cycle the channel can start its next transfer.
    free_at: u64,
    /// Start cycles of accepted requests, in order (they increase: transfers start one after
    /// another), without those that started before any read still to come can ask.
    starts: VecDeque<u64>,
}

/// What became of a read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct DramRead {
    /// The cycle the channel took it into its queue: the cycle asked, or later if the queue
    /// was full then.
    pub accepted: u64,
    /// The cycle its data is back.
    pub done: u64,
}

/// The DRAM channels.
#[derive(Clone, Debug)]
pub struct Dram {
    channels: Vec<Channel>,
    latency: u64,
    bytes_per_cycle: u32,
    queue_entries: usize,
    stats: DramStats,
}

impl Dram {
    /// Idle channels for `config`.
    pub fn new(config: &GpuConfig) -> Self {
        let queue_entries = config.dram.queue_entries.max(1) as usize;
        Dram {
            channels: (0..config.dram.channels)
                .map(|_| Channel { free_at: 0, starts: VecDeque::with_capacity(queue_entries.min(1024) + 1) })
                .collect(),
            latency: config.dram.latency as u64,
            bytes_per_cycle: config.dram.bytes_per_cycle.max(1),
            queue_entries,
            stats: DramStats::default(),
        }
    }

    /// Number of channels.
    pub fn channels(&self) -> u32 {
        self.channels.len() as u32
    }

    /// Reads `bytes` (a line, or some of its sectors) on `channel`, asked for at cycle `at`.
    /// `floor <= at`, and no later read asks for a cycle before `floor` (the L2 passes the
    /// cycle being simulated plus its hit latency).
    pub fn read(&mut self, floor: u64, at: u64, channel: u32, bytes: u32) -> DramRead {
        self.stats.reads += 1;
        self.stats.bytes_read += bytes as u64;
        let c = &mut self.channels[channel as usize];
        // Requests started by `floor` have left the queue for every read still to come.
        while c.starts.front().is_some_and(|&s| s <= floor) {
            c.starts.pop_front();
        }
        let mut accepted = at;
        // Fewer entries than slots cannot be a full queue (no search needed).
        if c.starts.len() >= self.queue_entries {
            let waiting = c.starts.len() - c.starts.partition_point(|&s| s <= at);
            if waiting >= self.queue_entries {
                // A slot frees when the request `queue_entries` from the end starts.
                accepted = c.starts[c.starts.len() - self.queue_entries];
                self.stats.queue_full_cycles += accepted - at;
            }
        }
        let transfer = self.transfer_cycles(bytes);
        let start = self.occupy(accepted, channel, transfer);
        DramRead { accepted, done: start + self.latency + transfer }
    }

    /// Writes `bytes` back on `channel` at `at` (nobody waits for it, but it uses bandwidth and
    /// a queue slot).
    pub fn write(&mut self, at: u64, channel: u32, bytes: u32) {
        self.stats.writes += 1;
        self.stats.bytes_written += bytes as u64;
        self.occupy(at, channel, self.transfer_cycles(bytes));
    }

    /// Cycles the channel's bus is busy moving `bytes`.
    fn transfer_cycles(&self, bytes: u32) -> u64 {
        bytes.div_ceil(self.bytes_per_cycle).max(1) as u64
    }

    /// Queues a transfer of `cycles` accepted at `at`; returns when it starts.
    fn occupy(&mut self, at: u64, channel: u32, cycles: u64) -> u64 {
        let c = &mut self.channels[channel as usize];
        let start = at.max(c.free_at);
        c.free_at = start + cycles;
        c.starts.push_back(start);
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
        let done = |r: DramRead| r.done;
        assert_eq!(done(dram.read(10, 10, 0, 128)), 10 + 100 + 4);
        assert_eq!(done(dram.read(10, 10, 0, 128)), 14 + 100 + 4, "waits for the first transfer");
        assert_eq!(done(dram.read(10, 10, 1, 128)), 10 + 100 + 4, "another channel is independent");
        dram.write(10, 1, 128);
        assert_eq!(done(dram.read(10, 10, 1, 128)), 18 + 100 + 4, "a write-back uses bandwidth too");
        assert_eq!(
            dram.stats(),
            DramStats { reads: 4, writes: 1, bytes_read: 4 * 128, bytes_written: 128, queue_full_cycles: 0 }
        );
    }

    #[test]
    fn a_full_queue_accepts_the_next_read_when_its_oldest_request_starts() {
        // 4-cycle transfers, 2 queue slots. Reads asked at 11, 12, 13, 14, 16 start at 11, 15,
        // 19, 23, 27. At 14 the requests starting at 15 and 19 wait: full until 15. At 16 those
        // starting at 19 and 23 wait: full until 19.
        let mut config = presets::fermi_gtx480();
        (config.dram.latency, config.dram.bytes_per_cycle, config.dram.queue_entries) = (100, 32, 2);
        let mut dram = Dram::new(&config);
        let reads: Vec<DramRead> = [11, 12, 13, 14, 16].iter().map(|&at| dram.read(at - 10, at, 0, 128)).collect();
        let accepted: Vec<u64> = reads.iter().map(|r| r.accepted).collect();
        let done: Vec<u64> = reads.iter().map(|r| r.done).collect();
        assert_eq!(accepted, [11, 12, 13, 15, 19]);
        assert_eq!(done, [115, 119, 123, 127, 131], "the channel still serves them back to back");
        assert_eq!(dram.stats().queue_full_cycles, 1 + 3);
        // A write-back gets in even when the queue is full, and the next read waits behind it.
        dram.write(16, 0, 128);
        let r = dram.read(6, 16, 0, 128);
        assert_eq!((r.accepted, r.done), (27, 139));
    }

    #[test]
    fn a_transfer_takes_the_cycles_of_its_bytes() {
        // 48 bytes a cycle (the H100-like channel): a 32 B sector takes 1 cycle, two take 2,
        // a 128 B line 3 (128 / 48 rounded up).
        let mut config = presets::fermi_gtx480();
        (config.dram.latency, config.dram.bytes_per_cycle) = (100, 48);
        let mut dram = Dram::new(&config);
        let done: Vec<u64> = [32, 64, 128, 32].iter().map(|&bytes| dram.read(0, 0, 0, bytes).done).collect();
        assert_eq!(done, [101, 103, 106, 107], "transfers start at 0, 1, 3 and 6");
        assert_eq!((dram.stats().reads, dram.stats().bytes_read), (4, 256));
    }
}
