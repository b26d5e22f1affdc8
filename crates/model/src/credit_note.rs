//! Credit notes (Rechnungskorrektur, issue 33; `docs/decisions.md` § Credit notes): a
//! finalized document of its own number series that credits some positions of a
//! finalized invoice — in full or a part of their quantity — or a free amount granted
//! later. Its positions carry negative quantities (or a negative lump sum), so its totals
//! per VAT rate are negative; the credited invoice's open amount drops by the credited
//! gross. The credit notes of one invoice never exceed its gross total.
//!
//! The rules here are pure: the server reads the invoice and the amount already credited
//! and writes the credit note through the invoice creation path (§ 14 UStG, § 31 (5)
//! UStDV: a correction refers to the corrected invoice by number and date).

use crate::error::message::{Message, Text};
use crate::error::{messages, push_error, FieldErrors};
use crate::invoice::InvoiceItem;
use crate::invoice_input::NewInvoiceItem;
use crate::limits::{MAX_AMOUNT, MAX_POSITIONS, MAX_QUANTITY, QUANTITY_PLACES};
use crate::party::Language;
use crate::position::PositionType;
use crate::status::InvoiceStatus;
use crate::wire::decimal_option;
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};

/// POST /invoices/{id}/credit_note body: the positions to credit, at least one.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct NewCreditNote {
    /// Required: 1–5,000 entries, each a position of the invoice (`{id}` or
    /// `{id, quantity}`) or a free position (`{type: "item", title, quantity,
    /// unit_price}`).
    #[serde(default)]
    pub items: Vec<CreditNoteItem>,
}

/// One entry of a credit note body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(deny_unknown_fields)]
pub struct CreditNoteItem {
    /// The credited invoice's position (an `item` position); absent for a free position.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub id: Option<i64>,
    /// With `id`: the part of the position's quantity to credit (more than 0, at most its
    /// quantity, ≤ 4 decimal places); absent → all of it. A free position: its quantity.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub quantity: Option<Decimal>,
    /// A free position: `item`.
    #[serde(default, rename = "type", skip_serializing_if = "Option::is_none")]
    pub kind: Option<PositionType>,
    /// A free position: its title (1–500 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub title: Option<String>,
    /// A free position: its unit, e.g. `h`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub unit: Option<String>,
    /// A free position: the net amount credited per unit, currency units, more than 0
    /// (written negated on the credit note).
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub unit_price: Option<Decimal>,
    /// A free position: its VAT rate in percent; absent → the invoice's `tax`.
    #[serde(
        default,
        skip_serializing_if = "Option::is_none",
        with = "decimal_option"
    )]
    pub tax: Option<Decimal>,
}

/// Why invoice may not be credited, or `None` when it may: drafts are edited, reversal
/// invoices and credit notes are corrections themselves, a reversed invoice is settled.
pub fn credit_refusal(
    status: InvoiceStatus,
    reversal: bool,
    reversed: bool,
    credit_note: bool,
) -> Option<Text> {
    if status == InvoiceStatus::Draft {
        Some(messages::DRAFT_NOT_CREDITABLE)
    } else if reversal || credit_note {
        Some(messages::CORRECTION_NOT_CREDITABLE)
    } else if reversed {
        Some(messages::REVERSED_NOT_CREDITABLE)
    } else {
        None
    }
}

fn in_quantity_range(q: Decimal, max: Decimal) -> bool {
    q > Decimal::ZERO && q <= max && q.normalize().scale() <= QUANTITY_PLACES
}

/// The positions of the credit note for `body` against the credited invoice's `items`:
/// a credited position repeats its title, description, unit, unit price and VAT with the
/// credited quantity negated (a lump sum: its net total negated); a free position is an
/// `item` with its quantity negated and its unit price. Errors: field errors named
/// `items` (absent, empty or more than 5,000) or `items[i].id` (not an `item` position of
/// the invoice, or twice), `items[i].quantity`, `items[i].title`, `items[i].unit_price`,
/// `items[i].type`.
pub fn credit_note_positions(
    items: &[InvoiceItem],
    body: &NewCreditNote,
) -> Result<Vec<NewInvoiceItem>, FieldErrors> {
    let mut errors = FieldErrors::new();
    if body.items.is_empty() {
        push_error(&mut errors, "items", messages::IS_REQUIRED);
        return Err(errors);
    }
    if body.items.len() > MAX_POSITIONS {
        push_error(
            &mut errors,
            "items",
            messages::MUST_BE_BETWEEN_N_AND_N.with([1, MAX_POSITIONS]),
        );
        return Err(errors);
    }
    let mut seen = std::collections::BTreeSet::new();
    let mut out = Vec::with_capacity(body.items.len());
    for (i, entry) in body.items.iter().enumerate() {
        let field = |name: &str| format!("items[{i}].{name}");
        match entry.id {
            Some(id) => {
                let free_fields = entry.kind.is_some()
                    || entry.title.is_some()
                    || entry.unit.is_some()
                    || entry.unit_price.is_some()
                    || entry.tax.is_some();
                if free_fields {
                    push_error(&mut errors, field("id"), messages::CREDIT_NOTE_ITEM_SHAPE);
                    continue;
                }
                let Some(item) = items
                    .iter()
                    .find(|p| p.id == id && p.kind == PositionType::Item)
                else {
                    push_error(&mut errors, field("id"), messages::CREDIT_NOTE_NOT_AN_ITEM);
                    continue;
                };
                if !seen.insert(id) {
                    push_error(
                        &mut errors,
                        field("id"),
                        messages::CREDIT_NOTE_POSITION_TWICE,
                    );
                    continue;
                }
                let lump = item.quantity.is_none() || item.unit_price.is_none();
                let quantity = match (lump, entry.quantity) {
                    (true, Some(_)) => {
                        push_error(
                            &mut errors,
                            field("quantity"),
                            messages::CREDIT_NOTE_LUMP_SUM_QUANTITY,
                        );
                        continue;
                    }
                    (true, None) => None,
                    (false, wanted) => {
                        let full = item.quantity.unwrap_or_default();
                        let q = wanted.unwrap_or(full.abs());
                        if !in_quantity_range(q, full.abs()) {
                            push_error(
                                &mut errors,
                                field("quantity"),
                                messages::CREDIT_NOTE_QUANTITY.with([full.abs().normalize()]),
                            );
                            continue;
                        }
                        // A negative position (a discount line) is credited back positive.
                        Some(if full < Decimal::ZERO { q } else { -q })
                    }
                };
                out.push(NewInvoiceItem {
                    kind: Some(PositionType::Item),
                    title: Some(item.title.clone()),
                    description: item.description.clone(),
                    quantity,
                    unit: item.unit.clone(),
                    unit_price: item.unit_price,
                    net_total: lump.then_some(-item.net_total),
                    tax: item.tax,
                    tax_category: item.tax_category,
                    tax_exemption_reason: item.tax_exemption_reason.clone(),
                    ..Default::default()
                });
            }
            None => {
                if entry.kind != Some(PositionType::Item) {
                    push_error(&mut errors, field("type"), messages::CREDIT_NOTE_ITEM_SHAPE);
                    continue;
                }
                let title = entry.title.as_deref().map(str::trim).unwrap_or("");
                if title.is_empty() || title.chars().count() > crate::limits::MAX_LINE {
                    push_error(
                        &mut errors,
                        field("title"),
                        messages::MUST_BE_BETWEEN_N_AND_N.with([1, crate::limits::MAX_LINE]),
                    );
                }
                let quantity = entry.quantity.unwrap_or(Decimal::ONE);
                if !in_quantity_range(quantity, MAX_QUANTITY) {
                    push_error(
                        &mut errors,
                        field("quantity"),
                        messages::MUST_BE_POSITIVE_AT_MOST_N_WITH_N_DECIMALS
                            .with([MAX_QUANTITY.to_string(), QUANTITY_PLACES.to_string()]),
                    );
                }
                match entry.unit_price {
                    Some(p) if p > Decimal::ZERO && p <= MAX_AMOUNT => {}
                    _ => push_error(
                        &mut errors,
                        field("unit_price"),
                        messages::MUST_BE_POSITIVE_AT_MOST_N_WITH_N_DECIMALS
                            .with([MAX_AMOUNT.to_string(), 4.to_string()]),
                    ),
                }
                out.push(NewInvoiceItem {
                    kind: Some(PositionType::Item),
                    title: Some(title.to_string()),
                    quantity: Some(-quantity),
                    unit: entry.unit.clone(),
                    unit_price: entry.unit_price,
                    tax: entry.tax,
                    ..Default::default()
                });
            }
        }
    }
    if errors.is_empty() {
        Ok(out)
    } else {
        Err(errors)
    }
}

/// Checks that a credit note of `credit_gross` (negative, currency units) fits invoice
/// `gross` of which `already_credited` (positive) is credited by earlier credit notes:
/// it must credit something, and all credit notes together never more than the gross.
/// Errors: field `items` — [`messages::CREDIT_NOTE_EMPTY`], or
/// [`messages::CREDIT_NOTE_TOO_LARGE`] with what is left, as `1,234.50 EUR`.
pub fn check_credit_limit(
    gross: Decimal,
    already_credited: Decimal,
    credit_gross: Decimal,
    currency: &str,
) -> Result<(), Message> {
    if credit_gross >= Decimal::ZERO {
        return Err(messages::CREDIT_NOTE_EMPTY.into());
    }
    let left = (gross - already_credited).max(Decimal::ZERO);
    if -credit_gross > left {
        return Err(messages::CREDIT_NOTE_TOO_LARGE.with([format!(
            "{} {currency}",
            crate::money::format_amount(left, currency)
        )]));
    }
    Ok(())
}

/// The title of a credit note for invoice `number`, in `language`:
/// `Rechnungskorrektur zu Rechnung {number}` / `Credit note for invoice {number}`.
pub fn credit_note_title(language: Language, number: &str) -> String {
    match language {
        Language::De => format!("Rechnungskorrektur zu Rechnung {number}"),
        Language::En => format!("Credit note for invoice {number}"),
    }
}

/// The salutation (HTML) of a credit note for invoice `number` dated `date`, in
/// `language` (§ 31 (5) UStDV: the correction names the corrected invoice): German
/// `<p>Diese Rechnungskorrektur bezieht sich auf die Rechnung {number} vom DD.MM.YYYY.</p>`.
/// `number` is escaped for HTML.
pub fn credit_note_salutation(language: Language, number: &str, date: NaiveDate) -> String {
    let number = crate::reversal::escape_number(number);
    match language {
        Language::De => format!(
            "<p>Diese Rechnungskorrektur bezieht sich auf die Rechnung {number} vom {}.</p>",
            date.format("%d.%m.%Y")
        ),
        Language::En => format!(
            "<p>This credit note corrects invoice {number} of {}.</p>",
            date.format("%-d %B %Y")
        ),
    }
}

#[cfg(test)]
mod tests;
