//! The `offer_confirmations` rows (schema version 29): at most one per offer.

use crate::http::error::{ApiError, ApiResult};
use crate::store::db::{now, ts, Ts};
use kontor_model::confirmation::{confirmation_refusal, default_title};
use kontor_model::offer::{OfferConfirmation, OfferStatus};
use kontor_model::party::Language;

/// One confirmation as stored.
#[derive(sqlx_macros::FromRow, Clone, Debug)]
struct Row {
    id: i64,
    title: String,
    created_at: Ts,
    updated_at: Ts,
}

impl From<Row> for OfferConfirmation {
    fn from(r: Row) -> Self {
        OfferConfirmation {
            id: r.id,
            title: r.title,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

/// The confirmation of offer `offer_id`, `None` when it has none.
pub async fn of_offer<'e>(
    db: impl crate::sql::Executor<'e>,
    offer_id: i64,
) -> ApiResult<Option<OfferConfirmation>> {
    let row: Option<Row> = crate::sql::query_as(
        "SELECT id, title, created_at, updated_at FROM offer_confirmations WHERE offer_id = $1",
    )
    .bind(offer_id)
    .fetch_optional(db)
    .await?;
    Ok(row.map(OfferConfirmation::from))
}

/// The correspondence language of offer `offer_id`'s company (German without one).
pub async fn customer_language(tx: &mut crate::sql::Tx, offer_id: i64) -> ApiResult<Language> {
    let code: Option<Option<String>> = crate::sql::query_scalar(
        "SELECT c.language FROM offers o LEFT JOIN companies c ON c.id = o.company_id WHERE o.id = $1",
    )
    .bind(offer_id)
    .fetch_optional(&mut *tx)
    .await?;
    Ok(code
        .flatten()
        .and_then(|c| Language::parse(&c))
        .unwrap_or_default())
}

/// Creates offer `offer_id`'s confirmation inside `tx` (the caller holds the write lock),
/// or, when it has one, keeps it and changes its title to `title` if one is given. A new
/// confirmation's title is `title`, else the default in the customer's language
/// ([`default_title`]). Returns the confirmation and whether it was created.
/// Errors: 404 for an unknown offer; 422 (`offer_not_accepted_for_confirmation`) unless
/// the offer is accepted or partially billed.
pub async fn create_or_retitle(
    tx: &mut crate::sql::Tx,
    offer_id: i64,
    title: Option<String>,
) -> ApiResult<(OfferConfirmation, bool)> {
    let found: Option<(String, String)> =
        crate::sql::query_as("SELECT identifier, status FROM offers WHERE id = $1")
            .bind(offer_id)
            .fetch_optional(&mut *tx)
            .await?;
    let (identifier, status) =
        found.ok_or_else(|| ApiError::not_found(format!("offer {offer_id}")))?;
    let status = OfferStatus::parse(&status)
        .ok_or_else(|| ApiError::Internal(format!("offer {offer_id} has status {status}")))?;
    if let Some(why) = confirmation_refusal(status) {
        return Err(ApiError::Refused(why.into()));
    }
    let t = ts(now());
    let created = match of_offer(&mut *tx, offer_id).await? {
        Some(existing) => {
            if let Some(title) = title.filter(|t| *t != existing.title) {
                crate::sql::query(
                    "UPDATE offer_confirmations SET title = $1, updated_at = $2 WHERE id = $3",
                )
                .bind(title)
                .bind(t)
                .bind(existing.id)
                .execute(&mut *tx)
                .await?;
            }
            false
        }
        None => {
            let title = match title {
                Some(title) => title,
                None => default_title(&identifier, customer_language(tx, offer_id).await?),
            };
            crate::sql::query(
                "INSERT INTO offer_confirmations (offer_id, title, created_at, updated_at) \
                 VALUES ($1, $2, $3, $4)",
            )
            .bind(offer_id)
            .bind(title)
            .bind(t)
            .bind(t)
            .execute(&mut *tx)
            .await?;
            true
        }
    };
    let confirmation = of_offer(&mut *tx, offer_id)
        .await?
        .ok_or_else(|| ApiError::Internal("the confirmation just written is gone".into()))?;
    Ok((confirmation, created))
}
