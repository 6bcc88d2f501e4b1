//! The host's launch sequence and CUDA stream ordering.
//!
//! Launches in one stream start in order, each after the previous one is complete. Stream 0 is
//! the legacy default stream: a launch there starts only once every earlier launch is complete,
//! and launches after it, in any stream, wait for it.

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
    /// Every launch before this index is complete.
    first_incomplete: usize,
    /// Per stream, its launches in order and how many have started.
    queues: BTreeMap<u32, (Vec<u32>, usize)>,
}

impl HostQueue {
    /// The queue for launches in the given streams, in program order.
    pub fn new(streams: &[u32]) -> Self {
        let n = streams.len();
        let mut prev_in_stream = vec![None; n];
        let mut last_default_before = vec![None; n];
        let mut queues: BTreeMap<u32, (Vec<u32>, usize)> = BTreeMap::new();
        let mut last_default = None;
        for (i, &s) in streams.iter().enumerate() {
            let queue = queues.entry(s).or_default();
            prev_in_stream[i] = queue.0.last().copied();
            queue.0.push(i as u32);
            last_default_before[i] = last_default;
            if s == 0 {
                last_default = Some(i as u32);
            }
        }
        HostQueue {
            stream: streams.to_vec(),
            started: vec![false; n],
            done: vec![false; n],
            prev_in_stream,
            last_default_before,
            first_incomplete: 0,
            queues,
        }
    }

    /// Appends the launches that may start now to `out` in program order, and marks them started.
    pub fn take_ready(&mut self, out: &mut Vec<u32>) {
        let first = out.len();
        let HostQueue { queues, done, stream, prev_in_stream, last_default_before, first_incomplete, started } = self;
        let is_done = |l: Option<u32>| l.is_none_or(|l| done[l as usize]);
        for (_, (launches, head)) in queues.iter_mut() {
            let Some(&next) = launches.get(*head) else { continue };
            let i = next as usize;
            let ready = is_done(prev_in_stream[i])
                && if stream[i] == 0 { *first_incomplete >= i } else { is_done(last_default_before[i]) };
            if ready {
                started[i] = true;
                *head += 1;
                out.push(next);
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
        let mut q = HostQueue::new(&[0, 0, 0]);
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
        let mut q = HostQueue::new(&[1, 2, 1, 2, 0, 1]);
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
        let mut q = HostQueue::new(&[3, 0]);
        assert_eq!(ready(&mut q), [0]);
        assert_eq!(ready(&mut q), [] as [u32; 0]);
        q.complete(0);
        assert_eq!(ready(&mut q), [1]);
    }
}
