//! Per-key rate limit (`decisions.md` § Limits): by default 1,200 requests per 2 minutes,
//! as a GCRA bucket from the `governor` crate (burst = the whole allowance).

use governor::clock::{Clock, DefaultClock};
use governor::state::keyed::DefaultKeyedStateStore;
use governor::Quota;
use std::num::NonZeroU32;
use std::time::Duration;

/// Length of the rate-limit window.
pub const WINDOW: Duration = Duration::from_secs(120);

/// A limiter keyed by API key id.
pub struct RateLimiter {
    inner: governor::RateLimiter<i64, DefaultKeyedStateStore<i64>, DefaultClock>,
    clock: DefaultClock,
}

impl RateLimiter {
    /// `per_window` requests per [`WINDOW`] for each key; `None` when `per_window` is 0
    /// (no limit).
    pub fn new(per_window: u32) -> Option<Self> {
        let n = NonZeroU32::new(per_window)?;
        let quota = Quota::with_period(WINDOW / per_window)?.allow_burst(n);
        Some(RateLimiter {
            inner: governor::RateLimiter::keyed(quota),
            clock: DefaultClock::default(),
        })
    }

    /// Counts one request of `key_id`; `Err(seconds)` to wait when over the limit.
    pub fn check(&self, key_id: i64) -> Result<(), u64> {
        self.inner.check_key(&key_id).map_err(|not_until| {
            let wait = not_until.wait_time_from(self.clock.now());
            wait.as_secs() + u64::from(wait.subsec_nanos() > 0)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn refuses_beyond_the_allowance_per_key() {
        let limiter = RateLimiter::new(3).unwrap();
        for _ in 0..3 {
            assert!(limiter.check(1).is_ok());
        }
        let wait = limiter.check(1).unwrap_err();
        assert!((1..=40).contains(&wait), "wait {wait}");
        assert!(limiter.check(2).is_ok(), "other keys are not affected");
        assert!(RateLimiter::new(0).is_none());
    }
}
