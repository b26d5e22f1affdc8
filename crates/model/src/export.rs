//! The accountant's exports (issue 11, "For the accountant"; `docs/decisions.md`
//! § Exports (issue 11)): the period parameters, the rows of `invoices.csv` and
//! `purchases.csv` (one per document and tax rate), the DATEV bookings built from the same
//! groups ([`crate::datev`]), number and date formats per locale, and the file names of
//! the downloads and of the ZIP's entries.
//!
//! The server writes the rows with the `csv` crate; everything here is pure.

use crate::datev::{self, Booking, DatevSettings, Side};
use crate::error::messages;
use crate::error::{push_error, FieldErrors};
use crate::invoice::Invoice;
use crate::money::round_money;
use crate::position_vat::TaxCategory;
use crate::purchase::Purchase;
use chrono::NaiveDate;
use rust_decimal::Decimal;

/// The UTF-8 byte order mark every CSV export starts with (spreadsheets then read the
/// umlauts right).
pub const BOM: &str = "\u{feff}";

/// How numbers, dates and column names are written (`locale=de|en`, default `en`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub enum Locale {
    /// Decimal point, dates `YYYY-MM-DD`, English column names.
    #[default]
    En,
    /// Decimal comma, dates `DD.MM.YYYY`, German column names.
    De,
}

/// The checked parameters of an export: `from`–`to` (inclusive, by document date) and
/// the locale.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Period {
    /// First day.
    pub from: NaiveDate,
    /// Last day (≥ `from`).
    pub to: NaiveDate,
    /// Number and date format of the CSVs.
    pub locale: Locale,
}

/// Reads `from`, `to` (required, `YYYY-MM-DD`, `from` ≤ `to`) and `locale` (`de`, `en`
/// or absent). Errors: field errors naming `from`, `to` or `locale` (a 422).
pub fn parse_period(
    from: Option<&str>,
    to: Option<&str>,
    locale: Option<&str>,
) -> Result<Period, FieldErrors> {
    let mut e = FieldErrors::new();
    let mut date = |field: &str, value: Option<&str>| match value.map(str::trim) {
        None | Some("") => {
            push_error(&mut e, field, messages::IS_REQUIRED);
            None
        }
        Some(text) => match crate::wire::parse_date(text) {
            Ok(d) => Some(d),
            Err(m) => {
                push_error(&mut e, field, crate::error::Message::verbatim(m));
                None
            }
        },
    };
    let from = date("from", from);
    let to = date("to", to);
    let locale = match locale.map(str::trim) {
        None | Some("") | Some("en") => Some(Locale::En),
        Some("de") => Some(Locale::De),
        Some(_) => {
            push_error(&mut e, "locale", messages::MUST_BE_DE_OR_EN);
            None
        }
    };
    if let (Some(f), Some(t)) = (from, to) {
        if f > t {
            push_error(&mut e, "to", messages::MUST_NOT_BE_BEFORE_FROM);
        }
    }
    match (from, to, locale) {
        (Some(from), Some(to), Some(locale)) if e.is_empty() => Ok(Period { from, to, locale }),
        _ => Err(e),
    }
}

/// The quick choices of the Exports page's period picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum QuickPeriod {
    /// The calendar month of today.
    ThisMonth,
    /// The calendar month before today's (the page's default).
    LastMonth,
    /// The calendar quarter of today.
    ThisQuarter,
    /// The calendar year before today's.
    LastYear,
}

impl QuickPeriod {
    /// All choices in the order the page offers them.
    pub const ALL: [QuickPeriod; 4] = [
        QuickPeriod::ThisMonth,
        QuickPeriod::LastMonth,
        QuickPeriod::ThisQuarter,
        QuickPeriod::LastYear,
    ];

    /// The label of the choice.
    pub fn label(self) -> &'static str {
        match self {
            QuickPeriod::ThisMonth => "This month",
            QuickPeriod::LastMonth => "Last month",
            QuickPeriod::ThisQuarter => "This quarter",
            QuickPeriod::LastYear => "Last year",
        }
    }

    /// The first and last day of the choice seen from `today`.
    pub fn range(self, today: NaiveDate) -> (NaiveDate, NaiveDate) {
        use chrono::Datelike;
        let first_of = |y: i32, m: u32| NaiveDate::from_ymd_opt(y, m, 1).unwrap_or(today);
        let month_start = first_of(today.year(), today.month());
        let (from, next) = match self {
            QuickPeriod::ThisMonth => (
                month_start,
                month_start.checked_add_months(chrono::Months::new(1)),
            ),
            QuickPeriod::LastMonth => (
                month_start
                    .checked_sub_months(chrono::Months::new(1))
                    .unwrap_or(month_start),
                Some(month_start),
            ),
            QuickPeriod::ThisQuarter => {
                let start = first_of(today.year(), (today.month() - 1) / 3 * 3 + 1);
                (start, start.checked_add_months(chrono::Months::new(3)))
            }
            QuickPeriod::LastYear => (
                first_of(today.year() - 1, 1),
                Some(first_of(today.year(), 1)),
            ),
        };
        let to = next.and_then(|n| n.pred_opt()).unwrap_or(from);
        (from, to)
    }
}

/// `<what>_<from>_<to>.<ext>`, e.g. `invoices_2026-11-01_2026-11-30.csv`.
pub fn file_name(what: &str, period: &Period, ext: &str) -> String {
    format!(
        "{what}_{}_{}.{ext}",
        period.from.format("%Y-%m-%d"),
        period.to.format("%Y-%m-%d")
    )
}

/// The file stem of the DATEV export: DATEV reads a file as an ASCII import only when its
/// name starts with `EXTF_` (issue 34), so it is `EXTF_Buchungsstapel_<from>_<to>.csv`
/// through [`file_name`].
pub const DATEV_FILE_STEM: &str = "EXTF_Buchungsstapel";

/// The name of a document in the ZIP: `<folder>/<number>_<date>.<ext>`, the number
/// reduced to letters, digits, `-`, `_` and `.` (others become `_`), so no entry can leave
/// its folder: `invoices/R2611-004_2026-11-05.pdf`.
pub fn entry_name(folder: &str, number: &str, date: NaiveDate, ext: &str) -> String {
    let safe: String = number
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '-' | '_') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let safe = if safe.is_empty() {
        "document".into()
    } else {
        safe
    };
    format!("{folder}/{safe}_{}.{ext}", date.format("%Y-%m-%d"))
}

/// The file extension of a stored document's content type (`application/pdf` → `pdf`,
/// `image/png` → `png`, `image/jpeg` → `jpg`, XML → `xml`, else `bin`).
pub fn extension(content_type: &str) -> &'static str {
    match content_type {
        "application/pdf" => "pdf",
        "image/png" => "png",
        "image/jpeg" => "jpg",
        t if t.contains("xml") => "xml",
        _ => "bin",
    }
}

/// An amount with the currency's minor-unit places, no grouping, decimal point (`en`) or
/// comma (`de`), minus sign in front: `-1234.50` / `-1234,50`.
pub fn amount_text(amount: Decimal, currency: &str, locale: Locale) -> String {
    let text = round_money(amount, currency).to_string();
    match locale {
        Locale::En => text,
        Locale::De => text.replace('.', ","),
    }
}

/// A rate in percent without trailing zeros (`19`, `7`, `5.5` / `5,5`).
pub fn rate_text(rate: Decimal, locale: Locale) -> String {
    let text = rate.normalize().to_string();
    match locale {
        Locale::En => text,
        Locale::De => text.replace('.', ","),
    }
}

/// A date: `2026-11-05` (`en`) or `05.11.2026` (`de`).
pub fn date_text(date: NaiveDate, locale: Locale) -> String {
    match locale {
        Locale::En => date.format("%Y-%m-%d").to_string(),
        Locale::De => date.format("%d.%m.%Y").to_string(),
    }
}

/// The customer or supplier of a document as the exports name it.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Party {
    /// Company id (0: none).
    pub id: i64,
    /// Name.
    pub name: String,
    /// Its own debtor (customers) or creditor (suppliers) number, if set.
    pub number: Option<i64>,
    /// VAT identifier, if known.
    pub vat_identifier: Option<String>,
}

/// One VAT group of a document: category, rate and amounts in currency units.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TaxGroup {
    /// The category (purchases: standard when taxed, zero otherwise, or their flags).
    pub category: TaxCategory,
    /// Rate in percent.
    pub rate: Decimal,
    /// Net amount.
    pub net: Decimal,
    /// Tax amount.
    pub tax: Decimal,
    /// Net + tax.
    pub gross: Decimal,
    /// Purchases: the expense account ([`datev::expense_account`]); invoices: 0.
    pub account: u32,
}

/// The groups of an invoice: one per entry of its `tax_breakdown` (category and rate),
/// gross = net + tax. `None` when a sum does not fit.
pub fn invoice_groups(invoice: &Invoice) -> Option<Vec<TaxGroup>> {
    invoice
        .tax_breakdown
        .iter()
        .map(|b| {
            Some(TaxGroup {
                category: b.tax_category,
                rate: b.tax,
                net: b.net_total,
                tax: b.tax_total,
                gross: b.net_total.checked_add(b.tax_total)?,
                account: 0,
            })
        })
        .collect()
}

fn purchase_category(rate: Decimal, reverse_charge: bool, intra_eu: bool) -> TaxCategory {
    if reverse_charge {
        TaxCategory::ReverseCharge
    } else if intra_eu {
        TaxCategory::IntraEu
    } else if rate.is_zero() {
        TaxCategory::Zero
    } else {
        TaxCategory::Standard
    }
}

/// The groups of a purchase: its positions summed per VAT (rate and flags) and, when
/// `by_account`, also per expense account (the DATEV bookings); in order of first
/// appearance. `None` when a sum does not fit.
pub fn purchase_groups(purchase: &Purchase, by_account: bool) -> Option<Vec<TaxGroup>> {
    let mut groups: Vec<TaxGroup> = Vec::new();
    for item in &purchase.items {
        let category = purchase_category(item.tax, item.vat.reverse_charge, item.vat.intra_eu);
        let account = datev::expense_account(
            item.category.as_ref().map(|c| c.credit_account.as_str()),
            item.tax,
            item.vat.reverse_charge,
            item.vat.intra_eu,
        );
        let key_account = if by_account { account } else { 0 };
        match groups
            .iter_mut()
            .find(|g| g.category == category && g.rate == item.tax && g.account == key_account)
        {
            Some(g) => {
                g.net = g.net.checked_add(item.net_total)?;
                g.tax = g.tax.checked_add(item.tax_total)?;
                g.gross = g.gross.checked_add(item.gross_total)?;
            }
            None => groups.push(TaxGroup {
                category,
                rate: item.tax,
                net: item.net_total,
                tax: item.tax_total,
                gross: item.gross_total,
                account: key_account,
            }),
        }
    }
    Some(groups)
}

/// The column names of `invoices.csv`.
pub fn invoice_header(locale: Locale) -> [&'static str; 14] {
    let head = match locale {
        Locale::En => [
            "number",
            "date",
            "due_date",
            "customer",
            "debit_number",
            "vat_identifier",
        ],
        Locale::De => [
            "Rechnungsnummer",
            "Rechnungsdatum",
            "Fälligkeit",
            "Kunde",
            "Debitor",
            "USt-IdNr.",
        ],
    };
    header(head, locale)
}

/// The six document columns `head`, then the names of the common tail of both CSVs
/// ([`group_row`]): title, status, currency, tax category, tax rate, net, tax, gross.
fn header(head: [&'static str; 6], locale: Locale) -> [&'static str; 14] {
    let tail = match locale {
        Locale::En => [
            "title",
            "status",
            "currency",
            "tax_category",
            "tax_rate",
            "net",
            "tax",
            "gross",
        ],
        Locale::De => [
            "Titel",
            "Status",
            "Währung",
            "Steuerart",
            "Steuersatz",
            "Netto",
            "Steuer",
            "Brutto",
        ],
    };
    std::array::from_fn(|i| match i.checked_sub(head.len()) {
        None => head[i],
        Some(t) => tail[t],
    })
}

/// A document status as the CSVs write it (issue 34): its wire word (`partially_paid`),
/// or with `locale=de` the German word the app shows ("Teilweise bezahlt"); an unknown
/// word stays as it is.
pub fn status_text(status: &str, locale: Locale) -> &str {
    if locale != Locale::De {
        return status;
    }
    match status {
        "draft" => "Entwurf",
        "created" => "Offen",
        "sent" => "Versendet",
        "partially_paid" => "Teilweise bezahlt",
        "paid" => "Bezahlt",
        "overdue" => "Überfällig",
        "ignored" => "Ignoriert",
        "pending" => "Ungeprüft",
        "approved" => "Freigegeben",
        other => other,
    }
}

/// A VAT category as the CSVs write it (issue 34): its wire word (`reverse_charge`), or
/// with `locale=de` in German ("Reverse-Charge", "innergemeinschaftlich", …).
pub fn category_text(category: TaxCategory, locale: Locale) -> &'static str {
    if locale != Locale::De {
        return category.as_str();
    }
    match category {
        TaxCategory::Standard => "Regelsteuersatz",
        TaxCategory::Reduced => "ermäßigter Steuersatz",
        TaxCategory::Zero => "Nullsatz",
        TaxCategory::Exempt => "steuerfrei",
        TaxCategory::ReverseCharge => "Reverse-Charge",
        TaxCategory::IntraEu => "innergemeinschaftlich",
        TaxCategory::Export => "Ausfuhr",
    }
}

/// One CSV row of a VAT group: the document's six own columns (`head`), then title,
/// status, currency (`cur`), the group's category and rate (percent) and its net, tax and
/// gross amounts (currency units) — the common tail of `invoices.csv` and `purchases.csv`.
fn group_row(
    head: [String; 6],
    title: &str,
    status: &str,
    cur: &str,
    g: &TaxGroup,
    locale: Locale,
) -> Vec<String> {
    let mut row = head.to_vec();
    row.extend([
        title.to_string(),
        status_text(status, locale).to_string(),
        cur.to_string(),
        category_text(g.category, locale).to_string(),
        rate_text(g.rate, locale),
        amount_text(g.net, cur, locale),
        amount_text(g.tax, cur, locale),
        amount_text(g.gross, cur, locale),
    ]);
    row
}

/// The rows of one invoice in `invoices.csv`: one per VAT group ([`invoice_groups`]);
/// an invoice without counted positions gives none. `None` when a sum does not fit.
pub fn invoice_rows(
    invoice: &Invoice,
    customer: &Party,
    locale: Locale,
) -> Option<Vec<Vec<String>>> {
    let cur = invoice.currency.as_str();
    let debtor = datev::debtor_account(customer.number, customer.id);
    Some(
        invoice_groups(invoice)?
            .into_iter()
            .map(|g| {
                let head = [
                    invoice.identifier.clone().unwrap_or_default(),
                    date_text(invoice.date, locale),
                    date_text(invoice.due_date, locale),
                    customer.name.clone(),
                    debtor.to_string(),
                    customer.vat_identifier.clone().unwrap_or_default(),
                ];
                group_row(
                    head,
                    &invoice.title,
                    invoice.status.as_str(),
                    cur,
                    &g,
                    locale,
                )
            })
            .collect(),
    )
}

/// The column names of `purchases.csv`.
pub fn purchase_header(locale: Locale) -> [&'static str; 14] {
    let head = match locale {
        Locale::En => [
            "number",
            "receipt_number",
            "date",
            "due_date",
            "supplier",
            "credit_number",
        ],
        Locale::De => [
            "Belegnummer",
            "Rechnungsnummer Lieferant",
            "Belegdatum",
            "Fälligkeit",
            "Lieferant",
            "Kreditor",
        ],
    };
    header(head, locale)
}

/// The rows of one purchase in `purchases.csv`: one per VAT group
/// ([`purchase_groups`] without accounts). `None` when a sum does not fit.
pub fn purchase_rows(
    purchase: &Purchase,
    supplier: &Party,
    locale: Locale,
) -> Option<Vec<Vec<String>>> {
    let cur = purchase.currency.as_str();
    let creditor = datev::creditor_account(supplier.number, supplier.id);
    Some(
        purchase_groups(purchase, false)?
            .into_iter()
            .map(|g| {
                let head = [
                    purchase.identifier.clone(),
                    purchase.receipt_identifier.clone(),
                    date_text(purchase.date, locale),
                    purchase
                        .due_date
                        .map(|d| date_text(d, locale))
                        .unwrap_or_default(),
                    supplier.name.clone(),
                    creditor.to_string(),
                ];
                group_row(
                    head,
                    &purchase.title,
                    purchase.status.as_str(),
                    cur,
                    &g,
                    locale,
                )
            })
            .collect(),
    )
}

fn booking_text(name: &str, what: &str) -> String {
    format!("{} {}", name.trim(), what.trim())
        .trim()
        .to_string()
}

/// The DATEV bookings of an invoice: one per VAT group, the customer's debtor account
/// debited (`Konto`), the category's revenue account from `settings` (`Gegenkonto`),
/// the BU-Schlüssel where that account is not automatic, Buchungstext "<customer>
/// <title>", the customer's VAT identifier on intra-EU and reverse-charge groups. Groups
/// of amount 0 are left out. `None` when a sum does not fit.
pub fn invoice_bookings(
    invoice: &Invoice,
    customer: &Party,
    settings: &DatevSettings,
) -> Option<Vec<Booking>> {
    let debtor = datev::debtor_account(customer.number, customer.id);
    Some(
        invoice_groups(invoice)?
            .into_iter()
            .filter(|g| !g.gross.is_zero())
            .map(|g| {
                let account = settings.revenue_accounts.of(g.category);
                Booking {
                    gross: g.gross,
                    side: Side::Revenue,
                    currency: invoice.currency.clone(),
                    account: debtor,
                    contra_account: account,
                    bu_key: datev::bu_key(Side::Revenue, account, g.category, g.rate),
                    date: invoice.date,
                    document: invoice.identifier.clone().unwrap_or_default(),
                    text: booking_text(&customer.name, &invoice.title),
                    vat_identifier: matches!(
                        g.category,
                        TaxCategory::IntraEu | TaxCategory::ReverseCharge
                    )
                    .then(|| customer.vat_identifier.clone())
                    .flatten(),
                }
            })
            .collect(),
    )
}

/// Whether a purchase goes to the bookkeeping (the DATEV file): only once it is approved —
/// a pending purchase has not been checked, and booking it would claim input VAT for an
/// invoice nobody accepted (issue 29 § Books that stay whole).
pub fn purchase_is_bookable(purchase: &Purchase) -> bool {
    purchase.status == crate::purchase::PurchaseStatus::Approved
}

/// The DATEV bookings of a purchase: one per VAT group and expense account, the
/// supplier's creditor account credited (`Konto`), the expense account (`Gegenkonto`),
/// the BU-Schlüssel where that account is not automatic, Belegfeld 1 our number,
/// Buchungstext "<supplier> <receipt number>". Groups of amount 0 are left out. `None`
/// when a sum does not fit.
pub fn purchase_bookings(purchase: &Purchase, supplier: &Party) -> Option<Vec<Booking>> {
    let creditor = datev::creditor_account(supplier.number, supplier.id);
    Some(
        purchase_groups(purchase, true)?
            .into_iter()
            .filter(|g| !g.gross.is_zero())
            .map(|g| Booking {
                gross: g.gross,
                side: Side::Expense,
                currency: purchase.currency.clone(),
                account: creditor,
                contra_account: g.account,
                bu_key: datev::bu_key(Side::Expense, g.account, g.category, g.rate),
                date: purchase.date,
                document: purchase.identifier.clone(),
                text: booking_text(&supplier.name, &purchase.receipt_identifier),
                vat_identifier: None,
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests;
