//! DeNovo coherence ([`crate::config::Coherence::DeNovo`]), as the IKRA paper ran it
//! (ikra.md §1.9): written data is *owned* by the L1 that wrote it, which keeps it across
//! kernel boundaries, and the L2 knows who owns what.
//!
//! The L1's part (Owned sectors, write-back of owned data, registrations, revocation and
//! self-invalidation at a kernel boundary) is in [`crate::mem::l1`]'s `ownership`. This module
//! is the home bank's part: what a request that reaches its L2 bank does, decided from the
//! owner registry ([`registry`]), as [`HomeAction`]s the engine carries out on the network.
//!
//! | request | at the home bank |
//! |---|---|
//! | load | sectors another L1 owns are forwarded there (that L1 sends the data to the reader: a remote-L1 hit, three network legs); the rest are served by the bank |
//! | store's registration | the requester is recorded as owner; the previous owner, if another L1, is told its copy is revoked; the requester gets an acknowledgement |
//! | atomic's registration | as a store's, and the data comes back: from the previous owner when another L1 owned a sector (it gives its copy up), else from the bank |
//! | write-back | the bank writes the data; the sender stops being recorded as owner of what it still owned |
//!
//! Simplifications, each documented where it is made: sectors stand for DeNovo's words;
//! the registry is kept beside the L2's tags (an L2 eviction never recalls owned data); a
//! forwarded read is always answered (a line just evicted is answered from its write-back);
//! nothing waits for registrations to be acknowledged, as nothing waits for stores under GPU
//! coherence.

pub mod registry;

use crate::config::GpuConfig;
use crate::mem::l1::{Message, RequestKind};
use crate::mem::l2::L2Request;

pub use registry::OwnerRegistry;

/// What the home bank does about a request, for the engine to carry out.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HomeAction {
    /// The bank serves these sectors of the request itself, as it would any request.
    Serve {
        /// The sectors (the request's mask, in L1 sectors).
        sectors: u32,
    },
    /// The request goes on to the L1 of `owner`, which sends the data of `sectors` to the
    /// requester. With `revoke`, that L1 gives its copy up (an atomic takes ownership).
    Forward {
        /// The owning SM.
        owner: u32,
        /// The sectors it answers for.
        sectors: u32,
        /// Whether it gives them up.
        revoke: bool,
    },
    /// `owner` no longer owns `sectors`: its copy is revoked.
    Revoke {
        /// The previous owner.
        owner: u32,
        /// The sectors it loses.
        sectors: u32,
    },
    /// The registration is acknowledged to the requester (a control message).
    Acknowledge,
}

/// The home banks' state under DeNovo: the owner registry.
#[derive(Clone, Debug)]
pub struct Home {
    registry: OwnerRegistry,
}

/// The registry's shape for `config`: L1 sectors per line, and every line of every L1.
fn registry_shape(config: &GpuConfig) -> (u32, usize) {
    let sectors_per_line = config.l1.line_bytes / config.l1.sector_bytes.max(1);
    let l1_lines = config.l1.size_bytes / config.l1.line_bytes.max(1);
    (sectors_per_line, config.core.sm_count as usize * l1_lines as usize)
}

impl Home {
    /// A registry for lines of `sectors_per_line` L1 sectors, sized for `lines` lines.
    pub fn new(sectors_per_line: u32, lines: usize) -> Self {
        Home { registry: OwnerRegistry::new(sectors_per_line, lines) }
    }

    /// The home banks of `config`: a registry with room for every line of every L1.
    pub fn for_config(config: &GpuConfig) -> Self {
        let (sectors_per_line, lines) = registry_shape(config);
        Home::new(sectors_per_line, lines)
    }

    /// Bytes [`Home::for_config`] allocates, about.
    pub fn bytes_needed(config: &GpuConfig) -> u64 {
        let (sectors_per_line, lines) = registry_shape(config);
        OwnerRegistry::bytes_needed(sectors_per_line, lines)
    }

    /// `request` (`message` being what it is for the protocol) reached its home bank: `act`
    /// hears what to do, in order.
    pub fn arrive(&mut self, request: &L2Request, message: Message, mut act: impl FnMut(HomeAction)) {
        let (line, sectors, sm) = (request.line, request.sectors, request.sm);
        match (message, request.kind) {
            (Message::WriteBack, _) => {
                self.registry.release(line, sectors, sm);
                act(HomeAction::Serve { sectors });
            }
            (Message::Register, RequestKind::Atomic) => {
                // One source for the data, so the atomic gets one answer: the first other
                // owner, which gives its copy up; any other owner is revoked.
                let mut source = None;
                self.registry.register(line, sectors, sm, |owner, lost| match source {
                    None => source = Some(owner),
                    Some(_) => act(HomeAction::Revoke { owner, sectors: lost }),
                });
                match source {
                    Some(owner) => act(HomeAction::Forward { owner, sectors, revoke: true }),
                    None => act(HomeAction::Serve { sectors }),
                }
            }
            (Message::Register, _) => {
                self.registry
                    .register(line, sectors, sm, |owner, lost| act(HomeAction::Revoke { owner, sectors: lost }));
                act(HomeAction::Acknowledge);
            }
            (Message::Access, RequestKind::Load) => {
                let mut forwarded = 0;
                self.registry.owners_of(line, sectors, sm, |owner, theirs| {
                    forwarded |= theirs;
                    act(HomeAction::Forward { owner, sectors: theirs, revoke: false });
                });
                if sectors & !forwarded != 0 {
                    act(HomeAction::Serve { sectors: sectors & !forwarded });
                }
            }
            // A store or atomic written through (an L1 that owns nothing): served as is.
            (Message::Access, _) => act(HomeAction::Serve { sectors }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::vec::Vec;

    fn request(sm: u32, sectors: u32, kind: RequestKind, message: Message) -> L2Request {
        L2Request { sm, line: 40, sectors, kind, token: 0, kernel: 0, updates: 1, message }
    }

    fn arrive(home: &mut Home, sm: u32, sectors: u32, kind: RequestKind, message: Message) -> Vec<HomeAction> {
        let mut actions = Vec::new();
        home.arrive(&request(sm, sectors, kind, message), message, |a| actions.push(a));
        actions
    }

    use HomeAction::*;
    use Message::{Access, Register, WriteBack};
    use RequestKind::{Atomic, Load, Store};

    /// SM 1 writes sectors 0–1, SM 2 reads the line, SM 3 writes sector 1, SM 1 evicts the
    /// line, SM 2 reads again: each step's actions worked by hand from the protocol table.
    #[test]
    fn a_line_written_read_rewritten_and_written_back() {
        let mut home = Home::new(4, 8);
        assert_eq!(arrive(&mut home, 1, 0b0011, Store, Register), [Acknowledge]);
        assert_eq!(
            arrive(&mut home, 2, 0b1111, Load, Access),
            [Forward { owner: 1, sectors: 0b0011, revoke: false }, Serve { sectors: 0b1100 }]
        );
        assert_eq!(arrive(&mut home, 3, 0b0010, Store, Register), [Revoke { owner: 1, sectors: 0b0010 }, Acknowledge]);
        // SM 1 writes back both sectors it had; only sector 0 is still its.
        assert_eq!(arrive(&mut home, 1, 0b0011, Store, WriteBack), [Serve { sectors: 0b0011 }]);
        assert_eq!(
            arrive(&mut home, 2, 0b0011, Load, Access),
            [Forward { owner: 3, sectors: 0b0010, revoke: false }, Serve { sectors: 0b0001 }]
        );
        // A load of one's own sectors (its registration raced a self-invalidation) is served.
        assert_eq!(arrive(&mut home, 3, 0b0010, Load, Access), [Serve { sectors: 0b0010 }]);
    }

    #[test]
    fn an_atomic_takes_the_data_from_one_previous_owner_and_revokes_the_others() {
        let mut home = Home::new(4, 8);
        arrive(&mut home, 1, 0b0001, Store, Register);
        arrive(&mut home, 2, 0b0010, Store, Register);
        assert_eq!(
            arrive(&mut home, 5, 0b0011, Atomic, Register),
            [Revoke { owner: 2, sectors: 0b0010 }, Forward { owner: 1, sectors: 0b0011, revoke: true }]
        );
        // Now SM 5 owns both: its next atomic elsewhere in the line comes from the bank.
        assert_eq!(arrive(&mut home, 5, 0b0100, Atomic, Register), [Serve { sectors: 0b0100 }]);
        assert_eq!(arrive(&mut home, 1, 0b0111, Load, Access), [Forward { owner: 5, sectors: 0b0111, revoke: false }]);
    }
}
