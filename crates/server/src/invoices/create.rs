//! POST /invoices (create, or create a draft) and PUT /invoices/{id} (edit a draft, and
//! with `status: created` finalize it in the same request): validation with the shared
//! model, references checked, rich text sanitized, totals computed with
//! `kontor_model::totals`; [`super::write`] stores everything in one transaction.

use super::repo;
use super::write::{self, Prepared};
use crate::access::auth::Caller;
use crate::events::{self, Subject};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::IdPath;
use crate::http::write_request::{Write, WriteTo};
use crate::input::sanitize;
use crate::state::AppState;
use crate::store::db::{Dec, Word};
use crate::store::files::BaseUrl;
use axum::Json;
use kontor_model::credit_note::{check_credit_limit, credit_refusal};
use kontor_model::down_payment::{DeductedDownPayment, InvoiceKind};
use kontor_model::error::messages;
use kontor_model::error::push_error;
use kontor_model::event::{
    to_data, CopiedData, CreatedData, CreditedData, EventKind, ReversedData,
};
use kontor_model::invoice::Invoice;
use kontor_model::invoice_input::NewInvoice;
use kontor_model::status::InvoiceStatus;
use kontor_model::validation::{validate_new_invoice, validate_position_vat};
use kontor_model::vat::resolve_vat;
use serde_json::json;

async fn prepare(
    state: &AppState,
    caller: &Caller,
    mut body: NewInvoice,
    editing: Option<i64>,
) -> ApiResult<Prepared> {
    let currencies = crate::account::currencies(&state.pool).await?;
    let customer = match body.customer_id {
        Some(id) => crate::master_data::companies::find(&state.pool, id).await?,
        None => None,
    };
    // What a new invoice's body leaves out comes from the customer: discount, Skonto,
    // payment term (issue 29 — however the invoice is made). An edited draft keeps what
    // the form sends (an emptied field stays empty).
    if let Some(c) = customer.as_ref().filter(|_| editing.is_none()) {
        body.apply_customer_defaults(&c.invoice_defaults());
    }
    let mut errors = validate_new_invoice(&body, &currencies);
    if body.customer_id.is_some() && customer.is_none() {
        push_error(&mut errors, "customer_id", messages::DOES_NOT_EXIST);
    }
    if let Some(project_id) = body.project_id {
        match crate::master_data::projects::find(&state.pool, project_id).await? {
            None => push_error(&mut errors, "project_id", messages::DOES_NOT_EXIST),
            Some(p)
                if body.customer_id.is_some()
                    && p.customer.as_ref().map(|c| c.id) != body.customer_id =>
            {
                push_error(
                    &mut errors,
                    "project_id",
                    messages::BELONGS_TO_ANOTHER_CUSTOMER,
                )
            }
            _ => {}
        }
    }
    if let Some(user_id) = body.internal_contact_id {
        if crate::users::load(&state.pool, user_id).await.is_err() {
            push_error(&mut errors, "internal_contact_id", messages::DOES_NOT_EXIST);
        }
    }
    if let Some(offer_id) = body.offer_id.filter(|_| editing.is_none()) {
        match crate::offers::repo::company_of(&state.pool, offer_id).await? {
            None => push_error(&mut errors, "offer_id", messages::DOES_NOT_EXIST),
            Some(company) if body.customer_id.is_some() && company != body.customer_id => {
                push_error(
                    &mut errors,
                    "offer_id",
                    messages::IS_ANOTHER_CUSTOMERS_OFFER,
                )
            }
            _ => {}
        }
    }
    if let Some(customer_id) = body.customer_id.filter(|_| customer.is_some()) {
        crate::billable::billing::check(&state.pool, &body, customer_id, editing, &mut errors)
            .await?;
    }
    ApiError::check(errors)?;
    let customer = customer.ok_or_else(|| ApiError::Internal("customer vanished".into()))?;

    let draft = body.status == Some(InvoiceStatus::Draft);
    let document = resolve_vat(body.tax, body.vat.as_ref(), Some(&customer.customer_vat));
    // The body was checked against its own VAT flags; the customer's may derive other
    // position categories (reverse charge, intra-EU).
    ApiError::check(validate_position_vat(body.items.as_ref(), &document))?;
    super::unsaved::fill_default_texts(state, &mut body, customer.language).await?;
    body.salutation = sanitize::html_opt(body.salutation.as_deref());
    body.footer = sanitize::html_opt(body.footer.as_deref());
    for item in body.items.iter_mut().flatten() {
        item.description = sanitize::html_opt(item.description.as_deref());
    }
    // The one constructor of the invoice-to-be (issue 30), as the preview and the
    // e-invoice check build it: currency, dates, recipient address, VAT and totals.
    let default_currency = currencies.first().cloned().unwrap_or_default();
    let invoice = super::unsaved::unsaved(body.clone(), default_currency, Some(&customer))?;
    // A final invoice deducts its down payments with their own figures (issue 33),
    // never more than it bills per VAT rate; they are claimed in the write transaction.
    let kind = body.kind.unwrap_or_default();
    let deductions = match body.down_payment_invoice_ids.as_deref() {
        Some(ids) if kind == InvoiceKind::Final && !ids.is_empty() => {
            let deductions = super::down_payments::resolve(
                &state.pool,
                ids,
                customer.id,
                &invoice.currency,
                editing,
            )
            .await?;
            super::down_payments::check_fits(&invoice.tax_breakdown, &deductions)?;
            deductions
        }
        _ => Vec::new(),
    };
    Ok(Prepared {
        kind,
        deductions,
        draft,
        user_id: body.internal_contact_id.unwrap_or(caller.user_id),
        date: invoice.date,
        due_date: invoice.due_date,
        recipient_address: invoice.recipient_address,
        currency: invoice.currency,
        tax: invoice.vat.tax,
        reverse_charge: invoice.vat.reverse_charge,
        intra_eu: invoice.vat.intra_eu,
        net_total: invoice.net_total,
        gross_total: invoice.gross_total,
        tax_breakdown: invoice.tax_breakdown,
        item_totals: invoice
            .items
            .unwrap_or_default()
            .into_iter()
            .map(|i| i.net_total)
            .collect(),
        body,
    })
}

/// Creates an invoice (or a draft) from `body` on behalf of `caller`.
/// Errors: 422 naming invalid fields or unknown references.
pub async fn create_invoice(
    state: &AppState,
    caller: &Caller,
    body: NewInvoice,
) -> ApiResult<Invoice> {
    create_linked(state, caller, body, None, CreatedData::default()).await
}

/// [`create_invoice`] with the origin recorded on its `created` event (`copy_of`,
/// `recurring_invoice_id`); with `copy_of` the source gets its `copied` event in the same
/// transaction. Errors: as [`create_invoice`].
pub async fn create_invoice_from(
    state: &AppState,
    caller: &Caller,
    body: NewInvoice,
    origin: CreatedData,
) -> ApiResult<Invoice> {
    create_linked(state, caller, body, None, origin).await
}

/// Records the timeline of a new invoice (`id` and the number `write::insert` gave it) in
/// `tx` (`docs/decisions.md` § Timeline (issue 11)): `created` with `origin` (plus the
/// offer or reversed invoice it came from), `finalized` with its number unless it is a
/// draft, `copied` on a copy's source and `reversed` on a reversed invoice. Errors:
/// database failures.
async fn record_creation(
    tx: &mut crate::sql::Tx,
    user_id: Option<i64>,
    (id, identifier): (i64, Option<String>),
    mut origin: CreatedData,
    offer_id: Option<i64>,
    reversal_of: Option<i64>,
) -> ApiResult<()> {
    origin.offer_id = origin.offer_id.or(offer_id);
    origin.reversal_of = origin.reversal_of.or(reversal_of);
    let copy_of = origin.copy_of;
    // One statement for all of them (issue 35), oldest first as before.
    let mut all = vec![(Subject::Invoice(id), EventKind::Created, to_data(&origin))];
    if let Some(identifier) = identifier {
        let data = to_data(&kontor_model::event::FinalizedData { identifier });
        all.push((Subject::Invoice(id), EventKind::Finalized, data));
    }
    if let Some(source) = copy_of {
        let data = to_data(&CopiedData { copy_id: id });
        all.push((Subject::Invoice(source), EventKind::Copied, data));
    }
    if let Some(original) = reversal_of {
        let data = to_data(&ReversedData {
            reversal_invoice_id: id,
        });
        all.push((Subject::Invoice(original), EventKind::Reversed, data));
    }
    events::record_all_as(tx, user_id, &all).await?;
    Ok(())
}

/// Creates an invoice; with `reversal_of` it is the reversal of that invoice, and both are
/// linked in the same transaction, with the timeline events ([`record_creation`]). The
/// caller holds no lock.
pub(super) async fn create_linked(
    state: &AppState,
    caller: &Caller,
    body: NewInvoice,
    reversal_of: Option<i64>,
    origin: CreatedData,
) -> ApiResult<Invoice> {
    let mut p = prepare(state, caller, body, None).await?;
    // A plain creation writes only new rows (and takes its number inside its
    // transaction): with the group commit it takes its turn in the group without the
    // process's write lock, so creations at once share commits (issue 35). A reversal, a
    // billed offer or deducted down payments change existing rows: those hold the lock.
    let plain = reversal_of.is_none() && p.body.offer_id.is_none() && p.deductions.is_empty();
    let guard = if plain && state.pool.has_write_group() {
        None
    } else {
        Some(state.write_lock.lock().await)
    };
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    if let Some(original) = reversal_of {
        type Original = (bool, Word<InvoiceKind>, String, Option<i64>);
        let row: Option<Original> = crate::sql::query_as(
            "SELECT reversed, kind, deducted_down_payments, final_invoice_id FROM invoices \
             WHERE id = $1 AND deleted_at IS NULL",
        )
        .bind(original)
        .fetch_optional(&mut tx)
        .await?;
        let Some((false, Word(kind), deducted, deducted_by)) = row else {
            return Err(ApiError::Refused(
                kontor_model::error::messages::INVOICE_ALREADY_REVERSED.into(),
            ));
        };
        // A deducted down payment stays until its final invoice is reversed (issue 33).
        if deducted_by.is_some() {
            return Err(ApiError::Refused(messages::DEDUCTED_NOT_REVERSIBLE.into()));
        }
        // The reversal of a final invoice negates its deductions too and frees them.
        let deductions: Vec<DeductedDownPayment> =
            serde_json::from_str(&deducted).unwrap_or_default();
        p.kind = kind;
        p.deductions = deductions
            .iter()
            .map(DeductedDownPayment::negated)
            .collect();
        super::down_payments::release(&mut tx, original).await?;
    }
    let link = reversal_of.map_or(write::Link::None, write::Link::ReversalOf);
    let (id, identifier) = write::insert(&mut tx, &p, link).await?;
    if reversal_of.is_none() {
        super::down_payments::claim(&mut tx, id, &p.deductions).await?;
    }
    if let Some(offer_id) = p.body.offer_id {
        crate::offers::repo::apply_billing(&mut tx, offer_id).await?;
    }
    record_creation(
        &mut tx,
        Some(caller.user_id),
        (id, identifier),
        origin,
        p.body.offer_id,
        reversal_of,
    )
    .await?;
    tx.commit().await?;
    // The answer is read after the lock is given back: the next writer need not wait for
    // it (issue 35).
    drop(guard);
    repo::load(&state.pool, id).await
}

/// Creates the credit note `body` for invoice `credited` (issue 33) in one transaction
/// under the write lock: the invoice is read again there, so two credit notes at once
/// never credit more than its gross; the credit note is numbered in its own series, the
/// invoice's `credited_total` grows by the credited gross and its status follows
/// (`paid` once payments and credit notes settle it). Errors: 404 (no such invoice), 422
/// (not creditable: a draft, a reversal, a credit note or a reversed invoice; `items`
/// when the credit is empty or exceeds what is left), 500 on database failure.
pub(super) async fn create_credit_note(
    state: &AppState,
    caller: &Caller,
    body: NewInvoice,
    credited: i64,
) -> ApiResult<Invoice> {
    let p = prepare(state, caller, body, None).await?;
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    type Original = (
        Dec,
        Dec,
        Word<InvoiceStatus>,
        bool,
        bool,
        bool,
        String,
        Dec,
        Option<i64>,
    );
    let row: Option<Original> = crate::sql::query_as(
        "SELECT gross_total, credited_total, status, reversal, reversed, credit_note, currency, \
         deducted_total, final_invoice_id FROM invoices WHERE id = $1 AND deleted_at IS NULL",
    )
    .bind(credited)
    .fetch_optional(&mut tx)
    .await?;
    let Some((
        Dec(gross),
        Dec(already),
        Word(status),
        reversal,
        reversed,
        credit_note,
        currency,
        Dec(deducted),
        deducted_by,
    )) = row
    else {
        return Err(ApiError::not_found(format!("invoice {credited}")));
    };
    if let Some(message) = credit_refusal(status, reversal, reversed, credit_note) {
        return Err(ApiError::Refused(message.into()));
    }
    // A deducted down payment is corrected through its final invoice; a final invoice is
    // credited up to its amount due (issue 33).
    if deducted_by.is_some() {
        return Err(ApiError::Refused(messages::DEDUCTED_NOT_REVERSIBLE.into()));
    }
    let gross = gross
        .checked_sub(deducted)
        .ok_or_else(|| ApiError::field("items", messages::IS_OUT_OF_RANGE))?;
    check_credit_limit(gross, already, p.gross_total, &currency)
        .map_err(|m| ApiError::field("items", m))?;
    let (id, identifier) = write::insert(&mut tx, &p, write::Link::CreditNoteFor(credited)).await?;
    let credited_total = already
        .checked_sub(p.gross_total)
        .ok_or_else(|| ApiError::field("items", messages::CREDIT_NOTE_EMPTY))?;
    crate::sql::query("UPDATE invoices SET credited_total = $1, updated_at = $2 WHERE id = $3")
        .bind(credited_total)
        .bind(crate::store::db::ts(crate::store::db::now()))
        .bind(credited)
        .execute(&mut tx)
        .await?;
    super::payments::apply_payments(&mut tx, credited).await?;
    record_creation(
        &mut tx,
        Some(caller.user_id),
        (id, identifier),
        CreatedData::default(),
        None,
        None,
    )
    .await?;
    let data = to_data(&CreditedData {
        credit_note_id: id,
        gross_total: p.gross_total,
    });
    events::record_as(
        &mut tx,
        Some(caller.user_id),
        Subject::Invoice(credited),
        EventKind::Credited,
        data,
    )
    .await?;
    tx.commit().await?;
    repo::load(&state.pool, id).await
}

/// POST /invoices → 200 with the created invoice. Errors: 415, 400, 422 naming fields.
#[utoipa::path(post, path = "/invoices", operation_id = "invoices_create", tag = "invoices",
    request_body = NewInvoice,
    responses((status = 200, description = "The created invoice (or draft)", body = Invoice)))]
pub async fn create(
    BaseUrl(base): BaseUrl,
    Write(state, caller, body): Write<NewInvoice>,
) -> ApiResult<Json<Invoice>> {
    super::einvoice::finalize_gate_of_body(&state, &body, super::unsaved::CustomerTerms::Apply)
        .await?;
    let mut invoice = create_invoice(&state, &caller, body).await?;
    repo::sign(&state, &base, &mut invoice);
    Ok(Json(invoice))
}

/// PUT /invoices/{id} → replaces a draft with the creation body (`status: created`
/// finalizes it and assigns the number). Errors: 404; 422 when the invoice is not a draft
/// or a field is invalid.
#[utoipa::path(put, path = "/invoices/{id}", operation_id = "invoices_update", tag = "invoices",
    params(IdPath), request_body = NewInvoice,
    responses((status = 200, description = "The draft as replaced (numbered when finalized)", body = Invoice)))]
pub async fn update_draft(
    BaseUrl(base): BaseUrl,
    WriteTo(state, caller, id, mut body): WriteTo<NewInvoice>,
) -> ApiResult<Json<Invoice>> {
    let refused =
        || ApiError::Refused(kontor_model::error::messages::INVOICE_FINAL_NOT_EDITABLE.into());
    if repo::load_row(&state.pool, id)
        .await?
        .into_invoice(crate::lists::summary::today())
        .status
        != InvoiceStatus::Draft
    {
        return Err(refused());
    }
    body.status = Some(body.status.unwrap_or(InvoiceStatus::Draft));
    super::einvoice::finalize_gate_of_body(&state, &body, super::unsaved::CustomerTerms::Keep)
        .await?;
    let p = prepare(&state, &caller, body, Some(id)).await?;
    let _guard = state.write_lock.lock().await;
    let mut tx = crate::store::db::begin_write(&state.pool).await?;
    let status: String = crate::sql::query_scalar("SELECT status FROM invoices WHERE id = $1")
        .bind(id)
        .fetch_one(&mut tx)
        .await?;
    if status != InvoiceStatus::Draft.as_str() {
        return Err(refused());
    }
    write::replace_draft(&mut tx, id, &p).await?;
    super::down_payments::release(&mut tx, id).await?;
    super::down_payments::claim(&mut tx, id, &p.deductions).await?;
    let user = Some(caller.user_id);
    events::record_as(
        &mut tx,
        user,
        Subject::Invoice(id),
        EventKind::Updated,
        json!({}),
    )
    .await?;
    if !p.draft {
        let identifier: Option<String> =
            crate::sql::query_scalar("SELECT identifier FROM invoices WHERE id = $1")
                .bind(id)
                .fetch_one(&mut tx)
                .await?;
        events::record_finalized(&mut tx, user, id, identifier.unwrap_or_default()).await?;
    }
    tx.commit().await?;
    let mut invoice = repo::load(&state.pool, id).await?;
    repo::sign(&state, &base, &mut invoice);
    Ok(Json(invoice))
}

/// A creation body checked and resolved by [`prepare_invoice`], to be inserted by
/// [`insert_prepared`] inside a transaction of the caller's (the recurring job, which
/// claims its run row in the same transaction).
pub struct PreparedInvoice(Prepared);

/// Checks and resolves `body` exactly as POST /invoices does (the e-invoice finalize gate
/// for a final invoice, validation, references, default texts, totals) without writing.
/// Errors: 422 naming invalid fields or unknown references; 500 on database failure.
pub async fn prepare_invoice(
    state: &AppState,
    caller: &Caller,
    body: NewInvoice,
) -> ApiResult<PreparedInvoice> {
    super::einvoice::finalize_gate_of_body(state, &body, super::unsaved::CustomerTerms::Apply)
        .await?;
    Ok(PreparedInvoice(prepare(state, caller, body, None).await?))
}

/// Inserts `p` (numbered unless a draft) with its timeline events in `tx`, whose
/// connection already holds the database's write lock and whose caller holds
/// `state.write_lock`; `origin` goes on the `created` event. Returns the new invoice's id.
/// Errors: 500 on database failure (the caller's transaction then rolls back).
pub async fn insert_prepared(
    tx: &mut crate::sql::Tx,
    user_id: Option<i64>,
    p: &PreparedInvoice,
    origin: CreatedData,
) -> ApiResult<i64> {
    let (id, identifier) = write::insert(tx, &p.0, write::Link::None).await?;
    super::down_payments::claim(tx, id, &p.0.deductions).await?;
    record_creation(
        tx,
        user_id,
        (id, identifier),
        origin,
        p.0.body.offer_id,
        None,
    )
    .await?;
    Ok(id)
}
