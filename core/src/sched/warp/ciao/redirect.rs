//! CIAO-P: isolation only. A warp that keeps evicting another's lines has its global loads sent
//! to the cache carved from unused shared memory, where it can thrash only other isolated warps;
//! it keeps running, so no thread-level parallelism is lost. A warp already isolated that still
//! interferes is left as it is.

use super::{Response, Step};

/// CIAO-P's response.
#[derive(Clone, Copy, Debug, Default)]
pub struct Redirect;

impl Response for Redirect {
    const ISOLATES: bool = true;
    const WITHOUT_SMC: Step = Step::Nothing;

    fn step(isolated: bool) -> Step {
        if isolated {
            Step::Nothing
        } else {
            Step::Isolate
        }
    }
}

/// CIAO-P.
pub type CiaoP = super::Ciao<Redirect>;
