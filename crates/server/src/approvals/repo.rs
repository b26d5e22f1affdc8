//! The `offer_customer_approvals` rows (schema version 28): one per offer, found by the
//! offer or by the token's SHA-256.

use super::token;
use crate::http::error::{ApiError, ApiResult};
use crate::store::db::Ts;
use kontor_model::approval::{ApprovalState, CustomerApprovalDetail};
use kontor_model::offer::CustomerApproval;

/// The columns [`Row`] reads.
const COLUMNS: &str = "id, offer_id, token_nonce, key_fingerprint, active, customer_full_name, \
    customer_email, signature_key, signed_at, optional_item_ids, declined_at, decline_reason, \
    created_at, updated_at";

/// One approval as stored.
#[derive(sqlx_macros::FromRow, Clone, Debug)]
pub struct Row {
    /// Record id.
    pub id: i64,
    /// The offer.
    pub offer_id: i64,
    /// The token's random nonce.
    pub token_nonce: String,
    /// The fingerprint of the key the token is derived with.
    pub key_fingerprint: String,
    /// Whether the link works.
    pub active: bool,
    /// The signer's or decliner's name.
    pub customer_full_name: Option<String>,
    /// The signer's e-mail address.
    pub customer_email: Option<String>,
    /// The stored signature drawing (`approval_signatures` area).
    pub signature_key: Option<String>,
    /// When signed.
    pub signed_at: Option<Ts>,
    /// The optional positions taken (JSON array of item ids).
    pub optional_item_ids: String,
    /// When declined.
    pub declined_at: Option<Ts>,
    /// The decline's reason.
    pub decline_reason: Option<String>,
    /// Creation time.
    pub created_at: Ts,
    /// Last change.
    pub updated_at: Ts,
}

impl Row {
    /// Where the approval stands: signed, else declined, else open.
    pub fn state(&self) -> ApprovalState {
        if self.signed_at.is_some() {
            ApprovalState::Signed
        } else if self.declined_at.is_some() {
            ApprovalState::Declined
        } else {
            ApprovalState::Open
        }
    }

    /// The optional positions taken, as ids.
    pub fn chosen(&self) -> Vec<i64> {
        serde_json::from_str(&self.optional_item_ids).unwrap_or_default()
    }

    /// The approval page's address under `origin` (`{origin}/approval/{token}`).
    pub fn approval_url(&self, pool: &crate::sql::Db, origin: &str) -> ApiResult<String> {
        let token = token::recompute(pool, &self.token_nonce, &self.key_fingerprint)?;
        Ok(format!("{origin}/approval/{token}"))
    }

    /// The offer's `customer_approval`: `{id, active, url}`.
    pub fn summary(&self, pool: &crate::sql::Db, origin: &str) -> ApiResult<CustomerApproval> {
        Ok(CustomerApproval {
            id: self.id,
            active: self.active,
            url: self.approval_url(pool, origin)?,
        })
    }

    /// The staff object; `signature_url` is a signed link (15 minutes) under `origin`.
    pub fn detail(
        &self,
        state: &crate::state::AppState,
        origin: &str,
    ) -> ApiResult<CustomerApprovalDetail> {
        let token = token::recompute(&state.pool, &self.token_nonce, &self.key_fingerprint)?;
        Ok(CustomerApprovalDetail {
            id: self.id,
            approval_url: format!("{origin}/approval/{token}"),
            offer_document_url: format!("{origin}/api/v1/customer_approvals/{token}/document.pdf"),
            active: self.active,
            customer_full_name: self.customer_full_name.clone(),
            customer_email: self.customer_email.clone(),
            signature_url: self.signature_key.as_ref().map(|key| {
                state
                    .signer
                    .link(origin, &format!("/files/approval_signatures/{key}"))
            }),
            signed_at: self.signed_at.as_ref().map(|t| t.0),
            optional_item_ids: self.chosen(),
            declined_at: self.declined_at.as_ref().map(|t| t.0),
            decline_reason: self.decline_reason.clone(),
            created_at: self.created_at.0,
            updated_at: self.updated_at.0,
        })
    }
}

/// The approval of offer `offer_id`, if one was ever activated.
pub async fn of_offer<'e>(
    db: impl crate::sql::Executor<'e>,
    offer_id: i64,
) -> ApiResult<Option<Row>> {
    Ok(crate::sql::query_as(&format!(
        "SELECT {COLUMNS} FROM offer_customer_approvals WHERE offer_id = $1"
    ))
    .bind(offer_id)
    .fetch_optional(db)
    .await?)
}

/// The approvals of the offers `offer_ids` (one query; offers without one are absent).
pub async fn of_offers(pool: &crate::sql::Db, offer_ids: &[i64]) -> ApiResult<Vec<Row>> {
    if offer_ids.is_empty() {
        return Ok(Vec::new());
    }
    let mut qb = crate::sql::Builder::new(format!(
        "SELECT {COLUMNS} FROM offer_customer_approvals WHERE offer_id IN ("
    ));
    let mut ids = qb.separated(", ");
    for id in offer_ids {
        ids.push_bind(*id);
    }
    qb.push(")");
    Ok(qb.build_query_as::<Row>().fetch_all(pool).await?)
}

/// The active approval whose token is `token`. Errors: 404 for a malformed, unknown or
/// deactivated token (one answer for all, so a caller learns nothing), or an approval of a
/// deleted offer.
pub async fn by_token(pool: &crate::sql::Db, token: &str) -> ApiResult<Row> {
    let unknown = || ApiError::not_found("approval");
    if !token::well_formed(token) {
        return Err(unknown());
    }
    let row: Row = crate::sql::query_as(&format!(
        "SELECT {COLUMNS} FROM offer_customer_approvals WHERE token_hash = $1"
    ))
    .bind(token::hash(token))
    .fetch_optional(pool)
    .await?
    .ok_or_else(unknown)?;
    let expected = token::recompute(pool, &row.token_nonce, &row.key_fingerprint)?;
    if !token::same(token, &expected) || !row.active {
        return Err(unknown());
    }
    Ok(row)
}
