//! The offer form's state and its rules, without any view: picking a company, a deal or a
//! project fills the others as the server would (`docs/decisions.md` § Offers), a currency
//! that conflicts with the project's or deal's is found before sending, and the state
//! becomes a [`NewOffer`] body.

use crate::components::date::{iso, parse_iso, today};
use crate::components::default_texts::DefaultTexts;
use crate::components::field::{field_number, field_text};
use crate::components::locale::format_input;
use crate::components::position_editor::PositionRow;
use crate::i18n::{fill, t};
use chrono::Days;
use kontor_model::account::DocumentKind;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice_input::VatInput;
use kontor_model::offer::{NewOffer, NewOfferItem, Offer};
use kontor_model::party::{Company, Deal, Project};
use kontor_model::position::PositionType;
use kontor_model::vat::customer_default;
use kontor_model::Decimal;
use leptos::prelude::*;

/// All fields of the offer form (Copy: signal handles).
#[derive(Clone, Copy)]
pub struct OfferFormState {
    /// Customer company id.
    pub company_id: RwSignal<Option<i64>>,
    /// The chosen deal.
    pub deal: RwSignal<Option<Deal>>,
    /// The chosen project.
    pub project: RwSignal<Option<Project>>,
    /// Contact person id.
    pub contact_id: RwSignal<Option<i64>>,
    /// Recipient address.
    pub recipient_address: RwSignal<String>,
    /// Offer date `YYYY-MM-DD`.
    pub date: RwSignal<String>,
    /// Valid until `YYYY-MM-DD`.
    pub due_date: RwSignal<String>,
    /// Title.
    pub title: RwSignal<String>,
    /// Currency code.
    pub currency: RwSignal<String>,
    /// Tax rate as typed.
    pub tax: RwSignal<String>,
    /// Reverse charge (tax 0), pre-filled from the company's `customer_vat`.
    pub reverse_charge: RwSignal<bool>,
    /// Intra-EU supply, pre-filled from the company's `customer_vat`.
    pub intra_eu: RwSignal<bool>,
    /// Discount % as typed.
    pub discount: RwSignal<String>,
    /// Salutation.
    pub salutation: RwSignal<String>,
    /// Footer.
    pub footer: RwSignal<String>,
    /// Positions (with the optional flag).
    pub rows: RwSignal<Vec<PositionRow>>,
    /// The account's default salutation and footer, filled in when a company is picked.
    pub default_texts: DefaultTexts,
}

impl OfferFormState {
    /// A new offer: dated today, valid for 30 days, tax 19 %, one empty item.
    pub fn blank(currency: &str) -> Self {
        let date = today();
        OfferFormState {
            company_id: RwSignal::new(None),
            deal: RwSignal::new(None),
            project: RwSignal::new(None),
            contact_id: RwSignal::new(None),
            recipient_address: RwSignal::new(String::new()),
            date: RwSignal::new(iso(date)),
            due_date: RwSignal::new(
                date.checked_add_days(Days::new(30))
                    .map(iso)
                    .unwrap_or_default(),
            ),
            title: RwSignal::new(String::new()),
            currency: RwSignal::new(currency.to_string()),
            tax: RwSignal::new("19".into()),
            reverse_charge: RwSignal::new(false),
            intra_eu: RwSignal::new(false),
            discount: RwSignal::new(String::new()),
            salutation: RwSignal::new(String::new()),
            footer: RwSignal::new(String::new()),
            rows: RwSignal::new(vec![PositionRow::new(PositionType::Item)]),
            default_texts: DefaultTexts::new(DocumentKind::Offer),
        }
    }

    /// The form filled from a stored `offer` (`/offers/{id}/edit`): its deal and project
    /// are looked up in `deals` and `projects` (the form's choices); the account's default
    /// texts are not applied, the offer's own texts stay.
    pub fn from_offer(offer: &Offer, deals: &[Deal], projects: &[Project]) -> Self {
        let s = Self::blank(&offer.currency);
        let num = |d: Decimal| {
            if d.is_zero() {
                String::new()
            } else {
                format_input(d.normalize())
            }
        };
        s.company_id.set(offer.company.as_ref().map(|c| c.id));
        let deal_id = offer.deal.as_ref().map(|d| d.id);
        s.deal
            .set(deals.iter().find(|d| Some(d.id) == deal_id).cloned());
        let project_id = offer.project.as_ref().map(|p| p.id);
        s.project
            .set(projects.iter().find(|p| Some(p.id) == project_id).cloned());
        s.contact_id.set(offer.contact.as_ref().map(|c| c.id));
        s.recipient_address.set(offer.recipient_address.clone());
        s.date.set(iso(offer.date));
        s.due_date.set(iso(offer.due_date));
        s.title.set(offer.title.clone());
        s.tax.set(format_input(offer.tax.normalize()));
        s.reverse_charge.set(offer.vat.reverse_charge);
        s.intra_eu.set(offer.vat.intra_eu);
        s.discount.set(num(offer.discount));
        s.salutation
            .set(offer.salutation.clone().unwrap_or_default());
        s.footer.set(offer.footer.clone().unwrap_or_default());
        let rows: Vec<PositionRow> = offer
            .items
            .iter()
            .flatten()
            .map(PositionRow::from_offer_item)
            .collect();
        if !rows.is_empty() {
            s.rows.set(rows);
        }
        s
    }

    /// Picks the company: address and VAT treatment (tax, reverse charge, intra-EU: the
    /// model's `customer_default`) from it, its currency when no deal or project fixes
    /// one, an empty salutation and footer from the account's texts in its language; a
    /// deal or project of another company is cleared, and the contact becomes the new
    /// company's billing contact (none without one).
    pub fn pick_company(&self, company: Option<&Company>) {
        let id = company.map(|c| c.id);
        if self.company_id.get_untracked() != id {
            // Issue 34: the company's billing contact is preselected.
            self.contact_id
                .set(company.and_then(|c| c.billing_contact.as_ref().map(|b| b.id)));
        }
        self.company_id.set(id);
        let foreign = |owner: Option<i64>| owner.is_some() && owner != id;
        if self.deal.with_untracked(|d| {
            d.as_ref()
                .is_some_and(|d| foreign(d.company.as_ref().map(|c| c.id)))
        }) {
            self.deal.set(None);
        }
        if self.project.with_untracked(|p| {
            p.as_ref()
                .is_some_and(|p| foreign(p.customer.as_ref().map(|c| c.id)))
        }) {
            self.project.set(None);
        }
        if let Some(c) = company {
            self.recipient_address.set(c.recipient_address());
            self.default_texts
                .apply(c.language, self.salutation, self.footer);
            let vat = customer_default(&c.customer_vat);
            self.tax.set(format_input(vat.tax.normalize()));
            self.reverse_charge.set(vat.reverse_charge);
            self.intra_eu.set(vat.intra_eu);
            let fixed = self.deal.with_untracked(Option::is_some)
                || self.project.with_untracked(Option::is_some);
            if let (false, Some(cur)) = (fixed, &c.currency) {
                self.currency.set(cur.clone());
            }
        }
    }

    /// Picks the deal: company and currency come from the deal.
    pub fn pick_deal(&self, deal: Option<Deal>, companies: &[Company]) {
        if let Some(d) = &deal {
            if let Some(owner) = &d.company {
                self.pick_company(companies.iter().find(|c| c.id == owner.id));
                self.company_id.set(Some(owner.id));
            }
            if let Some(cur) = &d.currency {
                self.currency.set(cur.clone());
            }
        }
        self.deal.set(deal);
    }

    /// Picks the project: the company becomes the project's customer and the currency the
    /// project's.
    pub fn pick_project(&self, project: Option<Project>, companies: &[Company]) {
        if let Some(p) = &project {
            if let Some(owner) = &p.customer {
                self.pick_company(companies.iter().find(|c| c.id == owner.id));
                self.company_id.set(Some(owner.id));
            }
            if let Some(cur) = &p.currency {
                self.currency.set(cur.clone());
            }
        }
        self.project.set(project);
    }

    /// The currency error shown at the field before sending: the chosen currency must be
    /// the project's and the deal's where they have one. Reactive.
    pub fn currency_conflict(&self) -> Option<String> {
        let cur = self.currency.get();
        let mut conflicts = Vec::new();
        if let Some(p) = self.project.get().and_then(|p| p.currency) {
            if p != cur {
                conflicts.push(fill(t().offer_form().project_currency, &[("currency", &p)]));
            }
        }
        if let Some(d) = self.deal.get().and_then(|d| d.currency) {
            if d != cur {
                conflicts.push(fill(t().offer_form().deal_currency, &[("currency", &d)]));
            }
        }
        (!conflicts.is_empty()).then(|| {
            fill(
                t().offer_form().currency_must_match,
                &[("conflicts", &conflicts.join(", "))],
            )
        })
    }

    /// The creation body, plus errors for texts that are not numbers or dates and for a
    /// conflicting currency.
    pub fn body(&self) -> (NewOffer, FieldErrors) {
        let mut errors = FieldErrors::new();
        let tax = field_number(self.tax, "tax", &mut errors);
        let discount = field_number(self.discount, "discount", &mut errors);
        if let Some(m) = untrack(|| self.currency_conflict()) {
            push_error(
                &mut errors,
                "currency",
                kontor_model::error::Message::verbatim(m),
            );
        }
        let items = self
            .rows
            .get_untracked()
            .iter()
            .enumerate()
            .map(|(i, r)| offer_item(r, i, &mut errors))
            .collect();
        let body = NewOffer {
            company_id: self.company_id.get_untracked(),
            deal_id: self.deal.with_untracked(|d| d.as_ref().map(|d| d.id)),
            project_id: self.project.with_untracked(|p| p.as_ref().map(|p| p.id)),
            contact_id: self.contact_id.get_untracked(),
            recipient_address: field_text(self.recipient_address),
            date: field_text(self.date).and_then(|t| parse_iso(&t)),
            due_date: field_text(self.due_date).and_then(|t| parse_iso(&t)),
            title: field_text(self.title),
            tax,
            discount,
            currency: field_text(self.currency),
            items: Some(items),
            // Always sent, so a text the user emptied stays empty (absent would mean
            // "the account's default" to the server).
            salutation: Some(self.salutation.get_untracked().trim().to_string()),
            footer: Some(self.footer.get_untracked().trim().to_string()),
            vat: Some(VatInput {
                reverse_charge: Some(self.reverse_charge.get_untracked()),
                intra_eu: Some(self.intra_eu.get_untracked()),
            }),
            ..Default::default()
        };
        (body, errors)
    }

    /// A fingerprint of everything typed (unsaved-changes guard).
    pub fn snapshot(&self) -> String {
        serde_json::to_string(&self.body().0).unwrap_or_default()
    }
}

/// An editor row as an offer position (the invoice row body plus `optional`).
pub fn offer_item(row: &PositionRow, index: usize, errors: &mut FieldErrors) -> NewOfferItem {
    let i = row.to_new_invoice_item(index, errors);
    let optional = row.optional.get_untracked();
    NewOfferItem {
        kind: i.kind,
        title: i.title,
        description: i.description,
        quantity: i.quantity,
        unit: i.unit,
        unit_price: i.unit_price,
        net_total: i.net_total,
        optional: optional.then_some(true),
        tax: i.tax,
        tax_category: i.tax_category,
        tax_exemption_reason: i.tax_exemption_reason,
    }
}

/// The offer form as typed, for its local draft ([`crate::components::local_draft`], issue
/// 37 "Drafts never lost"): every text exactly as entered, the deal and project by id.
#[derive(Clone, Debug, Default, PartialEq, serde::Serialize, serde::Deserialize)]
#[serde(default)]
pub struct TypedOffer {
    /// Customer company id.
    pub company_id: Option<i64>,
    /// Deal id.
    pub deal_id: Option<i64>,
    /// Project id.
    pub project_id: Option<i64>,
    /// Contact person id.
    pub contact_id: Option<i64>,
    /// Recipient address.
    pub recipient_address: String,
    /// Offer date `YYYY-MM-DD`.
    pub date: String,
    /// Valid until `YYYY-MM-DD`.
    pub due_date: String,
    /// Title.
    pub title: String,
    /// Currency code.
    pub currency: String,
    /// Tax rate as typed.
    pub tax: String,
    /// Reverse charge.
    pub reverse_charge: bool,
    /// Intra-EU supply.
    pub intra_eu: bool,
    /// Discount % as typed.
    pub discount: String,
    /// Salutation.
    pub salutation: String,
    /// Footer.
    pub footer: String,
    /// Positions.
    pub rows: Vec<crate::components::position_editor::TypedRow>,
}

impl OfferFormState {
    /// Everything as typed.
    pub fn typed(&self) -> TypedOffer {
        TypedOffer {
            company_id: self.company_id.get_untracked(),
            deal_id: self.deal.with_untracked(|d| d.as_ref().map(|d| d.id)),
            project_id: self.project.with_untracked(|p| p.as_ref().map(|p| p.id)),
            contact_id: self.contact_id.get_untracked(),
            recipient_address: self.recipient_address.get_untracked(),
            date: self.date.get_untracked(),
            due_date: self.due_date.get_untracked(),
            title: self.title.get_untracked(),
            currency: self.currency.get_untracked(),
            tax: self.tax.get_untracked(),
            reverse_charge: self.reverse_charge.get_untracked(),
            intra_eu: self.intra_eu.get_untracked(),
            discount: self.discount.get_untracked(),
            salutation: self.salutation.get_untracked(),
            footer: self.footer.get_untracked(),
            rows: self
                .rows
                .with_untracked(|r| r.iter().map(|r| r.typed()).collect()),
        }
    }

    /// Fills every field from `typed` (a restored local draft); the deal and project are
    /// looked up in `deals` / `projects` (gone ones stay empty); a draft without positions
    /// gets one empty item.
    pub fn restore_typed(&self, typed: &TypedOffer, deals: &[Deal], projects: &[Project]) {
        self.company_id.set(typed.company_id);
        self.deal.set(
            typed
                .deal_id
                .and_then(|id| deals.iter().find(|d| d.id == id).cloned()),
        );
        self.project.set(
            typed
                .project_id
                .and_then(|id| projects.iter().find(|p| p.id == id).cloned()),
        );
        self.contact_id.set(typed.contact_id);
        self.recipient_address.set(typed.recipient_address.clone());
        self.date.set(typed.date.clone());
        self.due_date.set(typed.due_date.clone());
        self.title.set(typed.title.clone());
        self.currency.set(typed.currency.clone());
        self.tax.set(typed.tax.clone());
        self.reverse_charge.set(typed.reverse_charge);
        self.intra_eu.set(typed.intra_eu);
        self.discount.set(typed.discount.clone());
        self.salutation.set(typed.salutation.clone());
        self.footer.set(typed.footer.clone());
        let mut rows: Vec<PositionRow> = typed.rows.iter().map(PositionRow::from_typed).collect();
        if rows.is_empty() {
            rows.push(PositionRow::new(PositionType::Item));
        }
        self.rows.set(rows);
    }
}
