//! The accountant's exports (issue 11, "For the accountant"; `docs/decisions.md`
//! § Exports (issue 11)): the period parameters, the rows of `invoices.csv` and
//! `purchases.csv` (one per document and tax rate), the DATEV bookings built from the same
//! groups ([`crate::datev`]), number and date formats per locale, and the file names of
//! the downloads and of the ZIP's entries.
//!
//! The server writes the rows with the `csv` crate; everything here is pure.

use crate::datev::{self, Booking, DatevSettings, Side};
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
            push_error(&mut e, field, "is required");
            None
        }
        Some(text) => match crate::wire::parse_date(text) {
            Ok(d) => Some(d),
            Err(m) => {
                push_error(&mut e, field, m);
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
            push_error(&mut e, "locale", "must be de or en");
            None
        }
    };
    if let (Some(f), Some(t)) = (from, to) {
        if f > t {
            push_error(&mut e, "to", "must not be before from");
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
            "debtor_number",
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
        status.to_string(),
        cur.to_string(),
        g.category.as_str().to_string(),
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
            "creditor_number",
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
mod tests {
    use super::*;

    fn date(y: i32, m: u32, d: u32) -> NaiveDate {
        NaiveDate::from_ymd_opt(y, m, d).unwrap()
    }

    fn invoice() -> Invoice {
        serde_json::from_str(
            r#"{
            "id": 4, "customer_id": 3, "project_id": null, "identifier": "R2611-004",
            "date": "2026-11-05", "due_date": "2026-11-19", "service_period": null,
            "service_period_from": null, "service_period_to": null, "status": "sent",
            "reversed": false, "reversal_invoice_id": null, "reversal": false,
            "reversed_invoice_id": null, "title": "Hosting; \"November\"", "recipient_address": "",
            "currency": "EUR", "net_total": 1100.00, "tax": 19,
            "vat": {"tax": 19, "reverse_charge": false, "intra_eu": false},
            "tax_breakdown": [
                {"tax_category": "standard", "tax": 19, "net_total": 1000.00, "tax_total": 190.00},
                {"tax_category": "reduced", "tax": 7, "net_total": 100.00, "tax_total": 7.00}
            ],
            "gross_total": 1297.00, "discount": 0, "cash_discount": 0,
            "cash_discount_days": 0, "debit_number": null, "credit_number": null,
            "locked": true, "activity_hours_modified": false, "custom_properties": {},
            "tags": [], "file_url": null, "user": null, "created_at": "2026-11-05T10:00:00Z",
            "updated_at": "2026-11-05T10:00:00Z"
        }"#,
        )
        .expect("invoice")
    }

    fn item(
        title: &str,
        net: &str,
        tax_total: &str,
        gross: &str,
        tax: &str,
        account: Option<&str>,
    ) -> String {
        let category = match account {
            Some(a) => format!(
                r#"{{"id": 1, "name": "Office", "credit_account": "{a}",
                "created_at": "2026-11-01T00:00:00Z", "updated_at": "2026-11-01T00:00:00Z"}}"#
            ),
            None => "null".into(),
        };
        format!(
            r#"{{"id": 1, "title": "{title}", "net_total": {net}, "tax_total": {tax_total}, "tax": {tax},
            "vat": {{"tax": {tax}, "reverse_charge": false, "intra_eu": false, "active": true}},
            "tax_included": false, "gross_total": {gross}, "category": {category},
            "supplier_credit_number": null, "expense": null}}"#
        )
    }

    fn purchase() -> Purchase {
        let items = [
            item("Paper", "100.00", "19.00", "119.00", "19", Some("4930")),
            item("Toner", "100.00", "19.00", "119.00", "19", None),
            item("Books", "100.00", "7.00", "107.00", "7", None),
            item("Stamps", "5.00", "0.00", "5.00", "0", None),
        ]
        .join(",");
        serde_json::from_str(&format!(
            r#"{{
            "id": 9, "identifier": "E2611-0001", "receipt_identifier": "INV-77", "title": "Paper",
            "info": null, "iban": "", "reference": null, "date": "2026-11-10", "due_date": null,
            "service_period_from": null, "service_period_to": null, "status": "pending",
            "payment_method": "bank_transfer", "net_total": 305.00, "gross_total": 350.00,
            "currency": "EUR", "file_url": null, "file_content_type": null,
            "custom_properties": {{}}, "tags": [], "company": null, "payments": [], "user": null,
            "items": [{items}],
            "created_at": "2026-11-10T00:00:00Z", "updated_at": "2026-11-10T00:00:00Z"
        }}"#
        ))
        .expect("purchase")
    }

    fn customer() -> Party {
        Party {
            id: 3,
            name: "Kranzler GmbH".into(),
            number: None,
            vat_identifier: Some("DE136308783".into()),
        }
    }

    #[test]
    fn only_approved_purchases_are_booked() {
        let mut p = purchase();
        assert!(!purchase_is_bookable(&p), "pending");
        p.status = crate::purchase::PurchaseStatus::Approved;
        assert!(purchase_is_bookable(&p));
    }

    #[test]
    fn periods_name_the_bad_parameter() {
        let p = parse_period(Some("2026-11-01"), Some("2026-11-30"), Some("de")).unwrap();
        assert_eq!(
            (p.from, p.to, p.locale),
            (date(2026, 11, 1), date(2026, 11, 30), Locale::De)
        );
        assert_eq!(
            parse_period(Some("2026-11-01"), Some("2026-11-01"), None)
                .unwrap()
                .locale,
            Locale::En
        );
        let keys = |e: FieldErrors| e.into_keys().collect::<Vec<_>>();
        assert_eq!(
            keys(parse_period(None, Some(""), None).unwrap_err()),
            ["from", "to"]
        );
        assert_eq!(
            keys(parse_period(Some("2026-13-01"), Some("x"), None).unwrap_err()),
            ["from", "to"]
        );
        assert_eq!(
            keys(parse_period(Some("2026-12-01"), Some("2026-11-30"), None).unwrap_err()),
            ["to"]
        );
        assert_eq!(
            keys(parse_period(Some("2026-11-01"), Some("2026-11-30"), Some("fr")).unwrap_err()),
            ["locale"]
        );
    }

    #[test]
    fn quick_periods_seen_from_today() {
        let today = date(2026, 1, 15);
        assert_eq!(
            QuickPeriod::ThisMonth.range(today),
            (date(2026, 1, 1), date(2026, 1, 31))
        );
        assert_eq!(
            QuickPeriod::LastMonth.range(today),
            (date(2025, 12, 1), date(2025, 12, 31))
        );
        assert_eq!(
            QuickPeriod::ThisQuarter.range(date(2026, 11, 23)),
            (date(2026, 10, 1), date(2026, 12, 31))
        );
        assert_eq!(
            QuickPeriod::LastYear.range(today),
            (date(2025, 1, 1), date(2025, 12, 31))
        );
        assert_eq!(
            QuickPeriod::LastMonth.range(date(2026, 3, 31)),
            (date(2026, 2, 1), date(2026, 2, 28))
        );
    }

    #[test]
    fn headers_name_every_column_in_order() {
        assert_eq!(
            invoice_header(Locale::En),
            [
                "number",
                "date",
                "due_date",
                "customer",
                "debtor_number",
                "vat_identifier",
                "title",
                "status",
                "currency",
                "tax_category",
                "tax_rate",
                "net",
                "tax",
                "gross"
            ]
        );
        assert_eq!(
            purchase_header(Locale::De),
            [
                "Belegnummer",
                "Rechnungsnummer Lieferant",
                "Belegdatum",
                "Fälligkeit",
                "Lieferant",
                "Kreditor",
                "Titel",
                "Status",
                "Währung",
                "Steuerart",
                "Steuersatz",
                "Netto",
                "Steuer",
                "Brutto"
            ]
        );
    }

    #[test]
    fn names_of_files_and_entries() {
        let p = parse_period(Some("2026-11-01"), Some("2026-11-30"), None).unwrap();
        assert_eq!(
            file_name("invoices", &p, "csv"),
            "invoices_2026-11-01_2026-11-30.csv"
        );
        assert_eq!(
            entry_name("invoices", "R2611-004", date(2026, 11, 5), "pdf"),
            "invoices/R2611-004_2026-11-05.pdf"
        );
        assert_eq!(
            entry_name("purchases", "../x/y", date(2026, 11, 5), "png"),
            "purchases/___x_y_2026-11-05.png"
        );
        assert_eq!(extension("image/jpeg"), "jpg");
        assert_eq!(extension("application/xml"), "xml");
    }

    #[test]
    fn numbers_and_dates_per_locale() {
        let a = Decimal::new(-123450, 2);
        assert_eq!(amount_text(a, "EUR", Locale::En), "-1234.50");
        assert_eq!(amount_text(a, "EUR", Locale::De), "-1234,50");
        assert_eq!(amount_text(Decimal::new(1235, 1), "JPY", Locale::De), "124");
        assert_eq!(rate_text(Decimal::new(550, 2), Locale::De), "5,5");
        assert_eq!(rate_text(Decimal::new(1900, 2), Locale::En), "19");
        assert_eq!(date_text(date(2026, 11, 5), Locale::De), "05.11.2026");
        assert_eq!(date_text(date(2026, 11, 5), Locale::En), "2026-11-05");
    }

    #[test]
    fn an_invoice_with_two_rates_gives_two_rows() {
        let rows = invoice_rows(&invoice(), &customer(), Locale::De).unwrap();
        assert_eq!(rows.len(), 2);
        assert_eq!(rows[0][0], "R2611-004");
        assert_eq!(rows[0][4], "10003");
        assert_eq!(
            &rows[0][9..],
            ["standard", "19", "1000,00", "190,00", "1190,00"]
        );
        assert_eq!(&rows[1][9..], ["reduced", "7", "100,00", "7,00", "107,00"]);
        assert_eq!(invoice_header(Locale::En).len(), rows[0].len());
    }

    #[test]
    fn invoice_bookings_go_to_the_revenue_account_of_each_group() {
        let mut settings = DatevSettings::default();
        settings.revenue_accounts.reduced = 8000;
        let b = invoice_bookings(&invoice(), &customer(), &settings).unwrap();
        assert_eq!(b.len(), 2);
        assert_eq!(
            (b[0].account, b[0].contra_account, b[0].bu_key),
            (10003, 8400, None)
        );
        assert_eq!(b[0].gross, Decimal::new(119_000, 2));
        // A non-automatic account gets the BU-Schlüssel of its rate.
        assert_eq!((b[1].contra_account, b[1].bu_key), (8000, Some("2")));
        assert_eq!(b[0].text, "Kranzler GmbH Hosting; \"November\"");
        assert_eq!(b[0].vat_identifier, None);
    }

    #[test]
    fn intra_eu_revenue_carries_the_vat_identifier() {
        let mut inv = invoice();
        inv.tax_breakdown.truncate(1);
        inv.tax_breakdown[0].tax_category = TaxCategory::IntraEu;
        inv.tax_breakdown[0].tax = Decimal::ZERO;
        inv.tax_breakdown[0].tax_total = Decimal::ZERO;
        let b = invoice_bookings(&inv, &customer(), &DatevSettings::default()).unwrap();
        assert_eq!(b[0].contra_account, 8125);
        assert_eq!(b[0].vat_identifier.as_deref(), Some("DE136308783"));
    }

    #[test]
    fn purchases_group_by_rate_and_for_datev_by_account() {
        let p = purchase();
        let supplier = Party {
            id: 5,
            name: "Papier AG".into(),
            number: Some(70100),
            vat_identifier: None,
        };
        let rows = purchase_rows(&p, &supplier, Locale::En).unwrap();
        assert_eq!(rows.len(), 3);
        assert_eq!(&rows[0][10..], ["19", "200.00", "38.00", "238.00"]);
        assert_eq!(rows[0][5], "70100");
        assert_eq!(rows[2][9], "zero");
        let b = purchase_bookings(&p, &supplier).unwrap();
        let accounts: Vec<(u32, Option<&str>)> =
            b.iter().map(|b| (b.contra_account, b.bu_key)).collect();
        assert_eq!(
            accounts,
            [(4930, Some("9")), (3400, None), (3300, None), (3200, None)]
        );
        assert!(b
            .iter()
            .all(|b| b.account == 70100 && b.side == Side::Expense));
        assert_eq!(b[0].text, "Papier AG INV-77");
    }
}
