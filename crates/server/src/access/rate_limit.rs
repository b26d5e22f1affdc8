//! Per-key rate limit (`decisions.md` § Limits: 1,200 requests per 2 minutes by default),
//! shared by every server process on one database (issue 16 § 4;
//! `docs/decisions.md` § Several processes).
//!
//! The count is a fixed window of [`WINDOW`] per key, kept in the `rate_limit_counts`
//! table (migration 0024) so that any process answers any request with the same allowance:
//!
//! - a request is counted at once in the process that answers it (no database write on
//!   the request path: a write per request would cost a synced transaction each, far
//!   below the list budget of 3,000 requests per second);
//! - every [`SYNC_INTERVAL`] each process adds its new counts to the table and reads back
//!   the window's totals of all processes ([`RateLimiter::sync`], from `crate::run`);
//! - a request is refused (429, `Retry-After` = seconds until the window ends) when the
//!   window's total seen by the process — the table's total at the last sync plus its own
//!   counts since — has reached the allowance.
//!
//! One process is therefore exact; N processes may together admit up to what the others
//! counted within one sync interval beyond the allowance (at most N − 1 seconds' worth).

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::Duration;

/// Length of the rate-limit window.
pub const WINDOW: Duration = Duration::from_secs(120);

/// How often a process shares its counts through the database.
pub const SYNC_INTERVAL: Duration = Duration::from_secs(1);

/// What one process knows of a key in the current window.
#[derive(Clone, Copy, Debug, Default)]
struct KeyCount {
    /// The table's total at the last sync (all processes, including what this one added).
    shared: u64,
    /// This process's requests since the last sync.
    pending: u64,
}

#[derive(Debug, Default)]
struct Local {
    /// The window index (`unix seconds / 120`) the counts belong to.
    window: i64,
    counts: HashMap<i64, KeyCount>,
}

/// A limiter keyed by API key id, counting in the database (see the module docs).
pub struct RateLimiter {
    per_window: u64,
    pool: crate::sql::Db,
    local: Mutex<Local>,
}

/// The window index of the unix time `seconds`, and the seconds left in it (≥ 1).
fn window_of(seconds: i64) -> (i64, u64) {
    let length = WINDOW.as_secs() as i64;
    let window = seconds.div_euclid(length);
    let left = length - seconds.rem_euclid(length);
    (window, left.max(1) as u64)
}

fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

impl RateLimiter {
    /// `per_window` requests per [`WINDOW`] for each key, counted in `pool`'s database;
    /// `None` when `per_window` is 0 (no limit).
    pub fn new(per_window: u32, pool: crate::sql::Db) -> Option<Self> {
        (per_window > 0).then(|| RateLimiter {
            per_window: u64::from(per_window),
            pool,
            local: Mutex::new(Local::default()),
        })
    }

    /// Counts one request of `key_id` now; `Err(seconds)` to wait when over the limit.
    pub fn check(&self, key_id: i64) -> Result<(), u64> {
        self.check_at(key_id, unix_now())
    }

    fn check_at(&self, key_id: i64, now: i64) -> Result<(), u64> {
        let (window, left) = window_of(now);
        let mut local = self.local.lock().unwrap_or_else(|p| p.into_inner());
        if local.window != window {
            local.window = window;
            local.counts.clear();
        }
        let count = local.counts.entry(key_id).or_default();
        if count.shared.saturating_add(count.pending) >= self.per_window {
            return Err(left);
        }
        count.pending += 1;
        Ok(())
    }

    /// Adds this process's counts since the last sync to the table and reads back the
    /// window's totals of every process; removes windows that have ended. Errors: the
    /// database's (the counts stay pending and go with the next sync).
    pub async fn sync(&self) -> Result<(), sqlx::Error> {
        self.sync_at(unix_now()).await
    }

    async fn sync_at(&self, now: i64) -> Result<(), sqlx::Error> {
        let (current, _) = window_of(now);
        let (window, pending) = {
            let mut local = self.local.lock().unwrap_or_else(|p| p.into_inner());
            let window = local.window;
            let pending: Vec<(i64, u64)> = local
                .counts
                .iter_mut()
                .filter(|(_, c)| c.pending > 0)
                .map(|(k, c)| {
                    // Counted as shared at once: while the write is under way, a check
                    // must still see these requests (else the limit could be overshot by
                    // whatever arrives during one database round trip).
                    let n = std::mem::take(&mut c.pending);
                    c.shared = c.shared.saturating_add(n);
                    (*k, n)
                })
                .collect();
            (window, pending)
        };
        let written = self.write(window, current, &pending).await;
        if let Err(e) = written {
            // Put the counts back so they are not lost.
            let mut local = self.local.lock().unwrap_or_else(|p| p.into_inner());
            if local.window == window {
                for (key, n) in pending {
                    let count = local.counts.entry(key).or_default();
                    count.shared = count.shared.saturating_sub(n);
                    count.pending += n;
                }
            }
            return Err(e);
        }
        let totals: Vec<(i64, i64)> = crate::sql::query_as(
            "SELECT key_id, count FROM rate_limit_counts WHERE window_index = $1",
        )
        .bind(current)
        .fetch_all(&self.pool)
        .await?;
        let mut local = self.local.lock().unwrap_or_else(|p| p.into_inner());
        if local.window != current {
            local.window = current;
            local.counts.clear();
        }
        for (key, total) in totals {
            local.counts.entry(key).or_default().shared = u64::try_from(total).unwrap_or(0);
        }
        Ok(())
    }

    async fn write(
        &self,
        window: i64,
        current: i64,
        pending: &[(i64, u64)],
    ) -> Result<(), sqlx::Error> {
        let stale = !pending.is_empty() || window < current;
        if !stale {
            return Ok(());
        }
        let mut tx = self.pool.begin_sqlite_with("BEGIN IMMEDIATE").await?;
        for (key, n) in pending {
            crate::sql::query(
                "INSERT INTO rate_limit_counts (key_id, window_index, count) VALUES ($1, $2, $3) \
                 ON CONFLICT (key_id, window_index) DO UPDATE SET count = rate_limit_counts.count + excluded.count",
            )
            .bind(key)
            .bind(window)
            .bind(i64::try_from(*n).unwrap_or(i64::MAX))
            .execute(&mut tx)
            .await?;
        }
        crate::sql::query("DELETE FROM rate_limit_counts WHERE window_index < $1")
            .bind(current - 1)
            .execute(&mut tx)
            .await?;
        tx.commit().await
    }

    /// Syncs every [`SYNC_INTERVAL`] while the returned guard lives (failures are logged
    /// and retried with the next tick).
    pub fn spawn_sync(limiter: std::sync::Arc<RateLimiter>) -> Syncing {
        Syncing(tokio::spawn(async move {
            let mut tick = tokio::time::interval(SYNC_INTERVAL);
            tick.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
            loop {
                tick.tick().await;
                if let Err(e) = limiter.sync().await {
                    tracing::warn!("rate limit: cannot share counts: {e}");
                }
            }
        }))
    }
}

/// The running sync of [`RateLimiter::spawn_sync`]; stops it when dropped (with the server).
pub struct Syncing(tokio::task::JoinHandle<()>);

impl Drop for Syncing {
    fn drop(&mut self) {
        self.0.abort();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    async fn pool() -> (tempfile::TempDir, crate::sql::Db) {
        let dir = tempfile::tempdir().unwrap();
        let pool = crate::store::db::open(dir.path()).await.unwrap();
        (dir, pool)
    }

    #[test]
    fn windows_are_two_minutes_and_say_what_is_left() {
        assert_eq!(window_of(0), (0, 120));
        assert_eq!(window_of(119), (0, 1));
        assert_eq!(window_of(120), (1, 120));
        assert_eq!(window_of(-1), (-1, 1));
    }

    #[tokio::test]
    async fn refuses_beyond_the_allowance_per_key_until_the_window_ends() {
        let (_dir, pool) = pool().await;
        let limiter = RateLimiter::new(3, pool.clone()).unwrap();
        let t = 1_000_000 * 120 + 30;
        for _ in 0..3 {
            assert!(limiter.check_at(1, t).is_ok());
        }
        assert_eq!(limiter.check_at(1, t), Err(90));
        assert!(
            limiter.check_at(2, t).is_ok(),
            "other keys are not affected"
        );
        assert!(limiter.check_at(1, t + 90).is_ok(), "a new window");
        assert!(RateLimiter::new(0, pool).is_none());
    }

    #[tokio::test]
    async fn two_processes_share_one_allowance_through_the_database() {
        let (_dir, pool) = pool().await;
        let a = RateLimiter::new(5, pool.clone()).unwrap();
        let b = RateLimiter::new(5, pool.clone()).unwrap();
        let t = 1_000_000 * 120 + 10;
        for _ in 0..3 {
            a.check_at(7, t).unwrap();
        }
        a.sync_at(t).await.unwrap();
        b.sync_at(t).await.unwrap();
        b.check_at(7, t).unwrap();
        b.check_at(7, t).unwrap();
        assert!(b.check_at(7, t).is_err(), "3 from a and 2 from b use the 5");
        b.sync_at(t).await.unwrap();
        a.sync_at(t).await.unwrap();
        assert!(a.check_at(7, t).is_err(), "a sees b's counts after a sync");
        let stored: i64 =
            crate::sql::query_scalar("SELECT CAST(SUM(count) AS BIGINT) FROM rate_limit_counts")
                .fetch_one(&pool)
                .await
                .unwrap();
        assert_eq!(stored, 5);
        // A later window starts afresh, and ended windows are removed.
        let later = t + 2 * 120;
        b.sync_at(later).await.unwrap();
        assert!(b.check_at(7, later).is_ok());
        b.sync_at(later).await.unwrap();
        let windows: i64 = crate::sql::query_scalar("SELECT count(*) FROM rate_limit_counts")
            .fetch_one(&pool)
            .await
            .unwrap();
        assert_eq!(windows, 1, "only the current window's row is left");
    }
}
