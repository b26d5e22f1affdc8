//! Validation of creation bodies, shared by the form (errors shown at the field) and the
//! server (422 with the same paths). Paths look like `title`, `items[2].unit_price`.

use crate::error::{push_error, FieldErrors};
use crate::invoice_input::NewInvoice;
use crate::position::PositionType;
use crate::status::InvoiceStatus;
use rust_decimal::Decimal;

/// Longest accepted single-line text (title, unit, …), in characters.
pub const MAX_LINE: usize = 500;
/// Longest accepted multi-line text (address, HTML fields), in characters.
pub const MAX_TEXT: usize = 20_000;
/// Most positions on one document.
pub const MAX_POSITIONS: usize = 5_000;

fn percent(errors: &mut FieldErrors, field: &str, value: Option<Decimal>) {
    if let Some(v) = value {
        if v < Decimal::ZERO || v > Decimal::ONE_HUNDRED {
            push_error(errors, field, "must be between 0 and 100");
        }
    }
}

fn text(errors: &mut FieldErrors, field: &str, value: Option<&String>, required: bool, max: usize) {
    match value {
        None => {
            if required {
                push_error(errors, field, "is required");
            }
        }
        Some(v) if required && v.trim().is_empty() => {
            push_error(errors, field, "must not be empty")
        }
        Some(v) if v.chars().count() > max => {
            push_error(errors, field, format!("must be at most {max} characters"))
        }
        Some(_) => {}
    }
}

/// Checks an invoice creation body against interface.md § POST /invoices and the totals
/// rules. `currencies` are the account's valid currency codes. Returns every problem found
/// (an empty map means valid). Existence of referenced records (customer, project, user)
/// is checked by the server.
///
/// Drafts (`status: "draft"`) need only a customer; everything given must still be well
/// formed.
pub fn validate_new_invoice(body: &NewInvoice, currencies: &[String]) -> FieldErrors {
    let mut e = FieldErrors::new();
    let draft = body.status == Some(InvoiceStatus::Draft);
    let required = !draft;
    if body.customer_id.is_none() {
        push_error(&mut e, "customer_id", "is required");
    }
    text(
        &mut e,
        "recipient_address",
        body.recipient_address.as_ref(),
        required,
        MAX_TEXT,
    );
    text(&mut e, "title", body.title.as_ref(), required, MAX_LINE);
    if required && body.date.is_none() {
        push_error(&mut e, "date", "is required");
    }
    match (body.date, body.due_date) {
        (_, None) if required => push_error(&mut e, "due_date", "is required"),
        (Some(d), Some(due)) if due < d => {
            push_error(&mut e, "due_date", "must not be before the invoice date")
        }
        _ => {}
    }
    match body.tax {
        None if required => push_error(&mut e, "tax", "is required"),
        v => percent(&mut e, "tax", v),
    }
    percent(&mut e, "discount", body.discount);
    percent(&mut e, "cash_discount", body.cash_discount);
    if body.cash_discount_days.is_some_and(|d| d < 0) {
        push_error(&mut e, "cash_discount_days", "must not be negative");
    }
    match &body.currency {
        None if required => push_error(&mut e, "currency", "is required"),
        Some(c) if !currencies.iter().any(|k| k == c) => push_error(
            &mut e,
            "currency",
            format!(
                "must be one of the account's currencies ({})",
                currencies.join(", ")
            ),
        ),
        _ => {}
    }
    match (body.service_period_from, body.service_period_to) {
        (Some(_), None) => push_error(
            &mut e,
            "service_period_to",
            "is required with service_period_from",
        ),
        (None, Some(_)) => push_error(
            &mut e,
            "service_period_from",
            "is required with service_period_to",
        ),
        (Some(from), Some(to)) if to < from => push_error(
            &mut e,
            "service_period_to",
            "must not be before service_period_from",
        ),
        _ => {}
    }
    if let Some(s) = body.status {
        if !matches!(s, InvoiceStatus::Created | InvoiceStatus::Draft) {
            push_error(&mut e, "status", "must be created or draft");
        }
    }
    if let Some(c) = &body.change_address {
        if !["invoice", "project", "customer"].contains(&c.as_str()) {
            push_error(
                &mut e,
                "change_address",
                "must be invoice, project or customer",
            );
        }
    }
    text(
        &mut e,
        "salutation",
        body.salutation.as_ref(),
        false,
        MAX_TEXT,
    );
    text(&mut e, "footer", body.footer.as_ref(), false, MAX_TEXT);
    if let Some(tags) = &body.tags {
        for (i, t) in tags.iter().enumerate() {
            if t.trim().is_empty() || t.contains(',') {
                push_error(
                    &mut e,
                    format!("tags[{i}]"),
                    "must be a non-empty tag without commas",
                );
            }
        }
    }
    match &body.items {
        None if required => push_error(&mut e, "items", "is required"),
        Some(items) if required && !items.iter().any(|i| i.kind == Some(PositionType::Item)) => {
            push_error(&mut e, "items", "must contain at least one item position")
        }
        Some(items) if items.len() > MAX_POSITIONS => push_error(
            &mut e,
            "items",
            format!("must hold at most {MAX_POSITIONS} positions"),
        ),
        _ => {}
    }
    for (i, item) in body.items.iter().flatten().enumerate() {
        let p = |f: &str| format!("items[{i}].{f}");
        let Some(kind) = item.kind else {
            push_error(&mut e, p("type"), "is required");
            continue;
        };
        let needs_title = matches!(kind, PositionType::Item | PositionType::Title);
        text(
            &mut e,
            &p("title"),
            item.title.as_ref(),
            needs_title,
            MAX_LINE,
        );
        text(
            &mut e,
            &p("description"),
            item.description.as_ref(),
            false,
            MAX_TEXT,
        );
        text(&mut e, &p("unit"), item.unit.as_ref(), false, MAX_LINE);
        if kind == PositionType::Item {
            match (item.quantity, item.unit_price, item.net_total) {
                (Some(_), Some(_), _) | (None, None, Some(_)) => {}
                (Some(_), None, _) => {
                    push_error(&mut e, p("unit_price"), "is required with a quantity")
                }
                (None, Some(_), _) => {
                    push_error(&mut e, p("quantity"), "is required with a unit price")
                }
                (None, None, None) => push_error(
                    &mut e,
                    p("unit_price"),
                    "give quantity and unit price, or a lump-sum net total",
                ),
            }
        }
        let bills = item.activity_ids.as_ref().is_some_and(|v| !v.is_empty())
            || item.expense_ids.as_ref().is_some_and(|v| !v.is_empty());
        if bills && (kind != PositionType::Item || item.quantity.is_none()) {
            push_error(
                &mut e,
                p("activity_ids"),
                "only items with quantity and unit price can bill activities or expenses",
            );
        }
    }
    e
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::invoice_input::NewInvoiceItem;
    use chrono::NaiveDate;

    fn valid() -> NewInvoice {
        NewInvoice {
            customer_id: Some(1),
            recipient_address: Some("ACME\nMain St 1".into()),
            date: NaiveDate::from_ymd_opt(2026, 11, 1),
            due_date: NaiveDate::from_ymd_opt(2026, 11, 15),
            title: Some("Web work".into()),
            tax: Some(Decimal::new(19, 0)),
            currency: Some("EUR".into()),
            items: Some(vec![NewInvoiceItem {
                kind: Some(PositionType::Item),
                title: Some("Design".into()),
                quantity: Some(Decimal::ONE),
                unit_price: Some(Decimal::TEN),
                ..Default::default()
            }]),
            ..Default::default()
        }
    }

    fn cur() -> Vec<String> {
        vec!["EUR".into(), "CHF".into()]
    }

    #[test]
    fn valid_body_passes() {
        assert!(validate_new_invoice(&valid(), &cur()).is_empty());
    }

    #[test]
    fn missing_required_fields_are_named() {
        let e = validate_new_invoice(&NewInvoice::default(), &cur());
        for f in [
            "customer_id",
            "recipient_address",
            "date",
            "due_date",
            "title",
            "tax",
            "currency",
            "items",
        ] {
            assert!(e.contains_key(f), "{f} missing from {e:?}");
        }
    }

    #[test]
    fn draft_needs_only_customer() {
        let body = NewInvoice {
            customer_id: Some(1),
            status: Some(InvoiceStatus::Draft),
            ..Default::default()
        };
        assert!(validate_new_invoice(&body, &cur()).is_empty());
    }

    #[test]
    fn item_paths_are_indexed() {
        let mut body = valid();
        body.items.as_mut().unwrap().push(NewInvoiceItem {
            kind: Some(PositionType::Item),
            title: Some("x".into()),
            quantity: Some(Decimal::ONE),
            ..Default::default()
        });
        body.items.as_mut().unwrap().push(NewInvoiceItem::default());
        let e = validate_new_invoice(&body, &cur());
        assert!(e.contains_key("items[1].unit_price"), "{e:?}");
        assert!(e.contains_key("items[2].type"), "{e:?}");
    }

    #[test]
    fn lump_sum_is_valid() {
        let mut body = valid();
        body.items = Some(vec![NewInvoiceItem {
            kind: Some(PositionType::Item),
            title: Some("Flat fee".into()),
            net_total: Some(Decimal::new(500, 0)),
            ..Default::default()
        }]);
        assert!(validate_new_invoice(&body, &cur()).is_empty());
    }

    #[test]
    fn ranges_and_currency() {
        let mut body = valid();
        body.tax = Some(Decimal::new(101, 0));
        body.discount = Some(Decimal::new(-1, 0));
        body.currency = Some("XYZ".into());
        body.due_date = NaiveDate::from_ymd_opt(2026, 10, 1);
        body.service_period_from = NaiveDate::from_ymd_opt(2026, 10, 1);
        let e = validate_new_invoice(&body, &cur());
        for f in [
            "tax",
            "discount",
            "currency",
            "due_date",
            "service_period_to",
        ] {
            assert!(e.contains_key(f), "{f} missing from {e:?}");
        }
    }

    #[test]
    fn created_invoice_needs_an_item() {
        let mut body = valid();
        body.items = Some(vec![NewInvoiceItem {
            kind: Some(PositionType::Title),
            title: Some("Section".into()),
            ..Default::default()
        }]);
        assert!(validate_new_invoice(&body, &cur()).contains_key("items"));
    }
}
