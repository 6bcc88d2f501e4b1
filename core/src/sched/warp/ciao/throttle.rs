//! CIAO-T: throttling only. A warp that keeps evicting another's lines is stalled: it issues
//! nothing until the warp it was stalled for calms down or finishes. A warp stalled again (for
//! another warp) only changes whom it waits for.

use super::{Response, Step};

/// CIAO-T's response.
#[derive(Clone, Copy, Debug, Default)]
pub struct Throttle;

impl Response for Throttle {
    const ISOLATES: bool = false;
    const WITHOUT_SMC: Step = Step::Stall;

    fn step(_isolated: bool) -> Step {
        Step::Stall
    }
}

/// CIAO-T.
pub type CiaoT = super::Ciao<Throttle>;
