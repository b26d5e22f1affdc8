//! One position row of the purchase form and reading typed numbers; the row's live
//! totals come from the shared model's `purchase_position_totals`.

use crate::components::locale::typed_value;
use kontor_model::purchase_totals::{purchase_position_totals, PurchaseAmounts};
use leptos::prelude::*;

/// One editable position: title, total, tax rate and whether the total includes the tax.
#[derive(Clone, Copy, Debug)]
pub struct PurchaseRow {
    /// Client-side key for keyed rendering.
    pub key: u64,
    /// Title.
    pub title: RwSignal<String>,
    /// The amount as typed (gross with tax included, else net).
    pub total: RwSignal<String>,
    /// Tax rate in percent as typed.
    pub tax: RwSignal<String>,
    /// Whether `total` includes the tax.
    pub tax_included: RwSignal<bool>,
}

impl PurchaseRow {
    /// A row with the given values.
    pub fn new(key: u64, title: &str, total: &str, tax: &str, tax_included: bool) -> Self {
        PurchaseRow {
            key,
            title: RwSignal::new(title.into()),
            total: RwSignal::new(total.into()),
            tax: RwSignal::new(tax.into()),
            tax_included: RwSignal::new(tax_included),
        }
    }

    /// Net, tax and gross of this row (tracked); `None` while total or tax is not a number.
    pub fn amounts(&self, currency: &str) -> Option<PurchaseAmounts> {
        let total = self.total.with(|t| typed_value(t))?;
        let tax = self.tax.with(|t| typed_value(t))?;
        purchase_position_totals(total, tax, self.tax_included.get(), currency)
    }
}
