//! POST /purchases: positions with title, total, tax and tax_included give net, tax and
//! gross per `decisions.md` § Totals; numbering `E<YYMM>-<NNNN>`; an optional receipt
//! document `{filename, base64}` (PDF, PNG or JPEG by content, ≤ 10 MiB). Everything is
//! written in one transaction; a stored file of a failed creation is removed again.

use super::document::MAX_DOCUMENT;
use super::repo;
use crate::access::auth::Caller;
use crate::events::{self, Subject};
use crate::http::caller_context::CallerContext;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::{JsonBody, UPLOAD_LIMIT};
use crate::input::uploads::{decode_upload, Kind};
use crate::numbering::{next_number, PURCHASES};
use crate::sql::Arg;
use crate::state::AppState;
use crate::store::db::{now, ts};
use crate::store::storage::Area;
use axum::Json;
use kontor_model::edit::purchase_edit_refusal;
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::event::{to_data, DocumentUploadedData, EventKind};
use kontor_model::purchase::{NewPurchase, Purchase, PurchaseStatus};
use kontor_model::purchase_totals::{
    purchase_position_totals, sum_purchase_totals, PurchaseAmounts,
};
use kontor_model::validation::validate_new_purchase;
use serde_json::json;

async fn check_references(
    state: &AppState,
    body: &NewPurchase,
    e: &mut FieldErrors,
) -> ApiResult<()> {
    if let Some(c) = body.company_id {
        if crate::master_data::companies::find(&state.pool, c)
            .await?
            .is_none()
        {
            push_error(e, "company_id", messages::DOES_NOT_EXIST);
        }
    }
    if let Some(u) = body.user_id {
        if crate::users::load(&state.pool, u).await.is_err() {
            push_error(e, "user_id", messages::DOES_NOT_EXIST);
        }
    }
    let mut categories: Vec<(String, i64)> = body
        .category_id
        .map(|c| ("category_id".to_string(), c))
        .into_iter()
        .collect();
    categories.extend(
        body.items
            .iter()
            .flatten()
            .enumerate()
            .filter_map(|(i, item)| {
                item.category_id
                    .map(|c| (format!("items[{i}].category_id"), c))
            }),
    );
    for (field, id) in categories {
        let exists: Option<i64> =
            crate::sql::query_scalar("SELECT id FROM purchase_categories WHERE id = $1")
                .bind(id)
                .fetch_optional(&state.pool)
                .await?;
        if exists.is_none() {
            push_error(e, field, messages::DOES_NOT_EXIST);
        }
    }
    Ok(())
}

/// The API description of the 409 answer of POST and PUT /purchases (a second purchase of
/// the supplier with the same receipt number, [`super::duplicates`]).
const DUPLICATE_RECEIPT: &str = "The supplier already has a purchase with this receipt number and the body does not say `allow_duplicate: true`: `errors.receipt_identifier` names it, `id` and `identifier` are the existing purchase's.";

/// Create a purchase.
///
/// POST /purchases → 200 with the purchase. Errors: 415, 400, 413 (16 MiB), 422 naming
/// fields (including `file.base64` for a wrong or too large document); 409 when the
/// supplier already has a purchase with this receipt number and the body does not say
/// `allow_duplicate: true` (`duplicates`).
#[utoipa::path(post, path = "/purchases", operation_id = "purchases_create", tag = "purchases",
    request_body(content = NewPurchase, description = "The purchase; an optional document as `file: {filename, base64}` (PDF, PNG or JPEG, at most 10 MiB decoded; the body at most 16 MiB)."),
    responses((status = 200, description = "The created purchase.", body = Purchase),
        (status = 409, description = DUPLICATE_RECEIPT, body = kontor_model::error::ErrorBody)))]
pub async fn create(
    CallerContext(state, caller, base): CallerContext,
    JsonBody(body): JsonBody<NewPurchase, UPLOAD_LIMIT>,
) -> ApiResult<Json<Purchase>> {
    let id = create_purchase(&state, &caller, body).await?;
    repo::load(&state, &base, id).await.map(Json)
}

/// Creates a purchase from `body` on behalf of `caller`; returns its id.
/// Errors: 422 naming invalid fields, unknown references or a refused document.
pub async fn create_purchase(
    state: &AppState,
    caller: &Caller,
    body: NewPurchase,
) -> ApiResult<i64> {
    save_purchase(state, caller, body, None).await
}

/// Writes `body` as a new purchase, or with `existing` over that purchase (PUT
/// /purchases/{id}: same validation and totals; number kept, status kept unless the body
/// gives one, positions replaced, the document replaced only when `file` is given), in one
/// transaction. Errors: 404 for an unknown `existing`; 422 naming invalid fields, or
/// refusing an approved purchase ([`purchase_edit_refusal`]).
pub(super) async fn save_purchase(
    state: &AppState,
    caller: &Caller,
    body: NewPurchase,
    existing: Option<i64>,
) -> ApiResult<i64> {
    let state = state.clone();
    if let Some(id) = existing {
        let status: String = crate::sql::query_scalar("SELECT status FROM purchases WHERE id = $1")
            .bind(id)
            .fetch_optional(&state.pool)
            .await?
            .ok_or_else(|| ApiError::not_found(format!("purchase {id}")))?;
        check_editable(PurchaseStatus::parse(&status).unwrap_or(PurchaseStatus::Approved))?;
    }
    let mut e = validate_new_purchase(&body, &crate::account::currencies(&state.pool).await?);
    check_references(&state, &body, &mut e).await?;
    ApiError::check(e)?;
    let file = match &body.file {
        // A given `file` must carry content: `base64: ""` is a 422, never silently dropped.
        Some(f) => Some(decode_upload(
            f,
            "file",
            &[Kind::Pdf, Kind::Png, Kind::Jpeg],
            MAX_DOCUMENT,
        )?),
        _ => None,
    };
    let currency = body.currency.clone().unwrap_or_default();
    let items = body.items.clone().unwrap_or_default();
    let too_large = |field: String| ApiError::field(field, messages::AMOUNT_TOO_LARGE);
    let amounts = items
        .iter()
        .enumerate()
        .map(|(n, i)| {
            purchase_position_totals(
                i.total.unwrap_or_default(),
                i.tax.unwrap_or_default(),
                i.tax_included.unwrap_or(false),
                &currency,
            )
            .ok_or_else(|| too_large(format!("items[{n}].total")))
        })
        .collect::<ApiResult<Vec<_>>>()?;
    let sum = sum_purchase_totals(&amounts).ok_or_else(|| too_large("items".into()))?;
    let date = body.date.unwrap_or_else(|| now().date_naive());
    let mut properties = body.custom_properties.clone().unwrap_or_default();
    properties.extend(body.custom_property_values.clone().unwrap_or_default());
    let title = body
        .title
        .clone()
        .filter(|t| !t.trim().is_empty())
        .or_else(|| items.first().and_then(|i| i.title.clone()))
        .unwrap_or_default();

    let stored = match &file {
        Some(f) => Some(
            state
                .files
                .put_new(Area::PurchaseDocuments, f.kind.extension(), &f.bytes)
                .await?,
        ),
        None => None,
    };
    let record = Record {
        date,
        title: &title,
        currency: &currency,
        items: &items,
        amounts: &amounts,
        sum,
        properties: &properties,
        document: stored.as_deref().zip(file.as_ref()),
    };
    let result = write(&state, caller, &body, &record, existing).await;
    match result {
        Ok((id, replaced)) => {
            if let Some(old) = replaced {
                state.files.delete(Area::PurchaseDocuments, &old).await;
            }
            Ok(id)
        }
        Err(err) => {
            if let Some(key) = stored {
                state.files.delete(Area::PurchaseDocuments, &key).await;
            }
            Err(err)
        }
    }
}

/// What a checked body resolves to before it is written.
struct Record<'a> {
    date: chrono::NaiveDate,
    title: &'a str,
    currency: &'a str,
    items: &'a [kontor_model::purchase::NewPurchaseItem],
    amounts: &'a [PurchaseAmounts],
    sum: PurchaseAmounts,
    properties: &'a std::collections::BTreeMap<String, String>,
    /// Stored document name and the checked file.
    document: Option<(&'a str, &'a crate::input::uploads::CheckedFile)>,
}

impl<'a> Record<'a> {
    /// The values of the `purchases` columns `receipt_identifier, title, info, iban,
    /// reference, date, due_date, service_period_from, service_period_to, status,
    /// payment_method, net_total, gross_total, currency, category_id, company_id, user_id,
    /// document_key, document_type, document_name, custom_properties, tags`, in that order
    /// (22 placeholders), for `body` resolved to this record; `status` and `user_id` are
    /// bound as given. The IBAN is stored without spaces in capitals; without a document
    /// its three columns are NULL.
    fn columns(
        &self,
        body: &'a NewPurchase,
        status: Option<&'a str>,
        user_id: Option<i64>,
    ) -> Vec<Arg<'a>> {
        let document_key = self.document.map(|(k, _)| k);
        let file = self.document.map(|(_, f)| f);
        let iban = body.iban.as_deref().map(|i| {
            i.split_whitespace()
                .collect::<String>()
                .to_ascii_uppercase()
        });
        vec![
            body.receipt_identifier
                .as_deref()
                .unwrap_or("")
                .trim()
                .into(),
            self.title.trim().into(),
            body.info.as_deref().into(),
            iban.unwrap_or_default().into(),
            body.reference.as_deref().into(),
            self.date.into(),
            body.due_date.into(),
            body.service_period_from.into(),
            body.service_period_to.into(),
            status.into(),
            body.payment_method.map(|m| m.as_str()).into(),
            self.sum.net_total.into(),
            self.sum.gross_total.into(),
            self.currency.into(),
            body.category_id.into(),
            body.company_id.into(),
            user_id.into(),
            document_key.into(),
            file.map(|f| f.kind.content_type()).into(),
            file.map(|f| f.filename.clone()).into(),
            serde_json::to_string(self.properties)
                .unwrap_or_default()
                .into(),
            serde_json::to_string(&body.tags.clone().unwrap_or_default())
                .unwrap_or_default()
                .into(),
        ]
    }
}

async fn write(
    state: &AppState,
    caller: &Caller,
    body: &NewPurchase,
    r: &Record<'_>,
    existing: Option<i64>,
) -> ApiResult<(i64, Option<String>)> {
    let (date, items, amounts) = (r.date, r.items, r.amounts);
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    if body.allow_duplicate != Some(true) {
        let receipt = body.receipt_identifier.as_deref();
        if let Some((id, number)) =
            super::duplicates::find(&mut tx, body.company_id, receipt, existing).await?
        {
            return Err(super::duplicates::receipt_conflict(id, number));
        }
    }
    let t = ts(now());
    let mut replaced = None;
    let id: i64 = if let Some(id) = existing {
        let (status, old_key, check): (String, Option<String>, Option<String>) =
            crate::sql::query_as(
                "SELECT status, document_key, einvoice_check FROM purchases WHERE id = $1",
            )
            .bind(id)
            .fetch_one(&mut tx)
            .await?;
        check_editable(PurchaseStatus::parse(&status).unwrap_or(PurchaseStatus::Approved))?;
        if body.status == Some(PurchaseStatus::Approved) {
            // An e-invoice with a formal or content defect is approved only through
            // update_status with an admin's override reason (issue 36).
            super::status::approval_gate(check.as_deref(), None, false)?;
        }
        if r.document.is_some() {
            replaced = old_key;
        }
        crate::sql::query("UPDATE purchases SET receipt_identifier = $1, title = $2, info = $3, iban = $4, reference = $5, date = $6, due_date = $7, service_period_from = $8, service_period_to = $9, status = COALESCE($10, status),
            payment_method = $11, net_total = $12, gross_total = $13, currency = $14, category_id = $15, company_id = $16, user_id = COALESCE($17, user_id),
            document_key = COALESCE($18, document_key), document_type = COALESCE($19, document_type), document_name = COALESCE($20, document_name), custom_properties = $21, tags = $22, updated_at = $23 WHERE id = $24")
            .bind_all(r.columns(body, body.status.map(|s| s.as_str()), body.user_id))
            .bind(t)
            .bind(id)
            .execute(&mut tx)
            .await?;
        crate::sql::query("DELETE FROM purchase_items WHERE purchase_id = $1")
            .bind(id)
            .execute(&mut tx)
            .await?;
        id
    } else {
        let identifier = next_number(&mut tx, PURCHASES, date).await?;
        let status = body.status.unwrap_or(PurchaseStatus::Pending).as_str();
        let user_id = body.user_id.unwrap_or(caller.user_id);
        crate::sql::query_scalar(
            "INSERT INTO purchases (identifier, receipt_identifier, title, info, iban, reference, date, due_date, service_period_from, service_period_to, status,
            payment_method, net_total, gross_total, currency, category_id, company_id, user_id, document_key, document_type, document_name, custom_properties, tags, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22, $23, $24, $25) RETURNING id",
        )
        .bind(&identifier)
        .bind_all(r.columns(body, Some(status), Some(user_id)))
        .bind(t)
        .bind(t)
        .fetch_one(&mut tx)
        .await?
    };
    for (n, (item, a)) in items.iter().zip(amounts).enumerate() {
        crate::sql::query("INSERT INTO purchase_items (purchase_id, position, title, net_total, tax_total, gross_total, tax, tax_included, category_id) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)")
            .bind(id)
            .bind(n as i64)
            .bind(item.title.as_deref().unwrap_or("").trim())
            .bind(a.net_total)
            .bind(a.tax_total)
            .bind(a.gross_total)
            .bind(item.tax.unwrap_or_default())
            .bind(item.tax_included.unwrap_or(false))
            .bind(item.category_id.or(body.category_id))
            .execute(&mut tx)
            .await?;
    }
    record_events(
        &mut tx,
        caller,
        body,
        id,
        existing,
        r.document.map(|(_, f)| f),
    )
    .await?;
    tx.commit().await?;
    Ok((id, replaced))
}

/// Records the timeline of a purchase write in `tx` (`docs/decisions.md` § Timeline (issue
/// 11)): `created` or `updated`, `approved` when the body approves it, `document_uploaded`
/// when it carries a document. Errors: database failures.
async fn record_events(
    tx: &mut crate::sql::Tx,
    caller: &Caller,
    body: &NewPurchase,
    id: i64,
    existing: Option<i64>,
    file: Option<&crate::input::uploads::CheckedFile>,
) -> ApiResult<()> {
    let user = Some(caller.user_id);
    let subject = Subject::Purchase(id);
    let kind = match existing {
        Some(_) => EventKind::Updated,
        None => EventKind::Created,
    };
    events::record_as(tx, user, subject, kind, json!({})).await?;
    if body.status == Some(PurchaseStatus::Approved) {
        events::record_as(tx, user, subject, EventKind::Approved, json!({})).await?;
    }
    if let Some(file) = file {
        let data = to_data(&DocumentUploadedData {
            file_name: Some(file.filename.clone()).filter(|n| !n.is_empty()),
        });
        events::record_as(tx, user, subject, EventKind::DocumentUploaded, data).await?;
    }
    Ok(())
}

/// 422 when a purchase in `status` may not be edited (`docs/decisions.md` § Edit, delete,
/// copy (issue 11)).
fn check_editable(status: PurchaseStatus) -> ApiResult<()> {
    match purchase_edit_refusal(status) {
        Some(why) => Err(ApiError::Refused(why.into())),
        None => Ok(()),
    }
}

/// Replace a purchase.
///
/// PUT /purchases/{id} with the creation body → 200 with the purchase (positions
/// replaced, totals recomputed). Errors: 404; 422 naming fields; 422 when approved; 409
/// when another purchase of the supplier has this receipt number (unless `allow_duplicate`).
#[utoipa::path(put, path = "/purchases/{id}", operation_id = "purchases_update", tag = "purchases",
    params(crate::http::extract::IdPath), request_body(content = NewPurchase, description = "The creation body; the document is replaced only when `file` is given (the body at most 16 MiB)."),
    responses((status = 200, description = "The purchase (positions replaced, totals recomputed).", body = Purchase),
        (status = 409, description = DUPLICATE_RECEIPT, body = kontor_model::error::ErrorBody)))]
pub async fn update(
    CallerContext(state, caller, base): CallerContext,
    crate::http::extract::IdPath(id): crate::http::extract::IdPath,
    JsonBody(body): JsonBody<NewPurchase, UPLOAD_LIMIT>,
) -> ApiResult<Json<Purchase>> {
    save_purchase(&state, &caller, body, Some(id)).await?;
    repo::load(&state, &base, id).await.map(Json)
}
