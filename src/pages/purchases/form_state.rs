//! The state of the purchase form: one signal per field, the position rows, the live
//! totals (from the shared model's `purchase_position_totals` / `sum_purchase_totals`) and
//! the creation body with the errors found while reading the typed text (IBAN checksum,
//! numbers).

pub use super::form_rows::PurchaseRow;
use crate::components::date::{iso, parse_iso};
use crate::components::field::{field_number, field_text};
use crate::components::locale::format_input;
use crate::i18n::t;
use kontor_model::error::FieldErrors;
use kontor_model::offer::FileUpload;
use kontor_model::purchase::{NewPurchase, NewPurchaseItem, PaymentMethod, Purchase};
use kontor_model::purchase_totals::{sum_purchase_totals, PurchaseAmounts};
use kontor_model::query::split_list;
use kontor_model::sepa::is_valid_iban;
use leptos::prelude::*;

/// The purchase form (Copy: signal handles).
#[derive(Clone, Copy, Debug)]
pub struct PurchaseFormState {
    /// Supplier company id.
    pub company_id: RwSignal<Option<i64>>,
    /// Category id.
    pub category_id: RwSignal<Option<i64>>,
    /// Receipt date (`YYYY-MM-DD`).
    pub date: RwSignal<String>,
    /// Due date.
    pub due_date: RwSignal<String>,
    /// Service period start.
    pub service_from: RwSignal<String>,
    /// Service period end.
    pub service_to: RwSignal<String>,
    /// Payment method.
    pub payment_method: RwSignal<PaymentMethod>,
    /// Currency.
    pub currency: RwSignal<String>,
    /// IBAN as typed.
    pub iban: RwSignal<String>,
    /// Payment reference.
    pub reference: RwSignal<String>,
    /// Supplier's receipt number.
    pub receipt_identifier: RwSignal<String>,
    /// Title (default: the first position's).
    pub title: RwSignal<String>,
    /// Tags, comma-separated.
    pub tags: RwSignal<String>,
    /// Position rows.
    pub rows: RwSignal<Vec<PurchaseRow>>,
    /// The receipt document to send with the purchase.
    pub file: RwSignal<Option<FileUpload>>,
    next_key: StoredValue<u64>,
}

impl PurchaseFormState {
    /// An empty form dated `date` in `currency`, with one empty row at 19 % tax.
    pub fn blank(date: &str, currency: &str) -> Self {
        let state = PurchaseFormState {
            company_id: RwSignal::new(None),
            category_id: RwSignal::new(None),
            date: RwSignal::new(date.into()),
            due_date: RwSignal::new(String::new()),
            service_from: RwSignal::new(String::new()),
            service_to: RwSignal::new(String::new()),
            payment_method: RwSignal::new(PaymentMethod::BankTransfer),
            currency: RwSignal::new(currency.into()),
            iban: RwSignal::new(String::new()),
            reference: RwSignal::new(String::new()),
            receipt_identifier: RwSignal::new(String::new()),
            title: RwSignal::new(String::new()),
            tags: RwSignal::new(String::new()),
            rows: RwSignal::new(Vec::new()),
            file: RwSignal::new(None),
            next_key: StoredValue::new(1),
        };
        state.add_row();
        state
    }

    /// The form filled from a stored `purchase` (`/purchases/{id}/edit`): each position
    /// with its gross total when its tax is included, else its net total; the category is
    /// the first position's. The stored document stays unless a new one is attached.
    pub fn from_purchase(purchase: &Purchase) -> Self {
        let s = Self::blank(&iso(purchase.date), &purchase.currency);
        let opt_date = |d: Option<chrono::NaiveDate>| d.map(iso).unwrap_or_default();
        s.company_id.set(purchase.company.as_ref().map(|c| c.id));
        s.category_id.set(
            purchase
                .items
                .iter()
                .find_map(|i| i.category.as_ref().map(|c| c.id)),
        );
        s.due_date.set(opt_date(purchase.due_date));
        s.service_from.set(opt_date(purchase.service_period_from));
        s.service_to.set(opt_date(purchase.service_period_to));
        s.payment_method.set(purchase.payment_method);
        s.iban.set(purchase.iban.clone());
        s.reference
            .set(purchase.reference.clone().unwrap_or_default());
        s.receipt_identifier
            .set(purchase.receipt_identifier.clone());
        s.title.set(purchase.title.clone());
        s.tags.set(purchase.tags.join(", "));
        if !purchase.items.is_empty() {
            let rows = purchase
                .items
                .iter()
                .enumerate()
                .map(|(n, i)| {
                    let total = if i.tax_included {
                        i.gross_total
                    } else {
                        i.net_total
                    };
                    PurchaseRow::new(
                        n as u64 + 1,
                        &i.title,
                        &format_input(total.normalize()),
                        &format_input(i.tax.normalize()),
                        i.tax_included,
                    )
                })
                .collect();
            s.rows.set(rows);
            s.next_key.set_value(purchase.items.len() as u64 + 1);
        }
        s
    }

    /// Appends an empty row (19 % tax, net) and returns its key.
    pub fn add_row(&self) -> u64 {
        let key = self.next_key.get_value();
        self.next_key.set_value(key + 1);
        self.rows
            .update(|r| r.push(PurchaseRow::new(key, "", "", "19", false)));
        key
    }

    /// Removes the row `key` (the last row stays).
    pub fn remove_row(&self, key: u64) {
        self.rows.update(|r| {
            if r.len() > 1 {
                r.retain(|row| row.key != key)
            }
        });
    }

    /// Takes the supplier's IBAN when the IBAN field is still empty.
    pub fn apply_supplier_iban(&self, iban: Option<&str>) {
        if let Some(iban) = iban.filter(|i| !i.trim().is_empty()) {
            if self.iban.with_untracked(|i| i.trim().is_empty()) {
                self.iban.set(iban.to_string());
            }
        }
    }

    /// The sums of all rows that can be read (tracked); `None` when they are too large to
    /// add up (shown as "—"; saving is refused with field errors).
    pub fn totals(&self) -> Option<PurchaseAmounts> {
        let currency = self.currency.get();
        let amounts: Vec<PurchaseAmounts> = self
            .rows
            .get()
            .iter()
            .filter_map(|r| r.amounts(&currency))
            .collect();
        sum_purchase_totals(&amounts)
    }

    /// Everything typed, as one string (for the leave guard).
    pub fn snapshot(&self) -> String {
        let rows: Vec<String> = self
            .rows
            .get_untracked()
            .iter()
            .map(|r| {
                format!(
                    "{}|{}|{}|{}",
                    r.title.get_untracked(),
                    r.total.get_untracked(),
                    r.tax.get_untracked(),
                    r.tax_included.get_untracked()
                )
            })
            .collect();
        format!(
            "{:?}{:?}{}{}{}{}{}{}{}{}{}{:?}{}",
            self.company_id.get_untracked(),
            self.category_id.get_untracked(),
            self.due_date.get_untracked(),
            self.service_from.get_untracked(),
            self.service_to.get_untracked(),
            self.iban.get_untracked(),
            self.reference.get_untracked(),
            self.receipt_identifier.get_untracked(),
            self.title.get_untracked(),
            self.tags.get_untracked(),
            rows.join(";"),
            self.file
                .with_untracked(|f| f.as_ref().map(|f| f.filename.clone())),
            self.date.get_untracked(),
        )
    }

    /// The creation body and the errors found while reading the text (numbers, dates,
    /// IBAN checksum), keyed like the server's (`iban`, `items[1].total`).
    pub fn body(&self) -> (NewPurchase, FieldErrors) {
        let mut errors = FieldErrors::new();
        let date = |s: RwSignal<String>, path: &str, errors: &mut FieldErrors| {
            let typed = s.get_untracked();
            let d = parse_iso(&typed);
            if d.is_none() && !typed.trim().is_empty() {
                errors.insert(
                    path.into(),
                    vec![kontor_model::error::Message::verbatim(
                        t().purchase_form().not_a_date,
                    )],
                );
            }
            d
        };
        let iban = field_text(self.iban);
        if iban.as_deref().is_some_and(|i| !is_valid_iban(i)) {
            errors.insert(
                "iban".into(),
                vec![kontor_model::error::messages::IS_NOT_VALID_IBAN_CHECKSUM.into()],
            );
        }
        let mut items = Vec::new();
        for (i, row) in self.rows.get_untracked().iter().enumerate() {
            // Numbers as the user writes them (`1.200,50` in German).
            let total = field_number(row.total, &format!("items[{i}].total"), &mut errors);
            let tax = field_number(row.tax, &format!("items[{i}].tax"), &mut errors);
            items.push(NewPurchaseItem {
                title: field_text(row.title),
                total,
                tax,
                tax_included: Some(row.tax_included.get_untracked()),
                category_id: None,
            });
        }
        let tags: Vec<String> = split_list(&self.tags.get_untracked()).collect();
        let body = NewPurchase {
            date: date(self.date, "date", &mut errors),
            currency: Some(self.currency.get_untracked()),
            payment_method: Some(self.payment_method.get_untracked()),
            items: Some(items),
            category_id: self.category_id.get_untracked(),
            due_date: date(self.due_date, "due_date", &mut errors),
            service_period_from: date(self.service_from, "service_period_from", &mut errors),
            service_period_to: date(self.service_to, "service_period_to", &mut errors),
            company_id: self.company_id.get_untracked(),
            receipt_identifier: field_text(self.receipt_identifier),
            title: field_text(self.title),
            iban,
            reference: field_text(self.reference),
            file: self.file.get_untracked(),
            tags: (!tags.is_empty()).then_some(tags),
            ..Default::default()
        };
        (body, errors)
    }
}

/// One position of [`TypedPurchase`], as typed.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TypedPurchaseRow {
    /// Title.
    pub title: String,
    /// The amount as typed.
    pub total: String,
    /// Tax rate in percent as typed.
    pub tax: String,
    /// Whether the amount includes the tax.
    pub tax_included: bool,
}

/// The purchase form as typed, for its local draft ([`crate::components::local_draft`],
/// issue 37 "Drafts never lost"): every text exactly as entered. The receipt file is not
/// kept (a browser's local storage holds text, and a few megabytes at most): after a
/// restore it is attached again.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TypedPurchase {
    /// Supplier company id.
    pub company_id: Option<i64>,
    /// Category id.
    pub category_id: Option<i64>,
    /// Receipt date `YYYY-MM-DD`.
    pub date: String,
    /// Due date `YYYY-MM-DD`.
    pub due_date: String,
    /// Service period start.
    pub service_from: String,
    /// Service period end.
    pub service_to: String,
    /// Payment method.
    pub payment_method: Option<PaymentMethod>,
    /// Currency code.
    pub currency: String,
    /// The supplier's IBAN as typed.
    pub iban: String,
    /// Payment reference.
    pub reference: String,
    /// The supplier's receipt number.
    pub receipt_identifier: String,
    /// Title.
    pub title: String,
    /// Tags, comma-separated.
    pub tags: String,
    /// Positions.
    pub rows: Vec<TypedPurchaseRow>,
}

impl PurchaseFormState {
    /// Everything as typed (without the receipt file).
    pub fn typed(&self) -> TypedPurchase {
        TypedPurchase {
            company_id: self.company_id.get_untracked(),
            category_id: self.category_id.get_untracked(),
            date: self.date.get_untracked(),
            due_date: self.due_date.get_untracked(),
            service_from: self.service_from.get_untracked(),
            service_to: self.service_to.get_untracked(),
            payment_method: Some(self.payment_method.get_untracked()),
            currency: self.currency.get_untracked(),
            iban: self.iban.get_untracked(),
            reference: self.reference.get_untracked(),
            receipt_identifier: self.receipt_identifier.get_untracked(),
            title: self.title.get_untracked(),
            tags: self.tags.get_untracked(),
            rows: self.rows.with_untracked(|rows| {
                rows.iter()
                    .map(|r| TypedPurchaseRow {
                        title: r.title.get_untracked(),
                        total: r.total.get_untracked(),
                        tax: r.tax.get_untracked(),
                        tax_included: r.tax_included.get_untracked(),
                    })
                    .collect()
            }),
        }
    }

    /// Fills every field from `typed` (a restored local draft); a draft without positions
    /// gets one empty row.
    pub fn restore_typed(&self, typed: &TypedPurchase) {
        self.company_id.set(typed.company_id);
        self.category_id.set(typed.category_id);
        self.date.set(typed.date.clone());
        self.due_date.set(typed.due_date.clone());
        self.service_from.set(typed.service_from.clone());
        self.service_to.set(typed.service_to.clone());
        if let Some(method) = typed.payment_method {
            self.payment_method.set(method);
        }
        self.currency.set(typed.currency.clone());
        self.iban.set(typed.iban.clone());
        self.reference.set(typed.reference.clone());
        self.receipt_identifier
            .set(typed.receipt_identifier.clone());
        self.title.set(typed.title.clone());
        self.tags.set(typed.tags.clone());
        self.rows.set(Vec::new());
        for row in &typed.rows {
            let key = self.next_key.get_value();
            self.next_key.set_value(key + 1);
            self.rows.update(|r| {
                r.push(PurchaseRow::new(
                    key,
                    &row.title,
                    &row.total,
                    &row.tax,
                    row.tax_included,
                ))
            });
        }
        if typed.rows.is_empty() {
            self.add_row();
        }
    }
}
