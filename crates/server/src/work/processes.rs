//! The server processes on one database and whether each is alive (issue 29 § Idempotency
//! after a crash): every running server ([`crate::run`]) has a random id and writes
//! `server_processes.seen_at` every [`HEARTBEAT`]; a process whose heartbeat another one
//! sees unchanged for [`STALE_AFTER`] seconds ([`Watch`]), or that has no row, is gone
//! (killed, crashed, stopped cleanly). A request it left pending can then be resolved by
//! another process, or by the same installation after a restart.

use std::time::Duration;

/// How often a running server says it is alive.
pub const HEARTBEAT: Duration = Duration::from_secs(3);
/// After how long without a heartbeat a process counts as gone (seconds).
pub const STALE_AFTER: i64 = 12;

/// A fresh process id (16 random bytes, hex).
pub fn new_id() -> String {
    hex::encode(rand::random::<[u8; 16]>())
}

fn unix_now() -> i64 {
    chrono::Utc::now().timestamp()
}

/// Records that process `id` is alive now. Errors: the database's.
pub async fn beat(pool: &crate::sql::Db, id: &str) -> Result<(), sqlx::Error> {
    crate::sql::query(
        "INSERT INTO server_processes (id, seen_at) VALUES ($1, $2) \
         ON CONFLICT (id) DO UPDATE SET seen_at = excluded.seen_at",
    )
    .bind(id)
    .bind(unix_now())
    .execute(pool)
    .await?;
    Ok(())
}

/// The last heartbeat of process `id` as it wrote it, `None` when it has none (never
/// started here, or stopped cleanly). Errors: the database's.
pub async fn heartbeat_of(pool: &crate::sql::Db, id: &str) -> Result<Option<i64>, sqlx::Error> {
    crate::sql::query_scalar("SELECT seen_at FROM server_processes WHERE id = $1")
        .bind(id)
        .fetch_optional(pool)
        .await
}

/// Watches one process's heartbeat from here: it is gone when it has no row, or when its
/// heartbeat has not changed for [`STALE_AFTER`] seconds of *this* process's clock — so
/// clocks that differ between machines do not matter.
#[derive(Debug, Default)]
pub struct Watch {
    last: Option<(Option<i64>, std::time::Instant)>,
}

impl Watch {
    /// Whether process `id` is gone, after one more look at its heartbeat. Errors: the
    /// database's.
    pub async fn is_gone(&mut self, pool: &crate::sql::Db, id: &str) -> Result<bool, sqlx::Error> {
        let beat = heartbeat_of(pool, id).await?;
        if beat.is_none() {
            return Ok(true);
        }
        let now = std::time::Instant::now();
        match self.last {
            Some((seen, since)) if seen == beat => {
                Ok(now.duration_since(since).as_secs() >= STALE_AFTER as u64)
            }
            _ => {
                self.last = Some((beat, now));
                Ok(false)
            }
        }
    }
}

/// The heartbeat task of a running server; dropping it stops it and removes the
/// process's row (a clean stop is gone at once).
pub struct Heartbeat {
    task: tokio::task::JoinHandle<()>,
    pool: crate::sql::Db,
    id: String,
}

impl Drop for Heartbeat {
    fn drop(&mut self) {
        self.task.abort();
        let (pool, id) = (self.pool.clone(), self.id.clone());
        if let Ok(runtime) = tokio::runtime::Handle::try_current() {
            runtime.spawn(async move {
                let _ = crate::sql::query("DELETE FROM server_processes WHERE id = $1")
                    .bind(&id)
                    .execute(&pool)
                    .await;
            });
        }
    }
}

/// Starts the heartbeat of process `id` (the first beat at once); old rows of processes
/// gone for a day are removed now and then.
pub fn spawn_heartbeat(pool: crate::sql::Db, id: String) -> Heartbeat {
    let (p, i) = (pool.clone(), id.clone());
    let task = tokio::spawn(async move {
        let mut every = tokio::time::interval(HEARTBEAT);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        let mut beats = 0u64;
        loop {
            every.tick().await;
            if let Err(e) = beat(&p, &i).await {
                tracing::warn!(error = %e, "process heartbeat failed");
            }
            beats += 1;
            if beats % 1000 == 1 {
                let _ = crate::sql::query("DELETE FROM server_processes WHERE seen_at < $1")
                    .bind(unix_now() - 24 * 60 * 60)
                    .execute(&p)
                    .await;
            }
        }
    });
    Heartbeat { task, pool, id }
}
