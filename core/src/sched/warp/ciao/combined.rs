//! CIAO-C: isolation first, then throttling. A warp that keeps evicting another's lines is
//! isolated (its global loads go to the shared-memory cache); if it is still the top interferer
//! once isolated, it interferes inside that cache too, and is stalled. Released, it steps back
//! the same way: stalled, isolated, active.

use super::{Response, Step};

/// CIAO-C's response.
#[derive(Clone, Copy, Debug, Default)]
pub struct Combined;

impl Response for Combined {
    const ISOLATES: bool = true;
    const WITHOUT_SMC: Step = Step::Stall;

    fn step(isolated: bool) -> Step {
        if isolated {
            Step::Stall
        } else {
            Step::Isolate
        }
    }
}

/// CIAO-C.
pub type CiaoC = super::Ciao<Combined>;
