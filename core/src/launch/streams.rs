//! The host's launch sequence and CUDA stream ordering.
//!
//! Launches in one stream start in order, each after the previous one is complete. Stream 0 is
//! the legacy default stream: a launch there starts only once every earlier launch is complete,
//! and launches after it, in any stream, wait for it.
//!
//! A launch the host writes memory before (a synchronous `cudaMemcpy` between launches) is a
//! *sync point*: it starts only once every earlier launch is complete, and no later launch, in
//! any stream, starts before it, since the host issues them only after the copy returns.
//!
//! Under a measurement window (the concurrent-kernel papers' protocol) each stream starts its
//! sequence again as soon as its last launch is complete, so every stream keeps a kernel running
//! until the window closes. Streams then repeat independently, which the default stream's
//! ordering across streams cannot express: a program that repeats uses either the default
//! stream alone or named streams alone (`Workload::validate` says so).

use alloc::collections::BTreeMap;
use alloc::vec;
use alloc::vec::Vec;

/// Which host launches may start.
#[derive(Clone, Debug)]
pub struct HostQueue {
    stream: Vec<u32>,
    started: Vec<bool>,
    done: Vec<bool>,
    /// The previous launch in the same stream.
    prev_in_stream: Vec<Option<u32>>,
    /// The last default-stream launch before each launch.
    last_default_before: Vec<Option<u32>>,
    /// Whether each launch is a sync point (the host writes memory right before it).
    sync: Vec<bool>,
    /// The last sync point before each launch.
    last_sync_before: Vec<Option<u32>>,
    /// Every launch before this index is complete.
    first_incomplete: usize,
    /// Per stream, its launches in order and how many have started.
    queues: BTreeMap<u32, (Vec<u32>, usize)>,
    /// Each stream starts its sequence again once its last launch is complete.
    repeat: bool,
    /// Times a stream started its sequence again.
    repeats: u64,
}

impl HostQueue {
    /// The queue for launches in the given streams, in program order, where the launches in
    /// `syncs` are sync points; with `repeat`, each stream runs its launches over and over (the
    /// caller ends the run).
    pub fn new(streams: &[u32], syncs: &[u32], repeat: bool) -> Self {
        let n = streams.len();
        let mut prev_in_stream = vec![None; n];
        let mut last_default_before = vec![None; n];
        let mut sync = vec![false; n];
        for &l in syncs {
            if let Some(s) = sync.get_mut(l as usize) {
                *s = true;
            }
        }
        let mut last_sync_before = vec![None; n];
        let mut queues: BTreeMap<u32, (Vec<u32>, usize)> = BTreeMap::new();
        let (mut last_default, mut last_sync) = (None, None);
        for (i, &s) in streams.iter().enumerate() {
            let queue = queues.entry(s).or_default();
            prev_in_stream[i] = queue.0.last().copied();
            queue.0.push(i as u32);
            last_default_before[i] = last_default;
            last_sync_before[i] = last_sync;
            if s == 0 {
                last_default = Some(i as u32);
            }
            if sync[i] {
                last_sync = Some(i as u32);
            }
        }
        HostQueue {
            stream: streams.to_vec(),
            started: vec![false; n],
            done: vec![false; n],
            prev_in_stream,
            last_default_before,
            sync,
            last_sync_before,
            first_incomplete: 0,
            queues,
            repeat,
            repeats: 0,
        }
    }

    /// Appends the launches that may start now to `out` in program order, and marks them started.
    pub fn take_ready(&mut self, out: &mut Vec<u32>) {
        let first = out.len();
        let HostQueue {
            queues,
            done,
            stream,
            prev_in_stream,
            last_default_before,
            sync,
            last_sync_before,
            first_incomplete,
            started,
            ..
        } = self;
        let is_done = |l: Option<u32>| l.is_none_or(|l| done[l as usize]);
        // A sync point that starts lets later launches of streams already passed start too.
        let mut again = true;
        while again {
            again = false;
            for (_, (launches, head)) in queues.iter_mut() {
                let Some(&next) = launches.get(*head) else { continue };
                let i = next as usize;
                let after_everything = stream[i] == 0 || sync[i];
                let ready = is_done(prev_in_stream[i])
                    && last_sync_before[i].is_none_or(|l| started[l as usize])
                    && if after_everything { *first_incomplete >= i } else { is_done(last_default_before[i]) };
                if ready {
                    started[i] = true;
                    *head += 1;
                    out.push(next);
                    again |= sync[i];
                }
            }
        }
        out[first..].sort_unstable();
    }

    /// Host launch `launch` (with every grid it launched) is complete.
    pub fn complete(&mut self, launch: u32) {
        self.done[launch as usize] = true;
        while self.first_incomplete < self.done.len() && self.done[self.first_incomplete] {
            self.first_incomplete += 1;
        }
        if self.repeat {
            let stream = self.stream[launch as usize];
            let (launches, head) = self.queues.get_mut(&stream).expect("a launch's stream has a queue");
            if *head == launches.len() && launches.iter().all(|&l| self.done[l as usize]) {
                // The stream's sequence is complete: it starts again from its first launch.
                *head = 0;
                for &l in launches.iter() {
                    self.done[l as usize] = false;
                    self.started[l as usize] = false;
                }
                self.first_incomplete = self.first_incomplete.min(launches[0] as usize);
                self.repeats += 1;
            }
        }
    }

    /// Times a stream started its launch sequence again (0 unless it repeats).
    pub fn repeats(&self) -> u64 {
        self.repeats
    }

    /// Whether every launch is complete.
    pub fn all_done(&self) -> bool {
        self.first_incomplete == self.done.len()
    }

    /// Launches completed so far.
    pub fn completed(&self) -> usize {
        self.done.iter().filter(|&&d| d).count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn ready(q: &mut HostQueue) -> Vec<u32> {
        let mut out = Vec::new();
        q.take_ready(&mut out);
        out
    }

    #[test]
    fn one_stream_runs_in_order() {
        let mut q = HostQueue::new(&[0, 0, 0], &[], false);
        assert_eq!(ready(&mut q), [0]);
        assert_eq!(ready(&mut q), [] as [u32; 0], "launch 1 waits for 0");
        q.complete(0);
        assert_eq!(ready(&mut q), [1]);
        q.complete(1);
        assert_eq!(ready(&mut q), [2]);
        q.complete(2);
        assert!(q.all_done());
    }

    #[test]
    fn separate_streams_overlap_and_the_default_stream_joins_them() {
        // s1: 0, 2; s2: 1, 3; default: 4; s1: 5.
        let mut q = HostQueue::new(&[1, 2, 1, 2, 0, 1], &[], false);
        assert_eq!(ready(&mut q), [0, 1]);
        q.complete(1);
        assert_eq!(ready(&mut q), [3], "stream 2 goes on while stream 1 is busy");
        q.complete(3);
        q.complete(0);
        assert_eq!(ready(&mut q), [2]);
        assert_eq!(ready(&mut q), [] as [u32; 0]);
        q.complete(2);
        assert_eq!(ready(&mut q), [4], "the default stream waits for everything before it");
        assert_eq!(ready(&mut q), [] as [u32; 0], "and everything after waits for it");
        q.complete(4);
        assert_eq!(ready(&mut q), [5]);
        q.complete(5);
        assert!(q.all_done());
        assert_eq!(q.completed(), 6);
    }

    #[test]
    fn a_default_launch_waits_for_an_unfinished_earlier_stream() {
        let mut q = HostQueue::new(&[3, 0], &[], false);
        assert_eq!(ready(&mut q), [0]);
        assert_eq!(ready(&mut q), [] as [u32; 0]);
        q.complete(0);
        assert_eq!(ready(&mut q), [1]);
    }

    #[test]
    fn a_sync_point_waits_for_every_stream_and_holds_back_every_later_launch() {
        // s1: 0, 3; s2: 1; s2: 2 is a sync point (a host write comes before it); s1: 3.
        let mut q = HostQueue::new(&[1, 2, 2, 1], &[2], false);
        assert_eq!(ready(&mut q), [0, 1]);
        q.complete(1);
        assert_eq!(ready(&mut q), [] as [u32; 0], "launch 2 waits for launch 0 of another stream");
        q.complete(0);
        assert_eq!(ready(&mut q), [2, 3], "launch 3 of stream 1 starts with it");
        let mut q = HostQueue::new(&[1, 2, 2, 1], &[2], false);
        ready(&mut q);
        q.complete(0);
        assert_eq!(ready(&mut q), [] as [u32; 0], "launch 3 (stream 1) waits for the sync point to start");
        q.complete(1);
        assert_eq!(ready(&mut q), [2, 3], "and may run beside it once it has");
    }

    #[test]
    fn repeating_streams_start_again_each_on_its_own_when_their_last_launch_completes() {
        // Stream 1: 0, 2; stream 2: 1.
        let mut q = HostQueue::new(&[1, 2, 1], &[], true);
        assert_eq!(ready(&mut q), [0, 1]);
        q.complete(1);
        assert_eq!(ready(&mut q), [1], "stream 2's only launch starts again at once");
        q.complete(0);
        assert_eq!(ready(&mut q), [2]);
        q.complete(1);
        assert_eq!(ready(&mut q), [1]);
        assert_eq!(q.repeats(), 2);
        q.complete(2);
        assert_eq!(ready(&mut q), [0], "stream 1 starts again from its first launch");
        assert!(!q.all_done(), "a repeating program never finishes by itself");
        assert_eq!(q.repeats(), 3);
    }

    #[test]
    fn a_default_stream_program_repeats_as_a_whole() {
        let mut q = HostQueue::new(&[0, 0], &[], true);
        assert_eq!(ready(&mut q), [0]);
        q.complete(0);
        assert_eq!(ready(&mut q), [1]);
        q.complete(1);
        assert_eq!(ready(&mut q), [0], "the sequence starts again, in order");
        assert_eq!(ready(&mut q), [] as [u32; 0], "launch 1 waits for launch 0 again");
        q.complete(0);
        assert_eq!(ready(&mut q), [1]);
    }
}
