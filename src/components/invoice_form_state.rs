//! The invoice form's state: one signal per field holding what was typed, pre-filling from
//! a customer or project, and turning the state into a [`NewInvoice`] body.

use crate::components::date::{iso, parse_iso, today};
use crate::components::default_texts::DefaultTexts;
use crate::components::field::{field_number, field_text};
use crate::components::locale::format_input;
use crate::components::position_editor::PositionRow;
use chrono::{Days, NaiveDate};
use kontor_model::account::DocumentKind;
use kontor_model::down_payment::InvoiceKind;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice::{Invoice, PaymentMeans};
use kontor_model::invoice_input::{NewInvoice, VatInput};
use kontor_model::party::{Company, Project};
use kontor_model::position::PositionType;
use kontor_model::query::split_list;
use kontor_model::status::InvoiceStatus;
use kontor_model::Decimal;
use leptos::prelude::*;
use std::collections::BTreeMap;

/// The default tax rate in percent when the customer has none.
pub const DEFAULT_TAX: &str = "19";
/// The payment terms offered (days).
pub const PAYMENT_TERMS: [i64; 4] = [0, 7, 14, 30];

/// All fields of the invoice form (Copy: signal handles).
#[derive(Clone, Copy)]
pub struct InvoiceFormState {
    /// Customer company id.
    pub customer_id: RwSignal<Option<i64>>,
    /// Project id.
    pub project_id: RwSignal<Option<i64>>,
    /// Recipient address.
    pub recipient_address: RwSignal<String>,
    /// Invoice date `YYYY-MM-DD`.
    pub date: RwSignal<String>,
    /// Payment term in days; `None` when the due date was set by hand.
    pub term_days: RwSignal<Option<i64>>,
    /// Due date `YYYY-MM-DD`.
    pub due_date: RwSignal<String>,
    /// Title.
    pub title: RwSignal<String>,
    /// Currency code.
    pub currency: RwSignal<String>,
    /// Tax rate as typed.
    pub tax: RwSignal<String>,
    /// Reverse charge.
    pub reverse_charge: RwSignal<bool>,
    /// Discount % as typed.
    pub discount: RwSignal<String>,
    /// Cash discount % as typed.
    pub cash_discount: RwSignal<String>,
    /// Cash discount days as typed.
    pub cash_discount_days: RwSignal<String>,
    /// Salutation (HTML allowed).
    pub salutation: RwSignal<String>,
    /// Footer (HTML allowed).
    pub footer: RwSignal<String>,
    /// Tags, comma-separated.
    pub tags: RwSignal<String>,
    /// Service period start `YYYY-MM-DD`.
    pub service_from: RwSignal<String>,
    /// Service period end `YYYY-MM-DD`.
    pub service_to: RwSignal<String>,
    /// Positions.
    pub rows: RwSignal<Vec<PositionRow>>,
    /// Custom properties kept from a loaded draft (not edited here yet).
    pub custom_properties: RwSignal<BTreeMap<String, String>>,
    /// The offer this invoice is created from (`/invoices/new?from_offer=`); sent as
    /// `offer_id` so the server links both and bills the offer.
    pub offer_id: RwSignal<Option<i64>>,
    /// The account's default salutation and footer (set for a new invoice only), filled
    /// in when a customer is picked.
    pub default_texts: DefaultTexts,
    /// Buyer reference (BT-10) as typed; empty → the customer's applies (issue 10).
    pub buyer_reference: RwSignal<String>,
    /// Payment means kept from a loaded draft (not edited here; `None` → derived from the
    /// customer's mandate).
    pub payment_means: RwSignal<Option<PaymentMeans>>,
    /// Standard, down payment or final invoice (issue 33).
    pub kind: RwSignal<InvoiceKind>,
    /// A final invoice: the ids of the down payments it deducts, in the order picked.
    pub down_payment_ids: RwSignal<Vec<i64>>,
}

fn due_after(date: &str, days: i64) -> Option<String> {
    let d = parse_iso(date)?;
    d.checked_add_days(Days::new(days.max(0) as u64)).map(iso)
}

impl InvoiceFormState {
    /// The projects of the chosen customer (the first 100; none without a customer or
    /// when loading fails), loaded again whenever the customer changes.
    pub fn customer_projects(&self) -> Signal<Vec<Project>> {
        let customer_id = self.customer_id;
        let loaded = LocalResource::new(move || {
            let customer = customer_id.get();
            async move {
                match customer {
                    Some(id) => crate::api::projects::list_projects(Some(id))
                        .await
                        .map(|p| p.items)
                        .unwrap_or_default(),
                    None => Vec::new(),
                }
            }
        });
        Signal::derive(move || loaded.get().unwrap_or_default())
    }

    /// A new invoice: dated today, due in 14 days, default tax, one empty item.
    pub fn blank(currency: &str) -> Self {
        let date = iso(today());
        InvoiceFormState {
            customer_id: RwSignal::new(None),
            project_id: RwSignal::new(None),
            recipient_address: RwSignal::new(String::new()),
            due_date: RwSignal::new(due_after(&date, 14).unwrap_or_default()),
            date: RwSignal::new(date),
            term_days: RwSignal::new(Some(14)),
            title: RwSignal::new(String::new()),
            currency: RwSignal::new(currency.to_string()),
            tax: RwSignal::new(DEFAULT_TAX.into()),
            reverse_charge: RwSignal::new(false),
            discount: RwSignal::new(String::new()),
            cash_discount: RwSignal::new(String::new()),
            cash_discount_days: RwSignal::new(String::new()),
            salutation: RwSignal::new(String::new()),
            footer: RwSignal::new(String::new()),
            tags: RwSignal::new(String::new()),
            service_from: RwSignal::new(String::new()),
            service_to: RwSignal::new(String::new()),
            rows: RwSignal::new(vec![PositionRow::new(PositionType::Item)]),
            custom_properties: RwSignal::new(BTreeMap::new()),
            offer_id: RwSignal::new(None),
            default_texts: DefaultTexts::new(DocumentKind::Invoice),
            buyer_reference: RwSignal::new(String::new()),
            payment_means: RwSignal::new(None),
            kind: RwSignal::new(InvoiceKind::Standard),
            down_payment_ids: RwSignal::new(Vec::new()),
        }
    }

    /// The state of a stored draft.
    pub fn from_invoice(invoice: &Invoice) -> Self {
        let s = Self::blank(&invoice.currency);
        let num = |d: Decimal| {
            if d.is_zero() {
                String::new()
            } else {
                format_input(d.normalize())
            }
        };
        s.customer_id.set(Some(invoice.customer_id));
        s.project_id.set(invoice.project_id);
        s.recipient_address.set(invoice.recipient_address.clone());
        s.date.set(iso(invoice.date));
        s.due_date.set(iso(invoice.due_date));
        let days = (invoice.due_date - invoice.date).num_days();
        s.term_days
            .set(PAYMENT_TERMS.contains(&days).then_some(days));
        s.title.set(invoice.title.clone());
        s.tax.set(format_input(invoice.tax.normalize()));
        s.reverse_charge.set(invoice.vat.reverse_charge);
        s.discount.set(num(invoice.discount));
        s.cash_discount.set(num(invoice.cash_discount));
        s.cash_discount_days
            .set(if invoice.cash_discount_days == 0 {
                String::new()
            } else {
                invoice.cash_discount_days.to_string()
            });
        s.salutation
            .set(invoice.salutation.clone().unwrap_or_default());
        s.footer.set(invoice.footer.clone().unwrap_or_default());
        s.tags.set(invoice.tags.join(", "));
        s.service_from
            .set(invoice.service_period_from.map(iso).unwrap_or_default());
        s.service_to
            .set(invoice.service_period_to.map(iso).unwrap_or_default());
        let rows = invoice
            .items
            .iter()
            .flatten()
            .map(PositionRow::from_invoice_item)
            .collect();
        s.rows.set(rows);
        s.custom_properties.set(invoice.custom_properties.clone());
        s.buyer_reference
            .set(invoice.buyer_reference.clone().unwrap_or_default());
        s.payment_means.set(invoice.payment_means);
        s.kind.set(invoice.kind);
        s.down_payment_ids.set(
            invoice
                .deducted_down_payments
                .iter()
                .map(|d| d.invoice_id)
                .collect(),
        );
        s
    }

    /// Sets the due date from the date and the payment term (when a term is chosen).
    pub fn recompute_due_date(&self) {
        if let Some(days) = self.term_days.get_untracked() {
            if let Some(due) = due_after(&self.date.get_untracked(), days) {
                self.due_date.set(due);
            }
        }
    }

    /// Pre-fills from the chosen customer: address, payment term, tax, reverse charge,
    /// (when valid for the account) currency, and for a new invoice an empty salutation
    /// and footer with the account's texts in the customer's language.
    pub fn apply_customer(&self, customer: &Company, currencies: &[String]) {
        self.recipient_address.set(customer.recipient_address());
        self.default_texts
            .apply(customer.language, self.salutation, self.footer);
        self.apply_customer_terms(customer);
        let vat = kontor_model::vat::customer_default(&customer.customer_vat);
        self.tax.set(format_input(vat.tax.normalize()));
        self.reverse_charge.set(vat.reverse_charge);
        if let Some(c) = customer
            .currency
            .as_ref()
            .filter(|c| currencies.contains(c))
        {
            self.currency.set(c.clone());
        }
    }

    /// The customer's payment term, discount and cash discount (Skonto) from its master
    /// data ([`Company::invoice_defaults`], the same defaults the server applies to a body
    /// without them); a discount already in the form (an offer's) stays. Also used for an
    /// invoice made from an offer, whose customer comes with the offer (issue 29).
    pub fn apply_customer_terms(&self, customer: &Company) {
        let defaults = customer.invoice_defaults();
        if let Some(days) = defaults.due_days {
            self.term_days.set(Some(days));
            self.recompute_due_date();
        }
        let fill = |field: RwSignal<String>, value: Option<Decimal>| {
            if let Some(v) = value.filter(|v| !v.is_zero()) {
                if field.get_untracked().trim().is_empty() {
                    field.set(format_input(v.normalize()));
                }
            }
        };
        fill(self.discount, defaults.discount);
        fill(self.cash_discount, defaults.cash_discount);
        if let Some(days) = defaults.cash_discount_days.filter(|d| *d > 0) {
            if self.cash_discount_days.get_untracked().trim().is_empty() {
                self.cash_discount_days.set(days.to_string());
            }
        }
    }

    /// Pre-fills from the chosen project: its billing address wins over the customer's.
    pub fn apply_project(
        &self,
        project: Option<&Project>,
        customer: Option<&Company>,
        currencies: &[String],
    ) {
        let billing = project
            .and_then(|p| p.billing_address.clone())
            .filter(|a| !a.trim().is_empty());
        match (billing, customer) {
            (Some(address), _) => self.recipient_address.set(address),
            (None, Some(c)) => self.recipient_address.set(c.recipient_address()),
            (None, None) => {}
        }
        if let Some(c) = project
            .and_then(|p| p.currency.clone())
            .filter(|c| currencies.contains(c))
        {
            self.currency.set(c);
        }
    }

    /// The creation body for `status`, plus errors for texts that are not numbers or dates.
    pub fn body(&self, status: InvoiceStatus) -> (NewInvoice, FieldErrors) {
        let mut errors = FieldErrors::new();
        let tax = field_number(self.tax, "tax", &mut errors);
        let discount = field_number(self.discount, "discount", &mut errors);
        let cash_discount = field_number(self.cash_discount, "cash_discount", &mut errors);
        let cash_discount_days = match field_text(self.cash_discount_days) {
            None => None,
            Some(t) => match t.parse::<i64>() {
                Ok(d) => Some(d),
                Err(_) => {
                    push_error(
                        &mut errors,
                        "cash_discount_days",
                        kontor_model::error::Message::verbatim(
                            crate::i18n::t().form_common().whole_days,
                        ),
                    );
                    None
                }
            },
        };
        let date = |s: RwSignal<String>| -> Option<NaiveDate> {
            field_text(s).and_then(|t| parse_iso(&t))
        };
        let rows = self.rows.get_untracked();
        let items = rows
            .iter()
            .enumerate()
            .map(|(i, r)| r.to_new_invoice_item(i, &mut errors))
            .collect();
        let tags: Vec<String> = split_list(&self.tags.get_untracked()).collect();
        let custom = self.custom_properties.get_untracked();
        let body = NewInvoice {
            customer_id: self.customer_id.get_untracked(),
            project_id: self.project_id.get_untracked(),
            recipient_address: field_text(self.recipient_address),
            date: date(self.date),
            due_date: date(self.due_date),
            title: field_text(self.title),
            tax,
            currency: field_text(self.currency),
            items: Some(items),
            service_period_from: date(self.service_from),
            service_period_to: date(self.service_to),
            status: Some(status),
            // Always sent, so a text the user emptied stays empty (absent would mean
            // "the account's default" to the server).
            salutation: Some(self.salutation.get_untracked().trim().to_string()),
            footer: Some(self.footer.get_untracked().trim().to_string()),
            discount,
            cash_discount,
            cash_discount_days,
            tags: Some(tags),
            custom_properties: (!custom.is_empty()).then_some(custom),
            vat: Some(VatInput {
                reverse_charge: Some(self.reverse_charge.get_untracked()),
                intra_eu: None,
            }),
            offer_id: self.offer_id.get_untracked(),
            buyer_reference: field_text(self.buyer_reference),
            payment_means: self.payment_means.get_untracked(),
            kind: Some(self.kind.get_untracked()).filter(|k| *k != InvoiceKind::Standard),
            down_payment_invoice_ids: (self.kind.get_untracked() == InvoiceKind::Final)
                .then(|| self.down_payment_ids.get_untracked()),
            ..Default::default()
        };
        (body, errors)
    }

    /// A fingerprint of everything typed, to tell whether the form has unsaved changes.
    pub fn snapshot(&self) -> String {
        let (body, _) = self.body(InvoiceStatus::Draft);
        serde_json::to_string(&body).unwrap_or_default()
    }
}

/// The invoice form as typed, for its local draft ([`crate::components::local_draft`],
/// issue 34 "a half-filled invoice survives a reload"): every text exactly as entered.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TypedInvoice {
    /// Customer company id.
    pub customer_id: Option<i64>,
    /// Project id.
    pub project_id: Option<i64>,
    /// Recipient address.
    pub recipient_address: String,
    /// Invoice date `YYYY-MM-DD`.
    pub date: String,
    /// Payment term in days.
    pub term_days: Option<i64>,
    /// Due date `YYYY-MM-DD`.
    pub due_date: String,
    /// Title.
    pub title: String,
    /// Currency code.
    pub currency: String,
    /// Tax rate as typed.
    pub tax: String,
    /// Reverse charge.
    pub reverse_charge: bool,
    /// Discount % as typed.
    pub discount: String,
    /// Cash discount % as typed.
    pub cash_discount: String,
    /// Cash discount days as typed.
    pub cash_discount_days: String,
    /// Salutation.
    pub salutation: String,
    /// Footer.
    pub footer: String,
    /// Tags, comma-separated.
    pub tags: String,
    /// Service period start.
    pub service_from: String,
    /// Service period end.
    pub service_to: String,
    /// Positions.
    pub rows: Vec<crate::components::position_editor::TypedRow>,
    /// Custom properties.
    pub custom_properties: BTreeMap<String, String>,
    /// The offer billed.
    pub offer_id: Option<i64>,
    /// Buyer reference as typed.
    pub buyer_reference: String,
    /// Payment means.
    pub payment_means: Option<PaymentMeans>,
    /// Standard, down payment or final invoice.
    pub kind: Option<InvoiceKind>,
    /// A final invoice's down payments.
    pub down_payment_ids: Vec<i64>,
}

impl InvoiceFormState {
    /// Everything as typed.
    pub fn typed(&self) -> TypedInvoice {
        TypedInvoice {
            customer_id: self.customer_id.get_untracked(),
            project_id: self.project_id.get_untracked(),
            recipient_address: self.recipient_address.get_untracked(),
            date: self.date.get_untracked(),
            term_days: self.term_days.get_untracked(),
            due_date: self.due_date.get_untracked(),
            title: self.title.get_untracked(),
            currency: self.currency.get_untracked(),
            tax: self.tax.get_untracked(),
            reverse_charge: self.reverse_charge.get_untracked(),
            discount: self.discount.get_untracked(),
            cash_discount: self.cash_discount.get_untracked(),
            cash_discount_days: self.cash_discount_days.get_untracked(),
            salutation: self.salutation.get_untracked(),
            footer: self.footer.get_untracked(),
            tags: self.tags.get_untracked(),
            service_from: self.service_from.get_untracked(),
            service_to: self.service_to.get_untracked(),
            rows: self
                .rows
                .with_untracked(|r| r.iter().map(|r| r.typed()).collect()),
            custom_properties: self.custom_properties.get_untracked(),
            offer_id: self.offer_id.get_untracked(),
            buyer_reference: self.buyer_reference.get_untracked(),
            payment_means: self.payment_means.get_untracked(),
            kind: Some(self.kind.get_untracked()),
            down_payment_ids: self.down_payment_ids.get_untracked(),
        }
    }

    /// Fills every field from `typed` (a restored local draft); a draft without positions
    /// gets one empty item.
    pub fn restore_typed(&self, typed: &TypedInvoice) {
        use crate::components::position_editor::PositionRow as Row;
        self.customer_id.set(typed.customer_id);
        self.project_id.set(typed.project_id);
        self.recipient_address.set(typed.recipient_address.clone());
        self.date.set(typed.date.clone());
        self.term_days.set(typed.term_days);
        self.due_date.set(typed.due_date.clone());
        self.title.set(typed.title.clone());
        self.currency.set(typed.currency.clone());
        self.tax.set(typed.tax.clone());
        self.reverse_charge.set(typed.reverse_charge);
        self.discount.set(typed.discount.clone());
        self.cash_discount.set(typed.cash_discount.clone());
        self.cash_discount_days
            .set(typed.cash_discount_days.clone());
        self.salutation.set(typed.salutation.clone());
        self.footer.set(typed.footer.clone());
        self.tags.set(typed.tags.clone());
        self.service_from.set(typed.service_from.clone());
        self.service_to.set(typed.service_to.clone());
        let mut rows: Vec<Row> = typed.rows.iter().map(Row::from_typed).collect();
        if rows.is_empty() {
            rows.push(Row::new(PositionType::Item));
        }
        self.rows.set(rows);
        self.custom_properties.set(typed.custom_properties.clone());
        self.offer_id.set(typed.offer_id);
        self.buyer_reference.set(typed.buyer_reference.clone());
        self.payment_means.set(typed.payment_means);
        self.kind.set(typed.kind.unwrap_or(InvoiceKind::Standard));
        self.down_payment_ids.set(typed.down_payment_ids.clone());
    }
}
