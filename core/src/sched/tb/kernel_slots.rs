//! Which co-running kernel a run belongs to, for the concurrent-kernel schedulers (spatial,
//! SMK, Warped-Slicer).
//!
//! The concurrent-kernel paper's "kernel" is a kernel that is relaunched whenever it completes
//! beside the others; here that is a host stream: every launch into it, and every grid those
//! launch from the device, belongs to it. Streams get slots in the order their first kernel
//! becomes ready (programs side by side start together, so the slots are settled at the first
//! dispatch).

use alloc::vec::Vec;

use super::{BlockNeeds, KernelLaunch, Origin};

/// The co-running kernels seen so far and each run's.
#[derive(Clone, Debug, Default)]
pub struct KernelSlots {
    /// Host streams, by slot.
    streams: Vec<u32>,
    /// What a block of each slot's latest host launch needs, by slot.
    needs: Vec<BlockNeeds>,
    /// Each run's slot, by run id.
    slot_of_run: Vec<u32>,
}

/// What a launch changed about the slots.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SlotChange {
    /// A stream launched for the first time: a new slot.
    New,
    /// A slot's host launch needs other resources per block than its last one.
    Reshaped,
    /// Nothing: a relaunch of the same shape, or a device launch.
    Same,
}

impl KernelSlots {
    /// Records `launch`'s run and says what changed.
    pub fn on_launch(&mut self, launch: &KernelLaunch) -> SlotChange {
        let (slot, change) = match launch.origin {
            Origin::Host { stream, .. } => match self.streams.iter().position(|&s| s == stream) {
                Some(slot) if self.needs[slot] == launch.needs => (slot, SlotChange::Same),
                Some(slot) => {
                    self.needs[slot] = launch.needs;
                    (slot, SlotChange::Reshaped)
                }
                None => {
                    self.streams.push(stream);
                    self.needs.push(launch.needs);
                    (self.streams.len() - 1, SlotChange::New)
                }
            },
            Origin::Device { run, .. } => (self.slot(run).unwrap_or(0), SlotChange::Same),
        };
        let run = launch.kernel as usize;
        if self.slot_of_run.len() <= run {
            self.slot_of_run.resize(run + 1, 0);
        }
        self.slot_of_run[run] = slot as u32;
        change
    }

    /// How many co-running kernels there are.
    pub fn len(&self) -> usize {
        self.streams.len()
    }

    /// Whether no kernel has launched.
    pub fn is_empty(&self) -> bool {
        self.streams.is_empty()
    }

    /// The slot of run `run`, if it launched.
    pub fn slot(&self, run: u32) -> Option<usize> {
        self.slot_of_run.get(run as usize).map(|&s| s as usize)
    }

    /// The host stream of each slot.
    pub fn streams(&self) -> &[u32] {
        &self.streams
    }

    /// What a block of each slot's latest host launch needs, by slot.
    pub fn needs(&self) -> &[BlockNeeds] {
        &self.needs
    }
}
