//! Who held up whose memory instructions among co-running kernels (host streams), over the
//! whole run and every SM (`sm::blocked_by` counts them): the concurrent-kernel paper's §2
//! premise that a memory-bound kernel's requests, stalled at the L1, hold the LSU that every
//! kernel on the SM shares.

use alloc::string::String;
use alloc::vec::Vec;

use serde::{Deserialize, Serialize};

/// One co-running kernel: a host stream.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct BlockingKernel {
    /// The stream.
    pub stream: u32,
    /// The kernel of its first launch.
    pub name: String,
    /// For programs side by side, the program whose stream it is.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub program: Option<String>,
}

impl BlockingKernel {
    /// How a person reads it: "backprop (bpnn_layerforward)", or "compute_heavy (stream 1)".
    pub fn label(&self) -> String {
        match &self.program {
            Some(program) => alloc::format!("{program} ({})", self.name),
            None => alloc::format!("{} (stream {})", self.name, self.stream),
        }
    }
}

/// The counts.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct MemoryBlocking {
    /// The co-running kernels, in order of first launch (at most `sm::blocked_by::MAX_KERNELS`).
    pub kernels: Vec<BlockingKernel>,
    /// `[victim][holder]`: SM cycles in which some warp of kernel `victim` had a memory
    /// instruction ready to issue that the LSU, busy with an access of kernel `holder`, did not
    /// take (whether or not its scheduler issued something else).
    pub waited: Vec<Vec<u64>>,
}

impl MemoryBlocking {
    /// The L1 counts of co-running kernel `k`: its host runs' on its stream (of the runs the
    /// report keeps whole).
    pub fn l1_of(&self, k: usize, runs: &[super::KernelReport]) -> crate::mem::l1::L1Stats {
        let mut l1 = crate::mem::l1::L1Stats::default();
        if let Some(kernel) = self.kernels.get(k) {
            for run in runs.iter().filter(|r| r.parent.is_none() && r.stream == kernel.stream) {
                l1.merge(&run.l1);
            }
        }
        l1
    }

    /// SM cycles kernel `victim` waited behind the others' accesses (not its own).
    pub fn behind_others(&self, victim: usize) -> u64 {
        self.waited
            .get(victim)
            .map_or(0, |row| row.iter().enumerate().filter(|&(h, _)| h != victim).map(|(_, n)| n).sum())
    }
}

#[cfg(test)]
mod tests {
    use alloc::vec;

    use super::*;

    #[test]
    fn a_kernel_is_named_by_its_program_or_its_stream_and_counts_the_others_holds() {
        let k = |stream, program: Option<&str>| BlockingKernel {
            stream,
            name: "k".into(),
            program: program.map(Into::into),
        };
        assert_eq!(k(2, None).label(), "k (stream 2)");
        assert_eq!(k(2, Some("spmv")).label(), "spmv (k)");
        let m = MemoryBlocking { kernels: vec![k(1, None), k(2, None)], waited: vec![vec![5, 7], vec![11, 13]] };
        assert_eq!((m.behind_others(0), m.behind_others(1), m.behind_others(2)), (7, 11, 0));
    }
}
