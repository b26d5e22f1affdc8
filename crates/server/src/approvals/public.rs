//! The customer's side of online approval (issue 31 § Public endpoints): no credentials,
//! the token is the only key. Every route is rate-limited per client address
//! (`AppState::public_limiter`: 429 with `Retry-After`); an unknown, malformed or
//! deactivated token is a 404 with the usual error body.
//!
//! - `GET /customer_approvals/{token}`: what the customer may see ([`PublicApproval`]).
//! - `GET /customer_approvals/{token}/document.pdf`: the offer's PDF.
//! - `GET /customer_approvals/{token}/logo`: the account's logo.
//! - `POST /customer_approvals/{token}/sign`, `…/decline`.

use super::repo::{self, Row};
use crate::access::attempts::{address_of, PeerAddr};
use crate::events::{self, Subject};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::JsonBody;
use crate::input::uploads::{image_size_error, Kind};
use crate::state::AppState;
use crate::store::db::{now, ts};
use crate::store::storage::Area;
use axum::extract::{Path, State};
use axum::response::Response;
use axum::{Extension, Json};
use base64::Engine as _;
use kontor_model::approval::{
    signing_refusal, totals_with_options, ApprovalState, DeclineApproval, PublicApproval,
    PublicOfferItem, PublicSender, SignApproval, MAX_SIGNATURE_BYTES, SIGNATURE_DATA_URL_PREFIX,
};
use kontor_model::error::messages;
use kontor_model::event::{ApprovalData, EventKind};
use kontor_model::offer::{Offer, OfferStatus};
use kontor_model::vat::VatChoice;
use sha2::{Digest, Sha256};
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// The caller's address as a rate-limit key: negative, so it never meets an API key id in
/// the shared counts.
fn address_key(peer: Option<&PeerAddr>) -> i64 {
    let digest = Sha256::digest(address_of(peer).as_bytes());
    let mut first = [0u8; 8];
    first.copy_from_slice(&digest[..8]);
    -1 - (u64::from_be_bytes(first) >> 1) as i64
}

/// Counts one public request of the caller's address. Errors: 429 with the seconds to wait.
fn limit(state: &AppState, peer: Option<&PeerAddr>) -> ApiResult<()> {
    match &state.public_limiter {
        Some(limiter) => limiter
            .check(address_key(peer))
            .map_err(ApiError::TooManyRequests),
        None => Ok(()),
    }
}

/// The active approval of `token` after the rate limit. Errors: 429, 404.
async fn approval(
    state: &AppState,
    peer: Option<Extension<PeerAddr>>,
    token: &str,
) -> ApiResult<Row> {
    limit(state, peer.as_ref().map(|Extension(p)| p))?;
    repo::by_token(&state.pool, token).await
}

/// Why the approval's offer can no longer be signed, `None` while it can.
fn refusal(row: &Row, offer: &Offer) -> Option<kontor_model::error::Message> {
    if row.signed_at.is_some() {
        return Some(messages::OFFER_ALREADY_SIGNED.into());
    }
    signing_refusal(offer.status, offer.due_date, crate::lists::summary::today()).map(Into::into)
}

/// The customer's view of `row`'s offer.
async fn view(state: &AppState, row: &Row, token: &str) -> ApiResult<PublicApproval> {
    let offer = crate::offers::repo::load(&state.pool, row.offer_id).await?;
    let settings = crate::account::repo::load(&state.pool).await?;
    let language = match offer.company.as_ref() {
        Some(c) => crate::master_data::companies::find(&state.pool, c.id)
            .await?
            .map(|c| c.language.as_str().to_string()),
        None => None,
    }
    .unwrap_or_else(|| "de".into());
    let refused = refusal(row, &offer);
    let base = format!("/api/v1/customer_approvals/{token}");
    Ok(PublicApproval {
        account: PublicSender {
            name: settings.account.name.clone(),
            address: settings
                .account
                .address
                .lines()
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .map(str::to_string)
                .collect(),
            logo_url: settings.logo.as_ref().map(|_| format!("{base}/logo")),
        },
        identifier: offer.identifier.clone(),
        title: offer.title.clone(),
        date: offer.date,
        due_date: offer.due_date,
        recipient_address: offer.recipient_address.clone(),
        salutation: offer.salutation.clone(),
        footer: offer.footer.clone(),
        currency: offer.currency.clone(),
        tax: offer.tax,
        reverse_charge: offer.vat.reverse_charge,
        intra_eu: offer.vat.intra_eu,
        discount: offer.discount,
        print_detail_columns: offer.print_detail_columns,
        items: offer
            .items
            .iter()
            .flatten()
            .map(PublicOfferItem::of)
            .collect(),
        tax_breakdown: offer.tax_breakdown.clone(),
        net_total: offer.net_total,
        gross_total: offer.gross_total,
        language,
        state: row.state(),
        signed_at: row.signed_at.as_ref().map(|t| t.0),
        customer_full_name: row.customer_full_name.clone(),
        optional_item_ids: row.chosen(),
        signing_refusal: refused.as_ref().map(|m| m.to_string()),
        signing_refusal_code: refused.as_ref().map(|m| m.code().to_string()),
        document_url: format!("{base}/document.pdf"),
    })
}

/// GET /customer_approvals/{token} → what the customer may see. Errors: 404, 429.
#[utoipa::path(get, path = "/customer_approvals/{token}", operation_id = "customer_approvals_get", tag = "customer_approvals",
    params(("token" = String, Path, description = "The approval link's token (64 hex digits).")),
    responses((status = 200, description = "The offer as the customer sees it, and the approval's state", body = PublicApproval)))]
async fn get_one(
    State(state): State<AppState>,
    peer: Option<Extension<PeerAddr>>,
    Path(token): Path<String>,
) -> ApiResult<Json<PublicApproval>> {
    let row = approval(&state, peer, &token).await?;
    Ok(Json(view(&state, &row, &token).await?))
}

/// GET /customer_approvals/{token}/document.pdf → the offer's PDF (the white letter
/// paper); once signed, the signed PDF (the offer as accepted and its approval page).
/// Errors: 404, 429.
#[utoipa::path(get, path = "/customer_approvals/{token}/document.pdf", operation_id = "customer_approvals_document", tag = "customer_approvals",
    params(("token" = String, Path, description = "The approval link's token.")),
    responses((status = 200, description = "The offer as a PDF", content_type = "application/pdf")))]
async fn document(
    State(state): State<AppState>,
    peer: Option<Extension<PeerAddr>>,
    Path(token): Path<String>,
) -> ApiResult<Response> {
    let row = approval(&state, peer, &token).await?;
    let (bytes, name) = super::signed::signed_pdf(&state, &row).await?;
    Ok(crate::store::files::pdf_response(bytes, &name))
}

/// GET /customer_approvals/{token}/logo → the account's logo. Errors: 404 (also without a
/// logo), 429.
#[utoipa::path(get, path = "/customer_approvals/{token}/logo", operation_id = "customer_approvals_logo", tag = "customer_approvals",
    params(("token" = String, Path, description = "The approval link's token.")),
    responses((status = 200, description = "The logo (PNG or SVG)")))]
async fn logo(
    State(state): State<AppState>,
    peer: Option<Extension<PeerAddr>>,
    Path(token): Path<String>,
) -> ApiResult<Response> {
    approval(&state, peer, &token).await?;
    let settings = crate::account::repo::load(&state.pool).await?;
    let key = settings
        .logo
        .map(|l| l.key)
        .ok_or_else(|| ApiError::not_found("logo"))?;
    crate::account::logo_file(&state, &key).await
}

/// The PNG bytes of a `data:image/png;base64,…` signature. Errors: 422 on `signature` when
/// it is larger than [`MAX_SIGNATURE_BYTES`], not base64, not a PNG by content, or an
/// image whose header cannot be read or that is too large.
fn signature_png(data_url: &str) -> ApiResult<Vec<u8>> {
    let encoded = data_url
        .strip_prefix(SIGNATURE_DATA_URL_PREFIX)
        .ok_or_else(|| ApiError::field("signature", messages::MUST_BE_PNG_DATA_URL))?;
    let too_large = || {
        ApiError::field(
            "signature",
            messages::MUST_BE_AT_MOST_N_BYTES.with([MAX_SIGNATURE_BYTES]),
        )
    };
    if encoded.len() > MAX_SIGNATURE_BYTES.div_ceil(3) * 4 + 4 {
        return Err(too_large());
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(encoded.trim())
        .map_err(|_| ApiError::field("signature", messages::MUST_BE_PNG_DATA_URL))?;
    if bytes.len() > MAX_SIGNATURE_BYTES {
        return Err(too_large());
    }
    if Kind::sniff(&bytes) != Some(Kind::Png) {
        return Err(ApiError::field("signature", messages::IS_NOT_PNG));
    }
    if let Some(why) = image_size_error(&bytes) {
        return Err(ApiError::field("signature", why));
    }
    Ok(bytes)
}

/// POST /customer_approvals/{token}/sign → the offer accepted, in one transaction: the
/// signer, time and drawing recorded; the chosen optional positions taken (they count and
/// are billed from now on, the others stay optional); the offer `accepted` with its totals
/// recomputed; an `accepted_online` event on its timeline. Then, in the background, the
/// e-mails to the offer's user and the account, and to the signer with the signed PDF
/// (`super::signed`). Answers the customer's view.
/// Errors: 404, 429; 409 when already signed; 422 when the offer is billed, archived,
/// accepted or past its due date (saying why), or naming `customer_full_name`,
/// `customer_email`, `accepted_terms`, `signature`, `optional_item_ids`. Nothing is stored
/// on refusal.
#[utoipa::path(post, path = "/customer_approvals/{token}/sign", operation_id = "customer_approvals_sign", tag = "customer_approvals",
    params(("token" = String, Path, description = "The approval link's token.")),
    request_body = SignApproval,
    responses((status = 200, description = "Signed: the offer is accepted", body = PublicApproval)))]
async fn sign(
    State(state): State<AppState>,
    peer: Option<Extension<PeerAddr>>,
    Path(token): Path<String>,
    JsonBody(body): JsonBody<SignApproval>,
) -> ApiResult<Json<PublicApproval>> {
    let row = approval(&state, peer, &token).await?;
    if row.signed_at.is_some() {
        return Err(ApiError::AlreadyDone(
            messages::OFFER_ALREADY_SIGNED.en.into(),
        ));
    }
    let offer = crate::offers::repo::load(&state.pool, row.offer_id).await?;
    if let Some(why) = refusal(&row, &offer) {
        // A racing signer may have accepted the offer between the two reads: that is
        // "already signed" (409), not a refusal of the offer's state.
        let now = repo::by_token(&state.pool, &token).await?;
        if now.signed_at.is_some() {
            return Err(ApiError::AlreadyDone(
                messages::OFFER_ALREADY_SIGNED.en.into(),
            ));
        }
        return Err(ApiError::Refused(why));
    }
    let items = offer.items.clone().unwrap_or_default();
    let checked = body.check(&items).map_err(ApiError::invalid)?;
    let png = body.signature.as_deref().map(signature_png).transpose()?;
    let totals = totals_with_options(
        &items,
        &checked.optional_item_ids,
        offer.discount,
        &VatChoice {
            tax: offer.tax,
            reverse_charge: offer.vat.reverse_charge,
            intra_eu: offer.vat.intra_eu,
        },
        &offer.currency,
    )
    .map_err(|e| ApiError::field(e.field.clone(), e.message()))?;
    let _guard = state.write_lock.lock().await;
    let signature_key = match &png {
        Some(bytes) => Some(
            state
                .files
                .put_new(Area::ApprovalSignatures, "png", bytes)
                .await?,
        ),
        None => None,
    };
    let written = record_signing(
        &state,
        &row,
        &offer,
        &checked,
        &totals,
        signature_key.as_deref(),
    )
    .await;
    if let Err(e) = written {
        if let Some(key) = &signature_key {
            state.files.delete(Area::ApprovalSignatures, key).await;
        }
        return Err(e);
    }
    if let Err(e) = crate::store::db::seal_audit(&state.pool).await {
        tracing::error!("sealing audit events: {e}");
    }
    let row = repo::by_token(&state.pool, &token).await?;
    tokio::spawn(super::signed::send_after_signing(
        state.clone(),
        row.clone(),
    ));
    tokio::spawn(crate::confirmations::send_after_signing(
        state.clone(),
        row.offer_id,
        row.customer_email.clone(),
    ));
    Ok(Json(view(&state, &row, &token).await?))
}

/// The signing's one transaction (see [`sign`]). Errors: 409 when another request signed
/// first, 422 when the offer changed status meanwhile.
async fn record_signing(
    state: &AppState,
    row: &Row,
    offer: &Offer,
    checked: &kontor_model::approval::CheckedSigning,
    totals: &kontor_model::totals::DocumentTotals,
    signature_key: Option<&str>,
) -> ApiResult<()> {
    let t = ts(now());
    let chosen: Vec<i64> = checked.optional_item_ids.iter().copied().collect();
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let signed = crate::sql::query(
        "UPDATE offer_customer_approvals SET customer_full_name = $1, customer_email = $2, \
         signature_key = $3, signed_at = $4, optional_item_ids = $5, updated_at = $6 \
         WHERE id = $7 AND signed_at IS NULL AND active = TRUE",
    )
    .bind(&checked.customer_full_name)
    .bind(&checked.customer_email)
    .bind(signature_key)
    .bind(t)
    .bind(serde_json::to_string(&chosen).unwrap_or_else(|_| "[]".into()))
    .bind(t)
    .bind(row.id)
    .execute(&mut tx)
    .await?;
    if signed.rows_affected() != 1 {
        return Err(ApiError::AlreadyDone(
            messages::OFFER_ALREADY_SIGNED.en.into(),
        ));
    }
    for id in &chosen {
        crate::sql::query(
            "UPDATE offer_items SET optional = FALSE WHERE id = $1 AND offer_id = $2",
        )
        .bind(*id)
        .bind(offer.id)
        .execute(&mut tx)
        .await?;
    }
    let accepted = crate::sql::query(
        "UPDATE offers SET status = $1, net_total = $2, gross_total = $3, tax_breakdown = $4, \
         updated_at = $5 WHERE id = $6 AND status IN ($7, $8)",
    )
    .bind(OfferStatus::Accepted.as_str())
    .bind(crate::store::db::Dec(totals.net_total))
    .bind(crate::store::db::Dec(totals.gross_total))
    .bind(serde_json::to_string(&totals.tax_breakdown()).unwrap_or_else(|_| "[]".into()))
    .bind(t)
    .bind(offer.id)
    .bind(OfferStatus::Created.as_str())
    .bind(OfferStatus::Sent.as_str())
    .execute(&mut tx)
    .await?;
    if accepted.rows_affected() != 1 {
        return Err(ApiError::Refused(messages::OFFER_ALREADY_ACCEPTED.into()));
    }
    let data = ApprovalData {
        customer_full_name: checked.customer_full_name.clone(),
        optional_item_ids: chosen,
        reason: None,
    };
    events::record(
        &mut tx,
        Subject::Offer(offer.id),
        EventKind::AcceptedOnline,
        kontor_model::event::to_data(&data),
    )
    .await?;
    crate::confirmations::on_signing(&mut tx, offer.id).await?;
    tx.commit().await?;
    Ok(())
}

/// POST /customer_approvals/{token}/decline → the decline and its reason on the offer's
/// timeline (`declined_online`) and, in the background, in an e-mail to the offer's user
/// and the account; the offer stays as it is. Answers the customer's view.
/// Errors: 404, 429; 409 when already signed or declined; 422 when the offer can no
/// longer be answered, or naming `customer_full_name`, `reason`.
#[utoipa::path(post, path = "/customer_approvals/{token}/decline", operation_id = "customer_approvals_decline", tag = "customer_approvals",
    params(("token" = String, Path, description = "The approval link's token.")),
    request_body = DeclineApproval,
    responses((status = 200, description = "Declined: the offer stays as it is", body = PublicApproval)))]
async fn decline(
    State(state): State<AppState>,
    peer: Option<Extension<PeerAddr>>,
    Path(token): Path<String>,
    JsonBody(body): JsonBody<DeclineApproval>,
) -> ApiResult<Json<PublicApproval>> {
    let row = approval(&state, peer, &token).await?;
    match row.state() {
        ApprovalState::Signed => {
            return Err(ApiError::AlreadyDone(
                messages::OFFER_ALREADY_SIGNED.en.into(),
            ))
        }
        ApprovalState::Declined => {
            return Err(ApiError::AlreadyDone(
                messages::OFFER_ALREADY_DECLINED.en.into(),
            ))
        }
        ApprovalState::Open => {}
    }
    let offer = crate::offers::repo::load(&state.pool, row.offer_id).await?;
    if let Some(why) = refusal(&row, &offer) {
        return Err(ApiError::Refused(why));
    }
    let (name, reason) = body.check().map_err(ApiError::invalid)?;
    let _guard = state.write_lock.lock().await;
    let t = ts(now());
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let declined = crate::sql::query(
        "UPDATE offer_customer_approvals SET customer_full_name = $1, decline_reason = $2, \
         declined_at = $3, updated_at = $4 \
         WHERE id = $5 AND signed_at IS NULL AND declined_at IS NULL AND active = TRUE",
    )
    .bind(&name)
    .bind(&reason)
    .bind(t)
    .bind(t)
    .bind(row.id)
    .execute(&mut tx)
    .await?;
    if declined.rows_affected() != 1 {
        return Err(ApiError::AlreadyDone(
            messages::OFFER_ALREADY_DECLINED.en.into(),
        ));
    }
    let data = ApprovalData {
        customer_full_name: name,
        optional_item_ids: Vec::new(),
        reason: Some(reason),
    };
    events::record(
        &mut tx,
        Subject::Offer(offer.id),
        EventKind::DeclinedOnline,
        kontor_model::event::to_data(&data),
    )
    .await?;
    tx.commit().await?;
    if let Err(e) = crate::store::db::seal_audit(&state.pool).await {
        tracing::error!("sealing audit events: {e}");
    }
    let row = repo::by_token(&state.pool, &token).await?;
    tokio::spawn(super::signed::send_after_declining(
        state.clone(),
        row.clone(),
    ));
    Ok(Json(view(&state, &row, &token).await?))
}

/// The public routes.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(get_one))
        .routes(routes!(document))
        .routes(routes!(logo))
        .routes(routes!(sign))
        .routes(routes!(decline))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn address_keys_are_negative_and_differ() {
        let a = PeerAddr("192.0.2.1".parse().unwrap());
        let b = PeerAddr("192.0.2.2".parse().unwrap());
        assert!(address_key(Some(&a)) < 0);
        assert!(address_key(None) < 0);
        assert_ne!(address_key(Some(&a)), address_key(Some(&b)));
    }

    #[test]
    fn a_signature_must_be_a_small_png_data_url() {
        let png = {
            let mut out = Vec::new();
            image::codecs::png::PngEncoder::new(&mut out);
            let img = image::RgbaImage::new(4, 2);
            img.write_to(&mut std::io::Cursor::new(&mut out), image::ImageFormat::Png)
                .unwrap();
            out
        };
        let url = format!(
            "{SIGNATURE_DATA_URL_PREFIX}{}",
            base64::engine::general_purpose::STANDARD.encode(&png)
        );
        assert_eq!(signature_png(&url).unwrap(), png);
        let jpeg_named_png = format!(
            "{SIGNATURE_DATA_URL_PREFIX}{}",
            base64::engine::general_purpose::STANDARD.encode(b"\xFF\xD8\xFF\xE0 not a png")
        );
        assert!(signature_png(&jpeg_named_png).is_err());
        assert!(signature_png("data:image/png;base64,@@@").is_err());
        let huge = format!(
            "{SIGNATURE_DATA_URL_PREFIX}{}",
            "A".repeat(MAX_SIGNATURE_BYTES * 2)
        );
        assert!(signature_png(&huge).is_err());
    }
}
