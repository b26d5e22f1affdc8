//! The checks of purchases, expenses and activities: amounts and totals that add up.

use super::*;
use crate::error::messages;

/// Checks a purchase creation body (interface.md § POST /purchases): date, currency (one
/// of the account's) and payment method required; at least one position, each with title,
/// total and tax (0–100 %); IBAN checksum; due date and service period order.
pub fn validate_new_purchase(
    body: &crate::purchase::NewPurchase,
    currencies: &[String],
) -> FieldErrors {
    let mut e = FieldErrors::new();
    let currency = body_currency(body.currency.as_ref(), currencies);
    if body.date.is_none() {
        push_error(&mut e, "date", messages::IS_REQUIRED);
    }
    match &body.currency {
        None => push_error(&mut e, "currency", messages::IS_REQUIRED),
        Some(c) if !currencies.contains(c) => push_error(
            &mut e,
            "currency",
            messages::MUST_BE_ACCOUNT_CURRENCY_OF_N.with([currencies.join(", ")]),
        ),
        _ => {}
    }
    if body.payment_method.is_none() {
        push_error(&mut e, "payment_method", messages::IS_REQUIRED);
    }
    if let (Some(d), Some(due)) = (body.date, body.due_date) {
        if due < d {
            push_error(&mut e, "due_date", messages::MUST_NOT_BE_BEFORE_DATE);
        }
    }
    if let (Some(from), Some(to)) = (body.service_period_from, body.service_period_to) {
        if to < from {
            push_error(
                &mut e,
                "service_period_to",
                messages::MUST_NOT_BE_BEFORE_SERVICE_PERIOD_FROM,
            );
        }
    }
    if body
        .iban
        .as_deref()
        .is_some_and(|i| !i.trim().is_empty() && !crate::sepa::is_valid_iban(i))
    {
        push_error(&mut e, "iban", messages::IS_NOT_VALID_IBAN_CHECKSUM);
    }
    for (field, value, max) in [
        ("receipt_identifier", &body.receipt_identifier, MAX_LINE),
        ("title", &body.title, MAX_LINE),
        ("reference", &body.reference, MAX_LINE),
        ("info", &body.info, MAX_TEXT),
    ] {
        text(&mut e, field, value.as_ref(), false, max);
    }
    for (i, t) in body.tags.iter().flatten().enumerate() {
        if t.trim().is_empty() || t.contains(',') {
            push_error(
                &mut e,
                format!("tags[{i}]"),
                messages::MUST_BE_NON_EMPTY_TAG_WITHOUT_COMMAS,
            );
        }
    }
    match &body.items {
        None => push_error(&mut e, "items", messages::IS_REQUIRED),
        Some(items) if items.is_empty() => push_error(
            &mut e,
            "items",
            messages::MUST_CONTAIN_AT_LEAST_ONE_POSITION,
        ),
        Some(items) if items.len() > MAX_POSITIONS => push_error(
            &mut e,
            "items",
            messages::MUST_HOLD_AT_MOST_N_POSITIONS.with([MAX_POSITIONS]),
        ),
        _ => {}
    }
    for (i, item) in body.items.iter().flatten().enumerate() {
        text(
            &mut e,
            &format!("items[{i}].title"),
            item.title.as_ref(),
            true,
            MAX_LINE,
        );
        if item.total.is_none() {
            push_error(&mut e, format!("items[{i}].total"), messages::IS_REQUIRED);
        }
        check_price(&mut e, &format!("items[{i}].total"), item.total, currency);
        match item.tax {
            None => push_error(&mut e, format!("items[{i}].tax"), messages::IS_REQUIRED),
            v => percent(&mut e, &format!("items[{i}].tax"), v),
        }
    }
    check_purchase_totals(&mut e, body.items.as_deref().unwrap_or_default(), currency);
    e
}

/// Once every purchase position is in range: each position's gross and the purchase's
/// gross must stay below [`MAX_AMOUNT`] (named `items[i].total` and `items`).
fn check_purchase_totals(
    e: &mut FieldErrors,
    items: &[crate::purchase::NewPurchaseItem],
    currency: &str,
) {
    if e.keys().any(|k| k.starts_with("items")) {
        return;
    }
    let mut positions = Vec::with_capacity(items.len());
    for (i, item) in items.iter().enumerate() {
        let field = format!("items[{i}].total");
        match crate::purchase_totals::purchase_position_totals(
            item.total.unwrap_or_default(),
            item.tax.unwrap_or_default(),
            item.tax_included.unwrap_or(false),
            currency,
        ) {
            Some(t) => {
                check_total(e, &field, t.gross_total, "the gross amount");
                positions.push(t);
            }
            None => check_total(e, &field, MAX_AMOUNT, "the gross amount"),
        }
    }
    if !e.keys().any(|k| k.starts_with("items")) {
        match crate::purchase_totals::sum_purchase_totals(&positions) {
            Some(sum) => check_total(e, "items", sum.gross_total, "the purchase's gross total"),
            None => check_total(e, "items", MAX_AMOUNT, "the purchase's gross total"),
        }
    }
}

/// Checks the amounts of a project expense (`POST /projects/{id}/expenses`) before it is
/// stored: `quantity` ([`MAX_QUANTITY`], 4 places), `unit_price` and `unit_cost`
/// ([`MAX_AMOUNT`], the currency's minor unit + 4 places; `unit_cost` ≥ 0), and the
/// products `quantity × unit_price` / `quantity × unit_cost` below [`MAX_AMOUNT`]
/// (named on `unit_price` / `unit_cost`). Required fields are the server's check.
pub fn validate_expense_amounts(body: &crate::billing::NewExpense, currency: &str) -> FieldErrors {
    let mut e = FieldErrors::new();
    check_quantity(&mut e, "quantity", body.quantity);
    check_price(&mut e, "unit_price", body.unit_price, currency);
    check_price(&mut e, "unit_cost", body.unit_cost, currency);
    if body.unit_cost.is_some_and(|c| c < Decimal::ZERO) {
        push_error(&mut e, "unit_cost", messages::MUST_NOT_BE_NEGATIVE);
    }
    if e.is_empty() {
        let quantity = body.quantity.unwrap_or(Decimal::ONE);
        let places = crate::money::minor_units(currency);
        for (field, price) in [
            ("unit_price", body.unit_price),
            ("unit_cost", body.unit_cost),
        ] {
            let product = crate::arith::mul_round(quantity, price.unwrap_or_default(), places);
            check_total(
                &mut e,
                field,
                product.unwrap_or(MAX_AMOUNT),
                "quantity × price",
            );
        }
    }
    e
}

/// Checks the amounts of a time-sheet entry (`POST /activities`): `hours` required, more
/// than 0 and at most [`MAX_HOURS`] (24) with at most 4 places; `hourly_rate` (absent =
/// 0) ≥ 0 and below [`MAX_AMOUNT`] with the currency's minor unit + 4 places. Their
/// product then stays far below [`MAX_AMOUNT`].
pub fn validate_activity_amounts(
    hours: Option<Decimal>,
    hourly_rate: Option<Decimal>,
    currency: &str,
) -> FieldErrors {
    let mut e = FieldErrors::new();
    match hours {
        None => push_error(&mut e, "hours", messages::IS_REQUIRED),
        Some(h)
            if h <= Decimal::ZERO || h > MAX_HOURS || h.normalize().scale() > QUANTITY_PLACES =>
        {
            push_error(
                &mut e,
                "hours",
                messages::MUST_BE_POSITIVE_AT_MOST_N_WITH_N_DECIMALS
                    .with([MAX_HOURS.to_string(), QUANTITY_PLACES.to_string()]),
            )
        }
        _ => {}
    }
    if hourly_rate.is_some_and(|r| r < Decimal::ZERO) {
        push_error(&mut e, "hourly_rate", messages::MUST_NOT_BE_NEGATIVE);
    } else {
        check_price(&mut e, "hourly_rate", hourly_rate, currency);
    }
    e
}
