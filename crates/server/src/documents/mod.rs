//! Records → [`kontor_pdf::document::DocumentData`]: the words, formatted amounts and dates
//! of a printed invoice, offer or time sheet in the customer's correspondence language
//! (issue 9 § Documents show it: German or English labels, numbers and dates; the
//! account's logo and the legal footer of § 14 UStG). Rendering itself is `kontor_pdf`'s;
//! the words are `kontor_pdf::words`'.

use crate::account::{document_profile, AccountProfile};
use crate::config::LetterPaperConfig;
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::QueryPairs;
use crate::state::AppState;
use chrono::{Duration, NaiveDate};
use kontor_model::arith::mul_round;
use kontor_model::billing::Activity;
use kontor_model::dunning::Reminder;
use kontor_model::dunning::{amount_due, fill_text, DunningLevel};
use kontor_model::invoice::Invoice;
use kontor_model::money::minor_units;
use kontor_model::number_input::{format_exact, format_number, Locale};
use kontor_model::offer::Offer;
use kontor_model::position::PositionType;
use kontor_model::position_vat::{effective_vat, TaxCategory};
use kontor_model::query::parse_id;
use kontor_model::totals::{compute_document_totals, DocumentTotals, PositionAmounts};
use kontor_model::vat::VatChoice;
use kontor_pdf::document::{DocumentData, Labels, Letterhead, Logo, Row, TotalLine};
use kontor_pdf::qr_bill::{qr_svg, QrBillData, QrBillLabels};
use kontor_pdf::rich_text::{blocks, plain_blocks};
use kontor_pdf::words::{fill, Language, Words};
use rust_decimal::Decimal;

/// What a document needs to know about its customer company.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct DocumentCustomer {
    /// The company's correspondence language (`language`; German when unknown).
    pub language: Language,
    /// The company's VAT ID, printed on reverse-charge and intra-EU invoices (§ 14a UStG).
    pub vat_identifier: Option<String>,
    /// The company's name (the QR-bill's debtor).
    pub name: String,
    /// The company's address lines (the QR-bill's debtor).
    pub address: String,
    /// The company's country (ISO 3166-1 alpha-2; the QR-bill's debtor).
    pub country_code: Option<String>,
}

/// The account as documents print it and the customer company `customer_id` (language,
/// VAT ID; an unknown or absent company prints German without VAT ID).
/// Errors: 500 when the account settings cannot be read.
pub async fn context(
    state: &AppState,
    customer_id: Option<i64>,
) -> ApiResult<(AccountProfile, DocumentCustomer)> {
    let account = document_profile(&state.pool, &state.files).await?;
    let company = match customer_id {
        Some(id) => crate::master_data::companies::find(&state.pool, id).await?,
        None => None,
    };
    let customer = company
        .map(|c| DocumentCustomer {
            language: Language::from_code(Some(c.language.as_str())),
            vat_identifier: c.vat_identifier.clone().filter(|v| !v.trim().is_empty()),
            name: c.name.clone(),
            address: c.address.clone(),
            country_code: c.country_code.clone(),
        })
        .unwrap_or_default();
    Ok((account, customer))
}

/// Whom and on what a document is printed for: the account (letterhead, bank details,
/// QR-bill creditor), the letter paper (`None` = blank) and the customer company (the
/// document's language, VAT ID, QR-bill debtor).
#[derive(Clone, Copy)]
pub struct Letter<'a> {
    /// The account as documents print it.
    pub account: &'a AccountProfile,
    /// The letter paper; `None` prints blank.
    pub paper: Option<&'a LetterPaperConfig>,
    /// The customer company.
    pub customer: &'a DocumentCustomer,
}

impl<'a> Letter<'a> {
    /// The letter of `account` on `paper` to `customer` (as [`context`] reads them).
    pub fn new(
        account: &'a AccountProfile,
        paper: Option<&'a LetterPaperConfig>,
        customer: &'a DocumentCustomer,
    ) -> Self {
        Self {
            account,
            paper,
            customer,
        }
    }

    /// The document's language: the customer's correspondence language.
    pub fn language(&self) -> Language {
        self.customer.language
    }

    /// `date` as the document prints it ([`print_date`] in its language).
    pub fn date(&self, date: NaiveDate) -> String {
        print_date(date, self.customer.language)
    }

    /// The document's letterhead ([`letterhead`] on its paper, in its language).
    pub fn letterhead(&self) -> Letterhead {
        letterhead(self.account, self.paper, self.customer.language)
    }
}

/// The letter-paper choice of every PDF request (`.pdf` of invoices and reminders, the
/// timesheet), for the API description only: [`query_paper`] reads it.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
pub struct PrintParams {
    /// PDF: print without letter paper (any value but `false` or `0`).
    blank: Option<bool>,
    /// PDF: the configured letter paper to print on (absent: the default).
    letter_paper_id: Option<i64>,
}

/// `letter_paper_id` and `blank` from a PDF request's query: the paper to print on
/// (`None` = blank; neither → the default paper).
/// Errors: 400 for a malformed id, 404 for an unknown one.
pub fn query_paper<'a>(
    state: &'a AppState,
    query: &QueryPairs,
) -> ApiResult<Option<&'a crate::config::LetterPaperConfig>> {
    let blank = query
        .get("blank")
        .is_some_and(|v| !matches!(v, "false" | "0"));
    if blank {
        return Ok(None);
    }
    let id = query
        .get("letter_paper_id")
        .filter(|v| !v.is_empty())
        .map(|v| parse_id("letter_paper_id", v))
        .transpose()?;
    state
        .account
        .letter_paper(id)
        .map(Some)
        .ok_or_else(|| ApiError::not_found(format!("letter paper {}", id.unwrap_or_default())))
}

/// What a GET of a record that also prints asks for, by its `{id}` path segment: `7` the
/// record, `7.pdf` its PDF, `7.xml` its XRechnung (invoices).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum RecordFile {
    /// The record itself (JSON).
    Json(i64),
    /// Its PDF.
    Pdf(i64),
    /// Its XRechnung.
    Xml(i64),
}

impl RecordFile {
    /// Reads `raw`, the `{id}` segment; the `.xml` suffix counts only with `xml`.
    /// Errors: `not_found()` when the segment (without its suffix) is not an id.
    pub fn parse(raw: &str, xml: bool, not_found: impl Fn() -> ApiError) -> ApiResult<Self> {
        let id = |number: &str| number.parse::<i64>().map_err(|_| not_found());
        if let Some(number) = raw.strip_suffix(".pdf") {
            return id(number).map(Self::Pdf);
        }
        match raw.strip_suffix(".xml") {
            Some(number) if xml => id(number).map(Self::Xml),
            _ => id(raw).map(Self::Json),
        }
    }

    /// The record's id.
    pub fn id(self) -> i64 {
        match self {
            Self::Json(id) | Self::Pdf(id) | Self::Xml(id) => id,
        }
    }
}

/// How numbers are written in `language`: German `1.234,56`, English `1,234.56`.
fn locale(language: Language) -> Locale {
    match language {
        Language::De => Locale::De,
        Language::En => Locale::En,
    }
}

/// A date as printed: German `23.11.2026`, English `23 Nov 2026` (unambiguous in both
/// British and American reading).
pub fn print_date(date: NaiveDate, language: Language) -> String {
    match language {
        Language::De => date.format("%d.%m.%Y").to_string(),
        Language::En => date.format("%-d %b %Y").to_string(),
    }
}

/// An amount in `currency` units with the currency's minor-unit places, in `language`'s
/// number format (`1.234,56` / `1,234.56`).
fn amount(value: Decimal, currency: &str, language: Language) -> String {
    format_number(value, minor_units(currency), locale(language))
}

/// An amount with its currency code: `1.234,56 EUR`.
pub fn money(value: Decimal, currency: &str, language: Language) -> String {
    format!("{} {currency}", amount(value, currency, language))
}

/// A quantity or percentage with its own significant digits: `2,5` / `2.5`.
fn plain(value: Decimal, language: Language) -> String {
    format_exact(value.normalize(), locale(language))
}

/// An IBAN grouped by four for print (`DE02 1203 0000 0000 2020 51`).
pub fn group_iban(iban: &str) -> String {
    let compact: Vec<char> = iban.chars().filter(|c| !c.is_whitespace()).collect();
    compact
        .chunks(4)
        .map(|c| c.iter().collect::<String>())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The set text of an optional account field (`None` for unset or blank).
fn set(value: &Option<String>) -> Option<&str> {
    value.as_deref().map(str::trim).filter(|v| !v.is_empty())
}

/// The legal footer (§ 14 (4) UStG: full name and address of the supplier, tax number or
/// VAT ID) plus contact, register entry (court; register and number), managing
/// directors and bank, as four columns; unset fields are left out.
pub fn legal_footer(account: &AccountProfile, w: &Words) -> Vec<Vec<String>> {
    let labelled = |label: &str, value: &Option<String>| set(value).map(|v| format!("{label} {v}"));
    let mut sender = vec![account.name.clone()];
    sender.extend(
        account
            .address
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .map(str::to_string),
    );
    let contact: Vec<String> = [
        labelled(w.phone, &account.phone),
        labelled(w.email, &account.email),
        set(&account.website).map(str::to_string),
    ]
    .into_iter()
    .flatten()
    .collect();
    let legal: Vec<String> = [
        set(&account.managing_directors).map(|v| format!("{}: {v}", w.managing_directors)),
        set(&account.register_court).map(str::to_string),
        set(&account.register_number).map(|v| format!("{} {v}", w.register)),
        labelled(w.vat_id, &account.vat_identifier),
        labelled(w.tax_number, &account.tax_number),
    ]
    .into_iter()
    .flatten()
    .collect();
    let bank: Vec<String> = [
        set(&account.bank_name).map(str::to_string),
        set(&account.account_holder).map(|v| format!("{}: {v}", w.account_holder)),
        set(&account.iban).map(|v| format!("IBAN {}", group_iban(v))),
        set(&account.bic).map(|v| format!("BIC {v}")),
    ]
    .into_iter()
    .flatten()
    .collect();
    vec![sender, contact, legal, bank]
        .into_iter()
        .filter(|c| !c.is_empty())
        .collect()
}

/// The letterhead for `paper` (`None` = blank paper: nothing printed around the document,
/// neither sender block, logo nor legal footer — pre-printed paper carries them).
pub fn letterhead(
    account: &AccountProfile,
    paper: Option<&LetterPaperConfig>,
    language: Language,
) -> Letterhead {
    let Some(paper) = paper else {
        return Letterhead::default();
    };
    let lines: Vec<String> = account.address.lines().map(str::to_string).collect();
    Letterhead {
        show: true,
        name: account.name.clone(),
        return_line: std::iter::once(account.name.clone())
            .chain(lines.iter().cloned())
            .collect::<Vec<_>>()
            .join(" · "),
        address_lines: lines,
        footer_line: paper.footer_line.clone(),
        logo_text: paper.logo_text.clone(),
        logo: account
            .logo
            .as_ref()
            .and_then(|l| Logo::from_content_type(&l.content_type, l.bytes.clone())),
        footer_columns: legal_footer(account, language.words()),
    }
}

/// A position as printed, from an invoice or an offer item.
pub struct PrintPosition<'a> {
    /// Type.
    pub kind: PositionType,
    /// Title.
    pub title: &'a str,
    /// Description (sanitized HTML).
    pub description: Option<&'a str>,
    /// Quantity.
    pub quantity: Option<Decimal>,
    /// Unit.
    pub unit: Option<&'a str>,
    /// Unit price.
    pub unit_price: Option<Decimal>,
    /// Optional (offers): marked, not counted.
    pub optional: bool,
    /// The VAT rate (percent) printed in the rate column; `None` prints none (non-items,
    /// and every position of a document with a single rate; issue 10).
    pub tax_rate: Option<Decimal>,
}

/// One position's VAT as stored: type, own rate, category, exemption reason.
type StoredVat<'a> = (
    PositionType,
    Option<Decimal>,
    Option<TaxCategory>,
    Option<&'a str>,
);

/// The VAT of a document's positions as printed (issue 10 contract § Per-position VAT):
/// each position's effective rate when the document has more than one rate (else none),
/// and the notes of its zero-rate groups — exemption reasons as given, else the
/// category's default note (reverse charge, intra-EU, export), each once, in group order.
fn position_vats(
    positions: &[StoredVat<'_>],
    document: &VatChoice,
    totals: &DocumentTotals,
    language: Language,
) -> (Vec<Option<Decimal>>, Vec<String>) {
    let w = language.words();
    let several = totals.distinct_rates() > 1;
    let effective: Vec<_> = positions
        .iter()
        .map(|(kind, tax, category, _)| {
            (*kind == PositionType::Item).then(|| effective_vat(*tax, *category, document))
        })
        .collect();
    let rates = effective
        .iter()
        .map(|e| e.filter(|_| several).map(|e| e.rate))
        .collect();
    let mut notes: Vec<String> = Vec::new();
    let mut push = |note: String| {
        if !notes.contains(&note) {
            notes.push(note);
        }
    };
    for group in totals
        .groups
        .iter()
        .filter(|g| g.category.needs_exemption_reason())
    {
        let mut given = false;
        for ((_, _, _, reason), e) in positions.iter().zip(&effective) {
            let reason = reason.map(str::trim).filter(|r| !r.is_empty());
            if let (Some(reason), Some(e)) = (reason, e) {
                if e.category == group.category {
                    given = true;
                    push(reason.to_string());
                }
            }
        }
        if !given {
            let default = match group.category {
                TaxCategory::ReverseCharge => Some(w.reverse_charge_note),
                TaxCategory::IntraEu => Some(w.intra_eu_note),
                TaxCategory::Export => Some(w.export_note),
                _ => None,
            };
            if let Some(note) = default {
                push(note.to_string());
            }
        }
    }
    (rates, notes)
}

/// The table rows of `positions` (with their computed net totals), split into sections
/// at page breaks; items are numbered; numbers in `language`'s format.
pub fn sections(
    positions: &[PrintPosition<'_>],
    nets: &[Decimal],
    currency: &str,
    language: Language,
) -> Vec<Vec<Row>> {
    let mut sections = vec![Vec::new()];
    let mut pos = 0;
    for (item, net) in positions.iter().zip(nets) {
        let row = match item.kind {
            PositionType::PageBreak => {
                sections.push(Vec::new());
                continue;
            }
            PositionType::Item => {
                pos += 1;
                let lump = item.quantity.is_none() && item.unit_price.is_none();
                Row {
                    kind: "item".into(),
                    pos: pos.to_string(),
                    title: item.title.to_string(),
                    description: blocks(item.description.unwrap_or("")),
                    quantity: if lump {
                        String::new()
                    } else {
                        item.quantity
                            .map(|q| plain(q, language))
                            .unwrap_or_default()
                    },
                    unit: item.unit.unwrap_or_default().to_string(),
                    unit_price: if lump {
                        String::new()
                    } else {
                        item.unit_price
                            .map(|p| amount(p, currency, language))
                            .unwrap_or_default()
                    },
                    net_total: amount(*net, currency, language),
                    optional: item.optional,
                    tax_rate: item
                        .tax_rate
                        .map(|r| format!("{} %", plain(r, language)))
                        .unwrap_or_default(),
                }
            }
            kind => Row {
                kind: kind.as_str().into(),
                title: item.title.to_string(),
                description: blocks(item.description.unwrap_or("")),
                net_total: amount(*net, currency, language),
                ..Default::default()
            },
        };
        if let Some(section) = sections.last_mut() {
            section.push(row);
        }
    }
    sections
}

/// Subtotal / discount / net / tax / gross lines of the totals block (subtotal and
/// discount only with a discount); one tax line per VAT group (issue 10): "USt. 19 % auf
/// 100,00 EUR", zero-rate categories worded by category.
fn total_lines(
    totals: &DocumentTotals,
    discount: Decimal,
    currency: &str,
    language: Language,
) -> Vec<TotalLine> {
    let w = language.words();
    let line = |label: String, value: Decimal, strong: bool| TotalLine {
        label,
        amount: money(value, currency, language),
        strong,
    };
    let mut lines = Vec::new();
    if !discount.is_zero() {
        lines.push(line(w.subtotal.into(), totals.items_total, false));
        lines.push(line(
            fill(w.discount, &[("percent", &plain(discount, language))]),
            -totals.discount_amount,
            false,
        ));
    }
    lines.push(line(w.net_total.into(), totals.net_total, false));
    for g in &totals.groups {
        let on = money(g.net_total, currency, language);
        let label = match g.category {
            TaxCategory::ReverseCharge => fill(w.vat_reverse_charge_on, &[("amount", &on)]),
            TaxCategory::Exempt => fill(w.vat_exempt_on, &[("amount", &on)]),
            TaxCategory::IntraEu => fill(w.vat_intra_eu_on, &[("amount", &on)]),
            TaxCategory::Export => fill(w.vat_export_on, &[("amount", &on)]),
            TaxCategory::Standard | TaxCategory::Reduced | TaxCategory::Zero => fill(
                w.vat_on,
                &[("percent", &plain(g.rate, language)), ("amount", &on)],
            ),
        };
        lines.push(line(label, g.tax_total, false));
    }
    lines.push(line(w.gross_total.into(), totals.gross_total, true));
    lines
}

/// The recipient address as lines.
fn address_lines(address: &str) -> Vec<String> {
    address.lines().map(str::to_string).collect()
}

mod reminder;
mod sales;
mod timesheet;

pub use reminder::{level_name, reminder_document};
pub use sales::{invoice_document, offer_document};
pub use timesheet::timesheet_document;

#[cfg(test)]
mod tests;
