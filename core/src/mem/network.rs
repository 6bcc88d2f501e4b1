//! The interconnect between SMs and L2 banks: a latency from the topology and a bandwidth per
//! port. Every SM and every bank has an injection port and an ejection port, each moving
//! `flits_per_cycle` flits per cycle; a packet waits for both.
//!
//! Ports are modelled by the time they next fall free, so a packet's delivery time is known
//! when it is sent and no cycle is spent ticking an idle network.

use alloc::vec;
use alloc::vec::Vec;

use crate::config::{GpuConfig, InterconnectConfig, Topology};
use crate::stats::{NetworkStats, TrafficClass};

/// Which side of the network a port belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Endpoint {
    /// An SM.
    Sm(u32),
    /// An L2 bank.
    Bank(u32),
}

/// The network's timing state.
#[derive(Clone, Debug)]
pub struct Network {
    config: InterconnectConfig,
    sm_count: u32,
    bank_count: u32,
    /// Next free cycle of each endpoint's injection port (SMs first, then banks).
    inject_free: Vec<u64>,
    /// Next free cycle of each endpoint's ejection port.
    eject_free: Vec<u64>,
    stats: NetworkStats,
}

impl Network {
    /// An idle network for `config`.
    pub fn new(config: &GpuConfig) -> Self {
        let endpoints = (config.core.sm_count + config.l2.banks) as usize;
        Network {
            config: config.interconnect,
            sm_count: config.core.sm_count,
            bank_count: config.l2.banks,
            inject_free: vec![0; endpoints],
            eject_free: vec![0; endpoints],
            stats: NetworkStats::default(),
        }
    }

    fn index(&self, e: Endpoint) -> usize {
        match e {
            Endpoint::Sm(s) => s as usize,
            Endpoint::Bank(b) => (self.sm_count + b) as usize,
        }
    }

    /// Mesh node of an endpoint: SMs fill nodes from the first, banks are spread evenly.
    fn node(&self, e: Endpoint) -> u32 {
        match (e, self.config.topology) {
            (Endpoint::Sm(s), _) => s,
            (Endpoint::Bank(b), Topology::Mesh { columns, rows }) => b * (columns * rows) / self.bank_count,
            (Endpoint::Bank(b), Topology::Crossbar) => b,
        }
    }

    /// Hops between two endpoints (at least 1).
    pub fn hops(&self, from: Endpoint, to: Endpoint) -> u32 {
        match self.config.topology {
            Topology::Crossbar => 1,
            Topology::Mesh { columns, .. } => {
                let (a, b) = (self.node(from), self.node(to));
                let dx = (a % columns).abs_diff(b % columns);
                let dy = (a / columns).abs_diff(b / columns);
                (dx + dy).max(1)
            }
        }
    }

    /// Flits of a packet carrying `data_bytes` of payload (one header flit plus the data).
    pub fn flits(&self, data_bytes: u32) -> u32 {
        1 + data_bytes.div_ceil(self.config.flit_bytes)
    }

    /// Sends a packet of `flits` of traffic `class` at cycle `now`, counted in the network's
    /// statistics and in `also` (a kernel run's); returns the cycle it is delivered.
    pub fn send(
        &mut self,
        now: u64,
        from: Endpoint,
        to: Endpoint,
        flits: u32,
        class: TrafficClass,
        also: Option<&mut NetworkStats>,
    ) -> u64 {
        let serialisation = flits.div_ceil(self.config.flits_per_cycle) as u64;
        let (src, dst) = (self.index(from), self.index(to));
        let depart = now.max(self.inject_free[src]);
        self.inject_free[src] = depart + serialisation;
        let hops = self.hops(from, to);
        let arrive = depart + (hops * self.config.hop_latency) as u64;
        let delivered = arrive.max(self.eject_free[dst]) + serialisation;
        self.eject_free[dst] = delivered;
        self.stats.count(class, flits, hops);
        if let Some(stats) = also {
            stats.count(class, flits, hops);
        }
        delivered
    }

    /// Cycle from which `endpoint` can inject again.
    pub fn inject_free_at(&self, endpoint: Endpoint) -> u64 {
        self.inject_free[self.index(endpoint)]
    }

    /// Traffic so far.
    pub fn stats(&self) -> NetworkStats {
        self.stats
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::presets;

    #[test]
    fn a_crossbar_packet_takes_one_hop_plus_serialisation() {
        let config = presets::fermi_gtx480(); // 8-cycle hop, 32 B flits, 1 flit per cycle
        let mut net = Network::new(&config);
        assert_eq!(net.flits(0), 1);
        assert_eq!(net.flits(128), 5);
        // A 1-flit request at cycle 100: leaves at 100, arrives at 108, ejected by 109.
        let read = TrafficClass::Read;
        assert_eq!(net.send(100, Endpoint::Sm(0), Endpoint::Bank(3), 1, read, None), 109);
        // A second packet from the same SM in the same cycle waits for the injection port.
        assert_eq!(net.send(100, Endpoint::Sm(0), Endpoint::Bank(4), 1, TrafficClass::Write, None), 110);
        // A 5-flit reply into SM 0 then one from another bank: the second waits for ejection.
        assert_eq!(net.send(200, Endpoint::Bank(1), Endpoint::Sm(0), 5, read, None), 213);
        assert_eq!(net.send(200, Endpoint::Bank(2), Endpoint::Sm(0), 5, read, None), 218);
        let stats = net.stats();
        assert_eq!((stats.packets, stats.flits), (4, 12));
        assert_eq!((stats.read.packets, stats.read.flits, stats.read.flit_hops), (3, 11, 11));
        assert_eq!((stats.write.packets, stats.write.flits), (1, 1));
    }

    #[test]
    fn flit_hops_count_each_flit_once_per_hop_and_an_sm_can_send_to_an_sm() {
        let config = presets::ikra_denovo(); // 4×4 mesh, 3 cycles per hop, 16 B flits
        let mut net = Network::new(&config);
        // SM 0 (node 0) to SM 15... is node 14 here (15 SMs): 2 columns + 3 rows = 5 hops.
        assert_eq!(net.hops(Endpoint::Sm(0), Endpoint::Sm(14)), 5);
        let flits = net.flits(32); // header + 2
        assert_eq!(flits, 3);
        // Leaves at 10 for 3 cycles, 15 cycles on the way, then 3 to eject.
        assert_eq!(net.send(10, Endpoint::Sm(0), Endpoint::Sm(14), flits, TrafficClass::Read, None), 10 + 15 + 3);
        net.send(10, Endpoint::Bank(15), Endpoint::Sm(0), 1, TrafficClass::Ownership, None);
        let stats = net.stats();
        assert_eq!(stats.read.flit_hops, 3 * 5);
        assert_eq!(stats.ownership.flit_hops, 6, "bank 15 sits at node 15, six hops from node 0");
        assert_eq!(stats.flit_hops(), 21);
    }

    #[test]
    fn mesh_latency_grows_with_manhattan_distance() {
        let config = presets::ikra_denovo(); // 4×4 mesh, 16 banks on 16 nodes, 3 cycles per hop
        let net = Network::new(&config);
        assert_eq!(net.hops(Endpoint::Sm(0), Endpoint::Bank(0)), 1, "same node still costs a hop");
        assert_eq!(net.hops(Endpoint::Sm(0), Endpoint::Bank(15)), 6, "corner to corner");
        assert_eq!(net.hops(Endpoint::Sm(5), Endpoint::Bank(7)), 2);
    }
}
