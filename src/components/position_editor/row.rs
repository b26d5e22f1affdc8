//! The editable row model: one signal per field, holding the text as typed, and a
//! client-side key that stays with the row while it moves.

use super::vat::PositionVat;
use crate::components::locale::{format_input, parse_typed, typed_value};
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice::InvoiceItem;
use kontor_model::invoice_input::NewInvoiceItem;
use kontor_model::offer::OfferItem;
use kontor_model::position::PositionType;
use kontor_model::totals::PositionAmounts;
use kontor_model::Decimal;
use leptos::prelude::*;
use std::sync::atomic::{AtomicU64, Ordering};

static NEXT_KEY: AtomicU64 = AtomicU64::new(1);

/// A fresh client-side row key.
pub fn next_key() -> u64 {
    NEXT_KEY.fetch_add(1, Ordering::Relaxed)
}

/// One position in the editor. Copy: it is a key plus signal handles. The same model
/// serves invoices and offers (offers use `optional`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PositionRow {
    /// Client-side key (not the server id); stays with the row while it moves.
    pub key: u64,
    /// Position type.
    pub kind: RwSignal<PositionType>,
    /// Title as typed.
    pub title: RwSignal<String>,
    /// Description as typed.
    pub description: RwSignal<String>,
    /// Quantity as typed, in the user's locale (`"1,5"` in German, `"1.5"` in English).
    pub quantity: RwSignal<String>,
    /// Unit as typed.
    pub unit: RwSignal<String>,
    /// Unit price as typed.
    pub unit_price: RwSignal<String>,
    /// Lump-sum net total as typed (used when quantity and unit price are empty).
    pub net_total: RwSignal<String>,
    /// Offer positions: shown but not counted.
    pub optional: RwSignal<bool>,
    /// Time sheet entries this item bills (`activity_ids`); kept as they are, not typed.
    pub activity_ids: RwSignal<Vec<i64>>,
    /// Project expenses this item bills (`expense_ids`).
    pub expense_ids: RwSignal<Vec<i64>>,
    /// The item's VAT (`tax`, `tax_category`); the document default unless chosen.
    pub vat: RwSignal<PositionVat>,
    /// The exemption reason as typed (sent for exempt items only).
    pub exemption_reason: RwSignal<String>,
}

fn blank(text: &str) -> bool {
    text.trim().is_empty()
}

fn decimal_text(value: Option<Decimal>) -> String {
    value
        .map(|d| format_input(d.normalize()))
        .unwrap_or_default()
}

impl PositionRow {
    /// An empty row of `kind`.
    pub fn new(kind: PositionType) -> Self {
        PositionRow {
            key: next_key(),
            kind: RwSignal::new(kind),
            title: RwSignal::new(String::new()),
            description: RwSignal::new(String::new()),
            quantity: RwSignal::new(String::new()),
            unit: RwSignal::new(String::new()),
            unit_price: RwSignal::new(String::new()),
            net_total: RwSignal::new(String::new()),
            optional: RwSignal::new(false),
            activity_ids: RwSignal::new(Vec::new()),
            expense_ids: RwSignal::new(Vec::new()),
            vat: RwSignal::new(PositionVat::DEFAULT),
            exemption_reason: RwSignal::new(String::new()),
        }
    }

    /// An item row with the given texts (handy for tests and templates).
    pub fn item(title: &str, quantity: &str, unit: &str, unit_price: &str) -> Self {
        let row = Self::new(PositionType::Item);
        row.title.set(title.into());
        row.quantity.set(quantity.into());
        row.unit.set(unit.into());
        row.unit_price.set(unit_price.into());
        row
    }

    /// A lump-sum item row: a net total without quantity and unit price.
    pub fn lump_sum(title: &str, net_total: &str) -> Self {
        let row = Self::new(PositionType::Item);
        row.title.set(title.into());
        row.net_total.set(net_total.into());
        row
    }

    /// A row of `kind` with a stored position's title, description, `(quantity, unit,
    /// unit price)` and — for a lump-sum item (no quantity, no unit price) — net total.
    fn stored(
        kind: PositionType,
        title: String,
        description: Option<&String>,
        (quantity, unit, unit_price): (Option<Decimal>, Option<&String>, Option<Decimal>),
        net_total: Decimal,
    ) -> Self {
        let row = Self::new(kind);
        row.title.set(title);
        row.description
            .set(description.cloned().unwrap_or_default());
        row.quantity.set(decimal_text(quantity));
        row.unit.set(unit.cloned().unwrap_or_default());
        row.unit_price.set(decimal_text(unit_price));
        if kind == PositionType::Item && quantity.is_none() && unit_price.is_none() {
            row.net_total.set(decimal_text(Some(net_total)));
        }
        row
    }

    /// A row from a stored invoice position.
    pub fn from_invoice_item(item: &InvoiceItem) -> Self {
        let row = Self::stored(
            item.kind,
            item.title.clone(),
            item.description.as_ref(),
            (item.quantity, item.unit.as_ref(), item.unit_price),
            item.net_total,
        );
        row.activity_ids.set(item.activity_ids.clone());
        row.expense_ids.set(item.expense_ids.clone());
        row.set_vat(
            item.tax,
            item.tax_category,
            item.tax_exemption_reason.as_deref(),
        );
        row
    }

    /// A row from a creation-body position (a down payment's share of an offer,
    /// `kontor_model::down_payment_share::down_payment_positions`): a lump sum keeps its net.
    pub fn from_new_item(item: &kontor_model::invoice_input::NewInvoiceItem) -> Self {
        let row = Self::stored(
            item.kind.unwrap_or(PositionType::Item),
            item.title.clone().unwrap_or_default(),
            item.description.as_ref(),
            (item.quantity, item.unit.as_ref(), item.unit_price),
            item.net_total.unwrap_or_default(),
        );
        row.set_vat(
            item.tax,
            item.tax_category,
            item.tax_exemption_reason.as_deref(),
        );
        row
    }

    /// A row from a stored offer position, with its `optional` flag (a lump sum stays a
    /// lump sum).
    pub fn from_offer_item(item: &OfferItem) -> Self {
        let row = Self::stored(
            item.kind,
            item.title.clone().unwrap_or_default(),
            item.description.as_ref(),
            (item.quantity, item.unit.as_ref(), item.unit_price),
            item.net_total,
        );
        row.optional.set(item.optional);
        row.set_vat(
            item.tax,
            item.tax_category,
            item.tax_exemption_reason.as_deref(),
        );
        row
    }

    /// Sets the row's VAT from stored fields (`tax`, `tax_category`,
    /// `tax_exemption_reason`).
    pub fn set_vat(
        &self,
        tax: Option<Decimal>,
        category: Option<kontor_model::position_vat::TaxCategory>,
        reason: Option<&str>,
    ) {
        self.vat.set(PositionVat::from_stored(tax, category));
        self.exemption_reason
            .set(reason.unwrap_or_default().to_string());
    }

    /// A copy with a new key (row menu "Duplicate"). What the row bills is not copied: an
    /// entry can be billed only once.
    pub fn duplicate(&self) -> Self {
        let copy = Self::new(self.kind.get_untracked());
        copy.title.set(self.title.get_untracked());
        copy.description.set(self.description.get_untracked());
        copy.quantity.set(self.quantity.get_untracked());
        copy.unit.set(self.unit.get_untracked());
        copy.unit_price.set(self.unit_price.get_untracked());
        copy.net_total.set(self.net_total.get_untracked());
        copy.optional.set(self.optional.get_untracked());
        copy.vat.set(self.vat.get_untracked());
        copy.exemption_reason
            .set(self.exemption_reason.get_untracked());
        copy
    }

    /// True for an item whose quantity and unit price are both empty (a lump sum).
    /// Reactive: reads the two signals.
    pub fn is_lump_sum(&self) -> bool {
        self.kind.get() == PositionType::Item
            && self.quantity.with(|q| blank(q))
            && self.unit_price.with(|p| blank(p))
    }

    /// The amounts the totals need, parsed from the typed texts (unparsable → absent).
    /// Reactive: reads the row's signals.
    pub fn amounts(&self) -> PositionAmounts {
        let kind = self.kind.get();
        if kind != PositionType::Item {
            return PositionAmounts {
                kind: Some(kind),
                ..Default::default()
            };
        }
        PositionAmounts {
            kind: Some(kind),
            quantity: self.quantity.with(|t| typed_value(t)),
            unit_price: self.unit_price.with(|t| typed_value(t)),
            net_total: self.net_total.with(|t| typed_value(t)),
            optional: self.optional.get(),
            tax: self.vat.with(|v| v.tax),
            tax_category: self.vat.with(|v| v.category),
        }
    }

    /// The creation-body position, and the paths (under `items[index]`) of texts that are
    /// not numbers. Only the fields of the row's type are sent.
    pub fn to_new_invoice_item(&self, index: usize, errors: &mut FieldErrors) -> NewInvoiceItem {
        let kind = self.kind.get_untracked();
        let text = |s: RwSignal<String>| {
            Some(s.get_untracked().trim().to_string()).filter(|t| !t.is_empty())
        };
        let mut number =
            |s: RwSignal<String>, field: &str| match s.with_untracked(|raw| parse_typed(raw)) {
                Ok(value) => value,
                Err(message) => {
                    push_error(errors, format!("items[{index}].{field}"), message);
                    None
                }
            };
        let mut item = NewInvoiceItem {
            kind: Some(kind),
            ..Default::default()
        };
        match kind {
            PositionType::Item => {
                item.title = text(self.title);
                item.description = text(self.description);
                item.unit = text(self.unit);
                item.quantity = number(self.quantity, "quantity");
                item.unit_price = number(self.unit_price, "unit_price");
                if blank(&self.quantity.get_untracked()) && blank(&self.unit_price.get_untracked())
                {
                    item.net_total = number(self.net_total, "net_total");
                }
                let ids = |s: RwSignal<Vec<i64>>| Some(s.get_untracked()).filter(|v| !v.is_empty());
                item.activity_ids = ids(self.activity_ids);
                item.expense_ids = ids(self.expense_ids);
                let vat = self.vat.get_untracked();
                item.tax = vat.tax;
                item.tax_category = vat.category;
                item.tax_exemption_reason = if vat.needs_reason() {
                    text(self.exemption_reason)
                } else {
                    None
                };
            }
            PositionType::Title | PositionType::Subtotal => item.title = text(self.title),
            PositionType::Description => {
                item.title = text(self.title);
                item.description = text(self.description);
            }
            PositionType::PageBreak | PositionType::Separator => {}
        }
        item
    }
}

/// One row as typed, for the form's local draft ([`crate::components::local_draft`]): the
/// texts exactly as entered (also ones that are not numbers yet) and the row's links.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TypedRow {
    /// Position type.
    pub kind: Option<PositionType>,
    /// Title as typed.
    pub title: String,
    /// Description as typed.
    pub description: String,
    /// Quantity as typed.
    pub quantity: String,
    /// Unit as typed.
    pub unit: String,
    /// Unit price as typed.
    pub unit_price: String,
    /// Lump-sum net total as typed.
    pub net_total: String,
    /// Offer positions: optional.
    pub optional: bool,
    /// Time sheet entries billed.
    pub activity_ids: Vec<i64>,
    /// Project expenses billed.
    pub expense_ids: Vec<i64>,
    /// The position's own rate in percent.
    pub tax: Option<Decimal>,
    /// The position's own VAT category.
    pub tax_category: Option<kontor_model::position_vat::TaxCategory>,
    /// The exemption reason as typed.
    pub exemption_reason: String,
}

impl PositionRow {
    /// What the row holds as typed.
    pub fn typed(&self) -> TypedRow {
        let vat = self.vat.get_untracked();
        TypedRow {
            kind: Some(self.kind.get_untracked()),
            title: self.title.get_untracked(),
            description: self.description.get_untracked(),
            quantity: self.quantity.get_untracked(),
            unit: self.unit.get_untracked(),
            unit_price: self.unit_price.get_untracked(),
            net_total: self.net_total.get_untracked(),
            optional: self.optional.get_untracked(),
            activity_ids: self.activity_ids.get_untracked(),
            expense_ids: self.expense_ids.get_untracked(),
            tax: vat.tax,
            tax_category: vat.category,
            exemption_reason: self.exemption_reason.get_untracked(),
        }
    }

    /// A new row (fresh key) holding what `typed` says.
    pub fn from_typed(typed: &TypedRow) -> Self {
        let row = Self::new(typed.kind.unwrap_or(PositionType::Item));
        row.title.set(typed.title.clone());
        row.description.set(typed.description.clone());
        row.quantity.set(typed.quantity.clone());
        row.unit.set(typed.unit.clone());
        row.unit_price.set(typed.unit_price.clone());
        row.net_total.set(typed.net_total.clone());
        row.optional.set(typed.optional);
        row.activity_ids.set(typed.activity_ids.clone());
        row.expense_ids.set(typed.expense_ids.clone());
        row.vat.set(PositionVat {
            tax: typed.tax,
            category: typed.tax_category,
        });
        row.exemption_reason.set(typed.exemption_reason.clone());
        row
    }
}
