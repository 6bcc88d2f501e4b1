//! When each SM next needs a cycle. The clock asks every cycle which SMs are due and, before it
//! skips ahead, when the next one is; an SM with nothing to do sleeps (`u64::MAX`) until a
//! reply or a block wakes it. The SMs with a wake-up are also kept as bits, so that both
//! questions cost a word per 64 SMs plus one check per SM that has one: a large GPU with a few
//! busy SMs pays for those, not for every SM.

use alloc::vec;
use alloc::vec::Vec;

/// The next cycle of every SM.
#[derive(Clone, Debug)]
pub struct Wakeups {
    /// By SM: the engine may skip its cycles before this one.
    at: Vec<u64>,
    /// Bit `i % 64` of word `i / 64`: SM `i` has a wake-up (`at[i] != u64::MAX`).
    pending: Vec<u64>,
}

impl Wakeups {
    /// `sms` SMs, each due at cycle 0.
    pub fn new(sms: usize) -> Self {
        let mut pending = vec![u64::MAX; sms.div_ceil(64)];
        if sms % 64 != 0 {
            if let Some(last) = pending.last_mut() {
                *last = (1u64 << (sms % 64)) - 1;
            }
        }
        Wakeups { at: vec![0; sms], pending }
    }

    /// Sets SM `sm`'s next cycle (`u64::MAX`: none until woken).
    #[inline]
    pub fn set(&mut self, sm: usize, at: u64) {
        self.at[sm] = at;
        let bit = 1u64 << (sm % 64);
        if at == u64::MAX {
            self.pending[sm / 64] &= !bit;
        } else {
            self.pending[sm / 64] |= bit;
        }
    }

    /// Moves SM `sm`'s next cycle to `at` if that is earlier.
    #[inline]
    pub fn lower(&mut self, sm: usize, at: u64) {
        if at < self.at[sm] {
            self.set(sm, at);
        }
    }

    /// How many words of 64 SMs there are.
    pub fn words(&self) -> usize {
        self.pending.len()
    }

    /// The SMs `64 * word ..` due at `now` or before, as bits.
    #[inline]
    pub fn due(&self, word: usize, now: u64) -> u64 {
        let first = word * 64;
        let mut bits = self.pending[word];
        let mut due = 0;
        while bits != 0 {
            let k = bits.trailing_zeros();
            bits &= bits - 1;
            due |= ((self.at[first + k as usize] <= now) as u64) << k;
        }
        due
    }

    /// The SMs `64 * word ..` that exist, as bits.
    pub fn all(&self, word: usize) -> u64 {
        match self.at.len() - word * 64 {
            n if n >= 64 => u64::MAX,
            n => (1u64 << n) - 1,
        }
    }

    /// The earliest wake-up after `now` (a due SM counts as `now + 1`); `u64::MAX` if every SM
    /// sleeps.
    pub fn next_after(&self, now: u64) -> u64 {
        let mut next = u64::MAX;
        for (word, &pending) in self.pending.iter().enumerate() {
            let mut bits = pending;
            while bits != 0 {
                let k = bits.trailing_zeros() as usize;
                bits &= bits - 1;
                next = next.min(self.at[word * 64 + k].max(now + 1));
                if next == now + 1 {
                    return next;
                }
            }
        }
        next
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The same answers by scanning every SM, as the clock did before.
    fn scanned(at: &[u64], now: u64) -> (Vec<u64>, u64) {
        let due = at
            .chunks(64)
            .map(|c| c.iter().enumerate().fold(0u64, |bits, (k, &a)| bits | ((a <= now) as u64) << k))
            .collect();
        (due, at.iter().map(|&a| a.max(now + 1)).min().unwrap_or(u64::MAX))
    }

    #[test]
    fn due_and_next_agree_with_a_scan_of_every_sm() {
        let mut w = Wakeups::new(130);
        let mut at = vec![0u64; 130];
        let mut state = 7u64;
        for step in 0..2000u64 {
            state = state.wrapping_mul(6364136223846793005).wrapping_add(1442695040888963407);
            let sm = (state >> 33) as usize % 130;
            let choice = (state >> 20) % 4;
            let cycle = 100 + (state >> 40) % 50;
            match choice {
                0 => {
                    w.set(sm, u64::MAX);
                    at[sm] = u64::MAX;
                }
                1 => {
                    w.lower(sm, cycle);
                    at[sm] = at[sm].min(cycle);
                }
                _ => {
                    w.set(sm, cycle);
                    at[sm] = cycle;
                }
            }
            let now = 100 + step % 60;
            let (due, next) = scanned(&at, now);
            let got: Vec<u64> = (0..w.words()).map(|word| w.due(word, now)).collect();
            assert_eq!(got, due, "step {step}");
            assert_eq!(w.next_after(now), next, "step {step}");
        }
    }

    #[test]
    fn every_sm_starts_due_and_a_sleeping_gpu_has_no_next_cycle() {
        let mut w = Wakeups::new(70);
        assert_eq!((w.due(0, 0), w.due(1, 0)), (u64::MAX, (1 << 6) - 1));
        assert_eq!((w.all(0), w.all(1)), (u64::MAX, (1 << 6) - 1));
        for sm in 0..70 {
            w.set(sm, u64::MAX);
        }
        assert_eq!((w.due(0, 5), w.due(1, 5)), (0, 0));
        assert_eq!(w.next_after(5), u64::MAX);
        w.lower(69, 9);
        assert_eq!(w.due(1, 9), 1 << 5);
        assert_eq!(w.next_after(5), 9);
    }
}
