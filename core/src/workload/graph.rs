//! Generated graphs in compressed sparse row (CSR) form, for the graph workloads (BFS, SSSP,
//! graph colouring, …). Every generator is deterministic: the same spec gives the same graph
//! on every platform.

use alloc::string::String;
use alloc::vec::Vec;

/// The shape of a generated graph.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GraphKind {
    /// Each edge joins two vertices drawn uniformly (Erdős–Rényi-like); degrees are even.
    Uniform,
    /// R-MAT recursive quadrant sampling: a power-law degree distribution with a few hubs.
    PowerLaw,
    /// A road-like 2-D mesh: `width × height` vertices joined to their grid neighbours.
    Mesh,
}

/// What to generate.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct GraphSpec {
    /// Shape.
    pub kind: GraphKind,
    /// Vertices (for a mesh, `width × height`).
    pub vertices: u32,
    /// Directed edges wanted (uniform, power-law); for a mesh, the mesh width.
    pub edges_or_width: u32,
    /// Seed of the random choices.
    pub seed: u32,
}

/// A graph in CSR form: the out-edges of vertex `v` are `columns[offsets[v]..offsets[v + 1]]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Csr {
    /// `vertices + 1` offsets into `columns`.
    pub offsets: Vec<u32>,
    /// Destination vertex of each edge.
    pub columns: Vec<u32>,
    /// Weight of each edge.
    pub weights: Vec<u32>,
}

/// Generates the graph, or says why the spec is impossible.
pub fn generate(spec: &GraphSpec) -> Result<Csr, String> {
    let _ = spec;
    Err("graph generation is not written yet".into())
}
