//! The `Idempotency-Key` claim of the request being handled (issue 29 § Idempotency after a
//! crash; `docs/decisions.md` § Idempotency-Key). A leaf: [`crate::http::idempotency`] sets the
//! claim around the handler, and `db::begin_write` marks it inside every write
//! transaction the handler opens ([`mark_committing`]) — so the mark commits exactly when
//! the handler's write commits, and a retry after a crash can tell a request that wrote
//! from one that did not.

/// A claimed idempotency key: the API key's id and the header's value.
#[derive(Clone, Debug)]
pub struct Claim {
    /// The calling API key.
    pub key_id: i64,
    /// The `Idempotency-Key` header.
    pub idem_key: String,
    /// The process that claimed it (`crate::work::processes`).
    pub owner: String,
}

tokio::task_local! {
    /// The claim of the request being handled, if it carries an `Idempotency-Key`.
    pub static CLAIM: Claim;
}

/// Inside a write transaction: when the current request holds a claim, marks it
/// `committed` and remembers the last audit event before this write (`audit_from`, kept
/// from the first write transaction). Rolled back with the transaction.
///
/// Fenced: the row must still be this process's pending claim. When another process took
/// the key over meanwhile (it thought this one gone), the transaction fails instead of
/// writing a second time. Errors: the database's, or that take-over.
pub async fn mark_committing(tx: &mut crate::sql::Tx) -> Result<(), sqlx::Error> {
    let Ok(claim) = CLAIM.try_with(Claim::clone) else {
        return Ok(());
    };
    let marked = crate::sql::query(
        "UPDATE idempotency_keys SET committed = TRUE, \
         audit_from = coalesce(audit_from, (SELECT coalesce(max(id), 0) FROM audit_events)) \
         WHERE key_id = $1 AND idem_key = $2 AND owner = $3 AND state = 'pending'",
    )
    .bind(claim.key_id)
    .bind(&claim.idem_key)
    .bind(&claim.owner)
    .execute(tx)
    .await?;
    if marked.rows_affected() != 1 {
        return Err(sqlx::Error::Protocol(
            "the Idempotency-Key of this request was taken over by another process; nothing is written twice".into(),
        ));
    }
    Ok(())
}
