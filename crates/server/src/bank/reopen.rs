//! A bank transaction open again once nothing booked from it is left (issue 32): called
//! when a payment is deleted by hand and when a match is undone. Kept apart from the
//! booking so that the payment modules can call it without importing the booking.

use crate::http::error::ApiResult;
use crate::store::db::{now, ts};

/// After a payment from transaction `id` was deleted: when none of its payments is left,
/// the transaction is open again (`unmatched`, its suggestions gone stale and dropped).
pub async fn reopen_if_unbooked(tx: &mut crate::sql::Tx, id: i64) -> ApiResult<()> {
    let left: i64 = crate::sql::query_scalar(
        "SELECT (SELECT COUNT(*) FROM invoice_payments WHERE bank_transaction_id = $1) + \
         (SELECT COUNT(*) FROM purchase_payments WHERE bank_transaction_id = $1)",
    )
    .bind(id)
    .fetch_one(&mut *tx)
    .await?;
    if left == 0 {
        crate::sql::query(
            "UPDATE bank_transactions SET state = 'unmatched', suggestions = '[]', updated_at = $1 WHERE id = $2 AND state = 'matched'",
        )
        .bind(ts(now()))
        .bind(id)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}
