//! Jobs one process at a time does when several serve one database (issue 36: the inbox
//! poll): a row of `job_leases` names the process holding a job's lease and until when
//! (Unix seconds). [`acquire`] takes a free or expired lease (or renews the caller's own)
//! in one statement — an `INSERT … ON CONFLICT DO UPDATE … WHERE` both engines run
//! atomically — so two processes asking at once never both hold it. A process that dies
//! holding a lease loses it when it expires.

/// Takes the lease of job `name` for process `holder` for `seconds` from now: `true` when
/// it holds the lease afterwards (it was free, expired or already its own). Errors: the
/// database's.
pub async fn acquire(
    pool: &crate::sql::Db,
    name: &str,
    holder: &str,
    seconds: i64,
) -> Result<bool, sqlx::Error> {
    let now = chrono::Utc::now().timestamp();
    crate::sql::query(
        "INSERT INTO job_leases (name, holder, until_at) VALUES ($1, $2, $3) \
         ON CONFLICT (name) DO UPDATE SET holder = excluded.holder, until_at = excluded.until_at \
         WHERE job_leases.until_at < $4 OR job_leases.holder = excluded.holder",
    )
    .bind(name)
    .bind(holder)
    .bind(now.saturating_add(seconds))
    .bind(now)
    .execute(pool)
    .await?;
    let held: Option<String> =
        crate::sql::query_scalar("SELECT holder FROM job_leases WHERE name = $1")
            .bind(name)
            .fetch_optional(pool)
            .await?;
    Ok(held.as_deref() == Some(holder))
}

/// Gives the lease of job `name` back if `holder` holds it (another process may take it at
/// once). Errors: the database's.
pub async fn release(pool: &crate::sql::Db, name: &str, holder: &str) -> Result<(), sqlx::Error> {
    crate::sql::query("UPDATE job_leases SET until_at = 0 WHERE name = $1 AND holder = $2")
        .bind(name)
        .bind(holder)
        .execute(pool)
        .await?;
    Ok(())
}
