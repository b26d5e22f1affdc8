//! Validation of creation bodies, shared by the form (errors shown at the field) and the
//! server (422 with the same paths). Paths look like `title`, `items[2].unit_price`.

use crate::error::messages;
use crate::error::{push_error, FieldErrors, Message};
use crate::invoice_input::{NewInvoice, NewInvoiceItem};
use crate::offer::{NewOffer, NewOfferItem};
use crate::position::PositionType;
use crate::position_vat::{check_position_vat, PositionVatInput};
use crate::status::InvoiceStatus;
use crate::totals::PositionAmounts;
use crate::vat::VatChoice;
use chrono::NaiveDate;

pub use crate::master_data::{validate_company, validate_deal, validate_person, validate_project};
use rust_decimal::Decimal;

pub use crate::limits::{
    check_price, check_quantity, check_range, percent, price_places, EXTRA_PRICE_PLACES,
    MAX_AMOUNT, MAX_HOURS, MAX_LINE, MAX_POSITIONS, MAX_QUANTITY, MAX_TEXT, QUANTITY_PLACES,
};

/// Checks a computed amount (a position's or the document's total) against
/// [`MAX_AMOUNT`], naming `field`.
fn check_total(errors: &mut FieldErrors, field: &str, value: Decimal, what: &str) {
    if value.abs() >= MAX_AMOUNT {
        push_error(
            errors,
            field,
            crate::error::messages::N_MUST_BE_BETWEEN_N_AND_N_EXCLUSIVE.with([
                what.to_string(),
                format!("-{MAX_AMOUNT}"),
                MAX_AMOUNT.to_string(),
            ]),
        );
    }
}

fn text(errors: &mut FieldErrors, field: &str, value: Option<&String>, required: bool, max: usize) {
    match value {
        None => {
            if required {
                push_error(errors, field, messages::IS_REQUIRED);
            }
        }
        Some(v) if required && v.trim().is_empty() => {
            push_error(errors, field, messages::MUST_NOT_BE_EMPTY)
        }
        Some(v) if v.chars().count() > max => push_error(
            errors,
            field,
            messages::MUST_BE_AT_MOST_N_CHARACTERS.with([max]),
        ),
        Some(_) => {}
    }
}

/// The header fields invoices and offers share, borrowed from a creation body.
struct DocumentFields<'a> {
    recipient_address: Option<&'a String>,
    title: Option<&'a String>,
    date: Option<NaiveDate>,
    due_date: Option<NaiveDate>,
    tax: Option<Decimal>,
    currency: Option<&'a String>,
    currency_required: bool,
    discount: Option<Decimal>,
    salutation: Option<&'a String>,
    footer: Option<&'a String>,
    tags: Option<&'a Vec<String>>,
}

/// The [`DocumentFields`] of a creation body that has the shared header fields
/// (`NewInvoice`, `NewOffer`: two types, the same field names).
macro_rules! document_fields {
    ($body:expr, currency_required: $required:expr) => {
        DocumentFields {
            recipient_address: $body.recipient_address.as_ref(),
            title: $body.title.as_ref(),
            date: $body.date,
            due_date: $body.due_date,
            tax: $body.tax,
            currency: $body.currency.as_ref(),
            currency_required: $required,
            discount: $body.discount,
            salutation: $body.salutation.as_ref(),
            footer: $body.footer.as_ref(),
            tags: $body.tags.as_ref(),
        }
    };
}

/// `change_address`, when given, must be one of `allowed` (else `message`).
fn check_change_address(
    e: &mut FieldErrors,
    given: Option<&String>,
    allowed: &[&str],
    message: impl Into<Message>,
) {
    if given.is_some_and(|c| !allowed.contains(&c.as_str())) {
        push_error(e, "change_address", message);
    }
}

fn check_document(
    e: &mut FieldErrors,
    f: &DocumentFields<'_>,
    required: bool,
    currencies: &[String],
) {
    text(
        e,
        "recipient_address",
        f.recipient_address,
        required,
        MAX_TEXT,
    );
    text(e, "title", f.title, required, MAX_LINE);
    if required && f.date.is_none() {
        push_error(e, "date", messages::IS_REQUIRED);
    }
    match (f.date, f.due_date) {
        (_, None) if required => push_error(e, "due_date", messages::IS_REQUIRED),
        (Some(d), Some(due)) if due < d => {
            push_error(e, "due_date", messages::MUST_NOT_BE_BEFORE_DATE)
        }
        _ => {}
    }
    match f.tax {
        None if required => push_error(e, "tax", messages::IS_REQUIRED),
        v => percent(e, "tax", v),
    }
    percent(e, "discount", f.discount);
    match f.currency {
        None if required && f.currency_required => push_error(e, "currency", messages::IS_REQUIRED),
        Some(c) if !currencies.iter().any(|k| k == c) => push_error(
            e,
            "currency",
            messages::MUST_BE_ACCOUNT_CURRENCY_OF_N.with([currencies.join(", ")]),
        ),
        _ => {}
    }
    text(e, "salutation", f.salutation, false, MAX_TEXT);
    text(e, "footer", f.footer, false, MAX_TEXT);
    for (i, t) in f.tags.into_iter().flatten().enumerate() {
        if t.trim().is_empty() || t.contains(',') {
            push_error(
                e,
                format!("tags[{i}]"),
                messages::MUST_BE_NON_EMPTY_TAG_WITHOUT_COMMAS,
            );
        }
    }
}

/// What position validation needs from an invoice or offer position.
pub trait PositionInput {
    /// The position's amounts and type.
    fn amounts(&self) -> PositionAmounts;
    /// Title, description and unit as given.
    fn texts(&self) -> [Option<&String>; 3];
    /// Whether it lists activities or expenses to bill.
    fn bills_entries(&self) -> bool {
        false
    }
    /// The position's VAT fields (issue 10).
    fn vat_input(&self) -> PositionVatInput<'_>;
}

/// The [`PositionInput`] methods that read the fields both creation positions have
/// (`title`, `description`, `unit`, `tax`, `tax_category`, `tax_exemption_reason`).
macro_rules! shared_position_fields {
    () => {
        fn texts(&self) -> [Option<&String>; 3] {
            [
                self.title.as_ref(),
                self.description.as_ref(),
                self.unit.as_ref(),
            ]
        }
        fn vat_input(&self) -> PositionVatInput<'_> {
            PositionVatInput {
                tax: self.tax,
                tax_category: self.tax_category,
                tax_exemption_reason: self.tax_exemption_reason.as_deref(),
            }
        }
    };
}

impl PositionInput for NewInvoiceItem {
    shared_position_fields!();
    fn amounts(&self) -> PositionAmounts {
        NewInvoiceItem::amounts(self)
    }
    fn bills_entries(&self) -> bool {
        self.activity_ids.as_ref().is_some_and(|v| !v.is_empty())
            || self.expense_ids.as_ref().is_some_and(|v| !v.is_empty())
    }
}

impl PositionInput for NewOfferItem {
    shared_position_fields!();
    fn amounts(&self) -> PositionAmounts {
        NewOfferItem::amounts(self)
    }
}

/// The totals of an invoice's or offer's input positions `items` with `discount` (percent;
/// absent = none) under the document's VAT `document`, in `currency`
/// ([`crate::totals::compute_document_totals`]). Errors: the [`crate::totals::TotalsError`]
/// naming the field whose value does not fit.
pub fn position_input_totals<T: PositionInput>(
    items: &[T],
    discount: Option<Decimal>,
    document: &VatChoice,
    currency: &str,
) -> Result<crate::totals::DocumentTotals, crate::totals::TotalsError> {
    let amounts: Vec<PositionAmounts> = items.iter().map(PositionInput::amounts).collect();
    crate::totals::compute_document_totals(
        &amounts,
        discount.unwrap_or_default(),
        document,
        currency,
    )
}

fn check_positions<T: PositionInput>(
    e: &mut FieldErrors,
    items: Option<&Vec<T>>,
    required: bool,
    currency: &str,
) {
    match items {
        None if required => push_error(e, "items", messages::IS_REQUIRED),
        Some(items)
            if required
                && !items
                    .iter()
                    .any(|i| i.amounts().kind == Some(PositionType::Item)) =>
        {
            push_error(
                e,
                "items",
                messages::MUST_CONTAIN_AT_LEAST_ONE_ITEM_POSITION,
            )
        }
        Some(items) if items.len() > MAX_POSITIONS => push_error(
            e,
            "items",
            messages::MUST_HOLD_AT_MOST_N_POSITIONS.with([MAX_POSITIONS]),
        ),
        _ => {}
    }
    for (i, item) in items.into_iter().flatten().enumerate() {
        let p = |f: &str| format!("items[{i}].{f}");
        let a = item.amounts();
        let Some(kind) = a.kind else {
            push_error(e, p("type"), messages::IS_REQUIRED);
            continue;
        };
        let [title, description, unit] = item.texts();
        let needs_title = matches!(kind, PositionType::Item | PositionType::Title);
        text(e, &p("title"), title, needs_title, MAX_LINE);
        text(e, &p("description"), description, false, MAX_TEXT);
        text(e, &p("unit"), unit, false, MAX_LINE);
        if kind == PositionType::Item {
            check_quantity(e, &p("quantity"), a.quantity);
            check_price(e, &p("unit_price"), a.unit_price, currency);
            if a.quantity.is_none() && a.unit_price.is_none() {
                check_price(e, &p("net_total"), a.net_total, currency);
            }
            match (a.quantity, a.unit_price, a.net_total) {
                (Some(_), Some(_), _) | (None, None, Some(_)) => {}
                (Some(_), None, _) => {
                    push_error(e, p("unit_price"), messages::IS_REQUIRED_WITH_QUANTITY)
                }
                (None, Some(_), _) => {
                    push_error(e, p("quantity"), messages::IS_REQUIRED_WITH_UNIT_PRICE)
                }
                (None, None, None) => {
                    push_error(e, p("unit_price"), messages::GIVE_QUANTITY_AND_UNIT_PRICE)
                }
            }
        }
        if item.bills_entries() && (kind != PositionType::Item || a.quantity.is_none()) {
            push_error(
                e,
                p("activity_ids"),
                messages::ONLY_PRICED_ITEMS_BILL_ACTIVITIES,
            );
        }
    }
}

/// Checks the VAT fields of every `item` position against the document's VAT `document`
/// (tax in percent and the two flags as resolved; issue 10 contract § Per-position VAT,
/// [`crate::position_vat::check_position_vat`]). Returns the errors, keyed
/// `items[i].tax` / `items[i].tax_exemption_reason`.
pub fn validate_position_vat<T: PositionInput>(
    items: Option<&Vec<T>>,
    document: &VatChoice,
) -> FieldErrors {
    let mut e = FieldErrors::new();
    for (i, item) in items.into_iter().flatten().enumerate() {
        check_position_vat(&mut e, i, item.amounts().kind, &item.vat_input(), document);
    }
    e
}

/// The document VAT a body states by itself: its tax (0 when absent, or with reverse
/// charge) and the flags it gives (absent → false). The server checks again with the
/// customer's flags once it has resolved them.
fn body_vat(tax: Option<Decimal>, vat: Option<&crate::invoice_input::VatInput>) -> VatChoice {
    crate::vat::resolve_vat(tax, vat, None)
}

/// The positions of an invoice or offer body with the header `fields`: the position rules
/// ([`check_positions`], `items` required unless `required` is false), each position's
/// VAT against the document's (`fields.tax` with the flags of `vat`; added only for fields
/// without an error yet) and the totals' range ([`check_document_totals`]), amounts in the
/// body's currency ([`body_currency`] of `currencies`).
fn check_document_positions<T: PositionInput>(
    e: &mut FieldErrors,
    fields: &DocumentFields<'_>,
    items: Option<&Vec<T>>,
    vat: Option<&crate::invoice_input::VatInput>,
    required: bool,
    currencies: &[String],
) {
    let currency = body_currency(fields.currency, currencies);
    check_positions(e, items, required, currency);
    let vat = body_vat(fields.tax, vat);
    merge_new(e, validate_position_vat(items, &vat));
    check_document_totals(e, items, fields.discount, fields.tax, currency);
}

/// Adds the errors of `more` for fields `errors` has none for yet.
fn merge_new(errors: &mut FieldErrors, more: FieldErrors) {
    for (field, messages) in more {
        errors.entry(field).or_insert(messages);
    }
}

/// The currency whose minor unit the amounts of a body are checked against: the given
/// one, else the account's first (its default), else EUR's two places.
fn body_currency<'a>(given: Option<&'a String>, currencies: &'a [String]) -> &'a str {
    given
        .or(currencies.first())
        .map(String::as_str)
        .unwrap_or("EUR")
}

/// Once every position amount is in range: each position's net total and the document's
/// net and gross totals must be below [`MAX_AMOUNT`] too (an item's product is named on
/// `items[i].unit_price`, the sums on `items`); checked arithmetic, so an overflow is a
/// field error and never a panic.
fn check_document_totals<T: PositionInput>(
    e: &mut FieldErrors,
    items: Option<&Vec<T>>,
    discount: Option<Decimal>,
    tax: Option<Decimal>,
    currency: &str,
) {
    let in_range = !e
        .keys()
        .any(|k| k.starts_with("items") || k == "tax" || k == "discount");
    let Some(items) = items.filter(|_| in_range) else {
        return;
    };
    let amounts: Vec<PositionAmounts> = items.iter().map(PositionInput::amounts).collect();
    let totals = match crate::totals::compute_totals(
        &amounts,
        discount.unwrap_or_default(),
        tax.unwrap_or_default(),
        false,
        currency,
    ) {
        Ok(t) => t,
        Err(err) => return push_error(e, err.field.clone(), err.message()),
    };
    let before = e.len();
    for (i, (a, net)) in amounts.iter().zip(&totals.positions).enumerate() {
        if a.kind == Some(PositionType::Item) && a.quantity.is_some() {
            check_total(
                e,
                &format!("items[{i}].unit_price"),
                *net,
                "quantity × unit price",
            );
        }
    }
    if e.len() > before {
        return;
    }
    check_total(e, "items", totals.items_total, "the sum of the positions");
    if !e.contains_key("items") {
        check_total(e, "items", totals.gross_total, "the gross total");
    }
}

/// Checks an invoice creation body against interface.md § POST /invoices and the totals
/// rules. `currencies` are the account's valid currency codes. Returns every problem found
/// (an empty map means valid). Existence of referenced records (customer, project, user)
/// is checked by the server.
///
/// Drafts (`status: "draft"`) need only a customer; everything given must still be well
/// formed. `buyer_reference` is at most 200 characters (issue 10).
pub fn validate_new_invoice(body: &NewInvoice, currencies: &[String]) -> FieldErrors {
    let mut e = FieldErrors::new();
    let required = body.status != Some(InvoiceStatus::Draft);
    if body.customer_id.is_none() {
        push_error(&mut e, "customer_id", messages::IS_REQUIRED);
    }
    let fields = document_fields!(body, currency_required: true);
    check_document(&mut e, &fields, required, currencies);
    percent(&mut e, "cash_discount", body.cash_discount);
    if body.cash_discount_days.is_some_and(|d| d < 0) {
        push_error(&mut e, "cash_discount_days", messages::MUST_NOT_BE_NEGATIVE);
    }
    match (body.service_period_from, body.service_period_to) {
        (Some(_), None) => push_error(
            &mut e,
            "service_period_to",
            messages::IS_REQUIRED_WITH_SERVICE_PERIOD_FROM,
        ),
        (None, Some(_)) => push_error(
            &mut e,
            "service_period_from",
            messages::IS_REQUIRED_WITH_SERVICE_PERIOD_TO,
        ),
        (Some(from), Some(to)) if to < from => push_error(
            &mut e,
            "service_period_to",
            messages::MUST_NOT_BE_BEFORE_SERVICE_PERIOD_FROM,
        ),
        _ => {}
    }
    if let Some(s) = body.status {
        if !matches!(s, InvoiceStatus::Created | InvoiceStatus::Draft) {
            push_error(&mut e, "status", messages::MUST_BE_CREATED_OR_DRAFT);
        }
    }
    check_change_address(
        &mut e,
        body.change_address.as_ref(),
        &["invoice", "project", "customer"],
        messages::MUST_BE_INVOICE_PROJECT_OR_CUSTOMER,
    );
    crate::sepa::check_einvoice_fields(
        &mut e,
        &crate::sepa::EinvoiceTexts {
            buyer_reference: body.buyer_reference.as_deref(),
            ..Default::default()
        },
    );
    let items = body.items.as_ref();
    check_document_positions(
        &mut e,
        &fields,
        items,
        body.vat.as_ref(),
        required,
        currencies,
    );
    check_down_payment_ids(&mut e, body, required);
    e
}

/// `down_payment_invoice_ids` (issue 33): only a final invoice names them; a finalized
/// one names 1–100, each once ([`crate::down_payment::MAX_DEDUCTIONS`]).
fn check_down_payment_ids(e: &mut FieldErrors, body: &NewInvoice, required: bool) {
    use crate::down_payment::{InvoiceKind, MAX_DEDUCTIONS};
    let field = "down_payment_invoice_ids";
    let ids = body.down_payment_invoice_ids.as_deref().unwrap_or_default();
    if body.kind != Some(InvoiceKind::Final) {
        if !ids.is_empty() {
            push_error(e, field, messages::ONLY_FINAL_DEDUCTS);
        }
        return;
    }
    if ids.is_empty() && required {
        push_error(e, field, messages::IS_REQUIRED);
    } else if ids.len() > MAX_DEDUCTIONS {
        push_error(
            e,
            field,
            messages::MUST_BE_BETWEEN_N_AND_N.with([1, MAX_DEDUCTIONS]),
        );
    } else {
        for (i, id) in ids.iter().enumerate() {
            if ids[..i].contains(id) {
                push_error(e, format!("{field}[{i}]"), messages::NAMED_TWICE);
            }
        }
    }
}

/// Checks an offer creation body (interface.md § POST /offers; `decisions.md`
/// § Representations): at least one of company, deal and project; the shared header and
/// position rules; `currency` optional but one of the account's when given;
/// `change_address` `offer` or `customer`. References are checked by the server.
pub fn validate_new_offer(body: &NewOffer, currencies: &[String]) -> FieldErrors {
    let mut e = FieldErrors::new();
    if body.company_id.is_none() && body.deal_id.is_none() && body.project_id.is_none() {
        push_error(&mut e, "company_id", messages::GIVE_COMPANY_DEAL_OR_PROJECT);
    }
    let fields = document_fields!(body, currency_required: false);
    check_document(&mut e, &fields, true, currencies);
    check_change_address(
        &mut e,
        body.change_address.as_ref(),
        &["offer", "customer"],
        messages::MUST_BE_OFFER_OR_CUSTOMER,
    );
    let items = body.items.as_ref();
    check_document_positions(&mut e, &fields, items, body.vat.as_ref(), true, currencies);
    e
}

mod purchases;

pub use purchases::*;

#[cfg(test)]
mod tests;
