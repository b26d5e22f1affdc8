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
use kontor_model::dunning::{amount_due, fill_text, DunningLevel};
use kontor_model::invoice::Invoice;
use kontor_model::money::minor_units;
use kontor_model::number_input::{format_exact, format_number, Locale};
use kontor_model::offer::Offer;
use kontor_model::payment::Reminder;
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

/// The printed offer in the customer's language: optional positions marked (and not
/// counted), detail columns per `print_detail_columns`.
pub fn offer_document(
    offer: &Offer,
    account: &AccountProfile,
    paper: Option<&LetterPaperConfig>,
    customer: &DocumentCustomer,
) -> ApiResult<DocumentData> {
    let language = customer.language;
    let w = language.words();
    let currency = offer.currency.as_str();
    let items = offer.items.clone().unwrap_or_default();
    let amounts: Vec<PositionAmounts> = items.iter().map(|i| i.amounts()).collect();
    let document = VatChoice {
        tax: offer.tax,
        reverse_charge: offer.vat.reverse_charge,
        intra_eu: offer.vat.intra_eu,
    };
    let totals = compute_document_totals(&amounts, offer.discount, &document, currency)?;
    let stored: Vec<StoredVat> = items
        .iter()
        .map(|i| {
            let reason = i.tax_exemption_reason.as_deref();
            (i.kind, i.tax, i.tax_category, reason)
        })
        .collect();
    let (rates, vat_notes) = position_vats(&stored, &document, &totals, language);
    let printed: Vec<PrintPosition> = items
        .iter()
        .zip(rates)
        .map(|(i, tax_rate)| PrintPosition {
            kind: i.kind,
            title: i.title.as_deref().unwrap_or(""),
            description: i.description.as_deref(),
            quantity: i.quantity,
            unit: i.unit.as_deref(),
            unit_price: i.unit_price,
            optional: i.optional,
            tax_rate,
        })
        .collect();
    let mut meta = vec![
        (w.offer_number.to_string(), offer.identifier.clone()),
        (w.offer_date.into(), print_date(offer.date, language)),
        (w.valid_until.into(), print_date(offer.due_date, language)),
    ];
    if let Some(user) = &offer.user {
        meta.push((
            w.contact.into(),
            format!("{} {}", user.firstname, user.lastname),
        ));
    }
    let mut notes = vec![fill(
        w.offer_valid,
        &[("date", &print_date(offer.due_date, language))],
    )];
    if items.iter().any(|i| i.optional) {
        notes.push(w.optional_note.into());
    }
    notes.extend(vat_notes);
    Ok(DocumentData {
        heading: fill(w.offer_heading, &[("number", &offer.identifier)]),
        subject: offer.title.clone(),
        letterhead: letterhead(account, paper, language),
        recipient_lines: address_lines(&offer.recipient_address),
        meta,
        salutation: blocks(offer.salutation.as_deref().unwrap_or("")),
        detail_columns: offer.print_detail_columns,
        sections: sections(&printed, &totals.positions, currency, language),
        totals: total_lines(&totals, offer.discount, currency, language),
        notes,
        footer: blocks(offer.footer.as_deref().unwrap_or("")),
        labels: Labels::of(language),
        qr_bill: None,
    })
}

/// The payment line: "please transfer `amount` (printed) by `due`" to the account's IBAN
/// (with its BIC) when one is set, else without a bank account.
fn payment_line(
    account: &AccountProfile,
    amount: &str,
    due: NaiveDate,
    language: Language,
) -> String {
    let w = language.words();
    let due = print_date(due, language);
    match set(&account.iban) {
        Some(iban) => {
            let mut iban = group_iban(iban);
            if let Some(bic) = set(&account.bic) {
                iban = format!("{iban} (BIC {bic})");
            }
            fill(
                w.pay_to_iban,
                &[("amount", amount), ("date", &due), ("iban", &iban)],
            )
        }
        None => fill(w.pay, &[("amount", amount), ("date", &due)]),
    }
}

/// The printed invoice in the customer's language (also the live preview of an unsaved
/// one, and reversals). The payment line names the account's IBAN when one is set.
pub fn invoice_document(
    invoice: &Invoice,
    account: &AccountProfile,
    paper: Option<&LetterPaperConfig>,
    customer: &DocumentCustomer,
) -> ApiResult<DocumentData> {
    let language = customer.language;
    let w = language.words();
    let date = |d: NaiveDate| print_date(d, language);
    let currency = invoice.currency.as_str();
    let items = invoice.items.clone().unwrap_or_default();
    let amounts: Vec<PositionAmounts> = items.iter().map(|i| i.amounts()).collect();
    let document = invoice.vat_choice();
    let totals = compute_document_totals(&amounts, invoice.discount, &document, currency)?;

    let stored: Vec<StoredVat> = items
        .iter()
        .map(|i| {
            let reason = i.tax_exemption_reason.as_deref();
            (i.kind, i.tax, i.tax_category, reason)
        })
        .collect();
    let (rates, vat_notes) = position_vats(&stored, &document, &totals, language);
    let printed: Vec<PrintPosition> = items
        .iter()
        .zip(rates)
        .map(|(i, tax_rate)| PrintPosition {
            kind: i.kind,
            title: &i.title,
            description: i.description.as_deref(),
            quantity: i.quantity,
            unit: i.unit.as_deref(),
            unit_price: i.unit_price,
            optional: false,
            tax_rate,
        })
        .collect();
    let sections = sections(&printed, &totals.positions, currency, language);
    let lines = total_lines(&totals, invoice.discount, currency, language);

    let number = invoice.identifier.clone().unwrap_or_else(|| w.draft.into());
    let mut meta = vec![
        (w.invoice_number.to_string(), number.clone()),
        (w.invoice_date.into(), date(invoice.date)),
        (w.due_date.into(), date(invoice.due_date)),
    ];
    if let (Some(from), Some(to)) = (invoice.service_period_from, invoice.service_period_to) {
        meta.push((
            w.service_period.into(),
            format!("{} – {}", date(from), date(to)),
        ));
    }
    if let Some(user) = &invoice.user {
        meta.push((
            w.contact.into(),
            format!("{} {}", user.firstname, user.lastname),
        ));
    }
    let zero_rated_abroad = totals.groups.iter().any(|g| {
        matches!(
            g.category,
            TaxCategory::ReverseCharge | TaxCategory::IntraEu
        )
    });
    if invoice.vat.reverse_charge || invoice.vat.intra_eu || zero_rated_abroad {
        if let Some(vat_id) = &customer.vat_identifier {
            meta.push((w.customer_vat_id.into(), vat_id.clone()));
        }
    }

    let mut notes = Vec::new();
    let gross = money(invoice.gross_total, currency, language);
    if invoice.reversal {
        notes.push(w.reversal_note.to_string());
    } else {
        notes.push(payment_line(account, &gross, invoice.due_date, language));
    }
    if !invoice.cash_discount.is_zero() && invoice.cash_discount_days > 0 && !invoice.reversal {
        let reduced = mul_round(
            invoice.gross_total,
            invoice.cash_discount / Decimal::ONE_HUNDRED,
            minor_units(currency),
        )
        .and_then(|d| invoice.gross_total.checked_sub(d))
        .ok_or_else(|| ApiError::field("cash_discount", "is out of range"))?;
        let by = invoice
            .date
            .checked_add_signed(Duration::days(invoice.cash_discount_days))
            .ok_or_else(|| ApiError::field("cash_discount_days", "is out of range"))?;
        notes.push(fill(
            w.cash_discount,
            &[
                ("percent", &plain(invoice.cash_discount, language)),
                ("date", &date(by)),
                ("amount", &money(reduced, currency, language)),
            ],
        ));
    }
    notes.extend(vat_notes);

    Ok(DocumentData {
        heading: fill(
            if invoice.reversal {
                w.reversal_heading
            } else {
                w.invoice_heading
            },
            &[("number", &number)],
        ),
        subject: invoice.title.clone(),
        letterhead: letterhead(account, paper, language),
        recipient_lines: address_lines(&invoice.recipient_address),
        meta,
        salutation: blocks(invoice.salutation.as_deref().unwrap_or("")),
        detail_columns: true,
        sections,
        totals: lines,
        notes,
        footer: blocks(invoice.footer.as_deref().unwrap_or("")),
        labels: Labels::of(language),
        qr_bill: qr_bill_data(invoice, account, customer),
    })
}

/// The Swiss QR-bill of `invoice` when `kontor_model::qr_bill::applies` (numbered, not a
/// reversal, CHF or EUR, a CH/LI account IBAN): creditor = the account holder (else the
/// account name) at the account's address and country (else the IBAN's country),
/// debtor = the customer company, message = the invoice heading. Data the QR-bill
/// cannot carry (e.g. an account address without post code) leaves it out with a
/// warning in the log: the invoice still prints, with its IBAN payment line.
fn qr_bill_data(
    invoice: &Invoice,
    account: &AccountProfile,
    customer: &DocumentCustomer,
) -> Option<QrBillData> {
    let number = invoice.identifier.as_deref()?;
    let message = fill(
        customer.language.words().invoice_heading,
        &[("number", number)],
    );
    qr_bill_for(invoice, invoice.gross_total, &message, account, customer)
}

/// The Swiss QR-bill asking for `amount` (currency units) against `invoice` with
/// `message` as its additional information: the invoice's when printing the invoice, the
/// amount due when printing a reminder. `None` as in [`qr_bill_data`].
fn qr_bill_for(
    invoice: &Invoice,
    amount: Decimal,
    message: &str,
    account: &AccountProfile,
    customer: &DocumentCustomer,
) -> Option<QrBillData> {
    use kontor_model::qr_bill::{applies, qr_bill, QrBillInput};
    let iban = set(&account.iban);
    let number = invoice.identifier.as_deref();
    if !applies(&invoice.currency, iban, number.is_some(), invoice.reversal) {
        return None;
    }
    let (iban, number) = (iban?, number?);
    let language = customer.language;
    let input = QrBillInput {
        iban,
        currency: &invoice.currency,
        amount,
        invoice_number: number,
        creditor_name: set(&account.account_holder).unwrap_or(&account.name),
        creditor_address: &account.address,
        creditor_country: set(&account.country_code).or(iban.get(..2)),
        debtor_name: &customer.name,
        debtor_address: &customer.address,
        debtor_country: customer.country_code.as_deref(),
        message,
    };
    let bill = match qr_bill(&input) {
        Ok(bill) => bill,
        Err(errors) => {
            tracing::warn!(
                ?errors,
                invoice = invoice.id,
                "invoice printed without QR-bill"
            );
            return None;
        }
    };
    let svg = match qr_svg(&bill.payload()) {
        Ok(svg) => svg,
        Err(e) => {
            tracing::warn!(error = %e, invoice = invoice.id, "invoice printed without QR-bill");
            return None;
        }
    };
    Some(QrBillData {
        svg,
        labels: QrBillLabels::of(language),
        account: group_iban(&bill.iban),
        creditor_lines: bill.creditor.lines(),
        reference: bill.reference.printed(),
        additional_information: bill.message.clone(),
        debtor_lines: bill.debtor.as_ref().map(|d| d.lines()).unwrap_or_default(),
        currency: bill.currency.clone(),
        amount: bill
            .amount
            .map(kontor_model::qr_bill::printed_amount)
            .unwrap_or_default(),
    })
}

/// The name of a dunning level in `language` ("Mahnung" / "First dunning notice"); a
/// level the account no longer has is a "Zahlungserinnerung" / "Payment reminder".
pub fn level_name(level: Option<&DunningLevel>, language: Language) -> String {
    match (level, language) {
        (Some(l), Language::De) => l.name.de.clone(),
        (Some(l), Language::En) => l.name.en.clone(),
        (None, Language::De) => "Zahlungserinnerung".into(),
        (None, Language::En) => "Payment reminder".into(),
    }
}

/// The reminder letter (issue 14 § API, `GET /invoice_reminders/{id}.pdf`) in the
/// customer's language on `paper` (`None` = blank): the heading names the dunning level
/// (`level`, the account's; "Reminder" when the level no longer exists); the meta the
/// reminder's date, the invoice's number, date and original due date and the new due
/// date; the text is the reminder's own, else the level's template with its placeholders
/// filled; the open items are the invoice's gross and the payments received by the
/// reminder's date; the totals the open amount it claims, the fee, the § 288 (5) flat
/// fee, the default interest (rate, days) and the amount due
/// ([`kontor_model::dunning::amount_due`]); the payment line names the bank account and
/// the new due date; Swiss accounts get the QR-bill for the amount due.
/// Errors: 500 when the stored amounts overflow.
pub fn reminder_document(
    reminder: &Reminder,
    invoice: &Invoice,
    level: Option<&DunningLevel>,
    account: &AccountProfile,
    paper: Option<&LetterPaperConfig>,
    customer: &DocumentCustomer,
) -> ApiResult<DocumentData> {
    let language = customer.language;
    let w = language.words();
    let date = |d: NaiveDate| print_date(d, language);
    let currency = invoice.currency.as_str();
    let cash = |value: Decimal| money(value, currency, language);
    let number = invoice.identifier.clone().unwrap_or_default();
    let level_name = level_name(level, language);
    let paid_by_then: Vec<&kontor_model::payment::Payment> = invoice
        .payments
        .iter()
        .flatten()
        .filter(|p| p.date <= reminder.date)
        .collect();
    let open = match reminder.open_amount {
        Some(open) => open,
        None => paid_by_then
            .iter()
            .try_fold(invoice.gross_total, |open, p| {
                open.checked_sub(p.paid_total)?.checked_sub(p.cash_discount)
            })
            .ok_or_else(|| ApiError::Internal("stored payments overflow".into()))?,
    };
    let due = amount_due(open, reminder.fee, reminder.flat_fee, reminder.interest)
        .ok_or_else(|| ApiError::Internal("stored reminder amounts overflow".into()))?;

    let mut rows = vec![Row {
        kind: "item".into(),
        pos: "1".into(),
        title: fill(
            w.reminder_invoice_row,
            &[("number", &number), ("date", &date(invoice.date))],
        ),
        net_total: cash(invoice.gross_total),
        ..Row::default()
    }];
    for (i, p) in paid_by_then.iter().enumerate() {
        rows.push(Row {
            kind: "item".into(),
            pos: (i + 2).to_string(),
            title: fill(w.reminder_payment_row, &[("date", &date(p.date))]),
            net_total: cash(
                -p.paid_total
                    .checked_add(p.cash_discount)
                    .ok_or_else(|| ApiError::Internal("stored payment overflows".into()))?,
            ),
            ..Row::default()
        });
    }
    let line = |label: String, value: Decimal, strong: bool| TotalLine {
        label,
        amount: cash(value),
        strong,
    };
    let mut totals = vec![line(w.open_amount.into(), open, false)];
    if !reminder.fee.is_zero() {
        totals.push(line(w.reminder_fee.into(), reminder.fee, false));
    }
    if !reminder.flat_fee.is_zero() {
        totals.push(line(w.flat_fee.into(), reminder.flat_fee, false));
    }
    if let Some(rate) = reminder.interest_rate {
        let label = fill(
            w.interest_row,
            &[
                ("rate", &plain(rate, language)),
                ("days", &reminder.days_overdue.to_string()),
            ],
        );
        totals.push(line(label, reminder.interest, false));
    }
    totals.push(line(w.amount_due.into(), due, true));

    let fees = reminder
        .fee
        .checked_add(reminder.flat_fee)
        .ok_or_else(|| ApiError::Internal("stored reminder fees overflow".into()))?;
    let values = [
        ("invoice_number", number.clone()),
        ("invoice_date", date(invoice.date)),
        ("open_amount", cash(open)),
        ("due_date", date(invoice.due_date)),
        ("fees", cash(fees)),
        ("interest", cash(reminder.interest)),
        ("new_due_date", date(reminder.due_date)),
    ];
    let values: Vec<(&str, &str)> = values.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let salutation = if reminder.text.trim().is_empty() {
        let template = match (level, language) {
            (Some(l), Language::De) => l.text.de.as_str(),
            (Some(l), Language::En) => l.text.en.as_str(),
            (None, _) => "",
        };
        plain_blocks(&fill_text(template, &values))
    } else {
        blocks(&reminder.text)
    };
    let pay = payment_line(account, &cash(due), reminder.due_date, language);
    let heading = fill(
        w.reminder_heading,
        &[("level", &level_name), ("number", &number)],
    );
    let qr_bill = qr_bill_for(invoice, due, &heading, account, customer);
    Ok(DocumentData {
        heading,
        subject: invoice.title.clone(),
        letterhead: letterhead(account, paper, language),
        recipient_lines: address_lines(&invoice.recipient_address),
        meta: vec![
            (w.date.into(), date(reminder.date)),
            (w.invoice_number.into(), number.clone()),
            (w.invoice_date.into(), date(invoice.date)),
            (w.due_since.into(), date(invoice.due_date)),
            (w.pay_by.into(), date(reminder.due_date)),
        ],
        salutation,
        detail_columns: false,
        sections: vec![rows],
        totals,
        notes: vec![pay],
        footer: Vec::new(),
        labels: Labels::of(language),
        qr_bill,
    })
}

/// The time sheet of an invoice in the customer's language: one row per billed activity
/// (date, description, user, hours, rate, amount) and the total hours.
pub fn timesheet_document(
    invoice: &Invoice,
    activities: &[Activity],
    account: &AccountProfile,
    paper: Option<&LetterPaperConfig>,
    customer: &DocumentCustomer,
) -> ApiResult<DocumentData> {
    let language = customer.language;
    let w = language.words();
    let currency = invoice.currency.as_str();
    let corrupt = || ApiError::Internal("stored activity hours × rate overflow".into());
    let amounts = activities
        .iter()
        .map(|a| mul_round(a.hours, a.hourly_rate, minor_units(currency)).ok_or_else(corrupt))
        .collect::<ApiResult<Vec<Decimal>>>()?;
    let short_date = match language {
        Language::De => "%d.%m.",
        Language::En => "%-d %b",
    };
    let rows = activities
        .iter()
        .zip(&amounts)
        .map(|(a, net)| Row {
            kind: "item".into(),
            pos: a.date.format(short_date).to_string(),
            title: if a.description.is_empty() {
                a.project.name.clone()
            } else {
                a.description.clone()
            },
            description: a
                .user
                .as_ref()
                .map(|u| {
                    plain_blocks(&format!(
                        "{} {} · {}",
                        u.firstname, u.lastname, a.project.name
                    ))
                })
                .unwrap_or_default(),
            quantity: plain(a.hours, language),
            unit: "h".into(),
            unit_price: amount(a.hourly_rate, currency, language),
            net_total: amount(*net, currency, language),
            optional: false,
            tax_rate: String::new(),
        })
        .collect();
    fn sum(values: impl IntoIterator<Item = Decimal>) -> Option<Decimal> {
        values
            .into_iter()
            .try_fold(Decimal::ZERO, |s, v| s.checked_add(v))
    }
    let hours = sum(activities.iter().map(|a| a.hours)).ok_or_else(corrupt)?;
    let total = sum(amounts.iter().copied()).ok_or_else(corrupt)?;
    let number = invoice.identifier.clone().unwrap_or_else(|| w.draft.into());
    Ok(DocumentData {
        heading: fill(w.timesheet_heading, &[("number", &number)]),
        subject: invoice.title.clone(),
        letterhead: letterhead(account, paper, language),
        recipient_lines: address_lines(&invoice.recipient_address),
        meta: vec![
            (w.invoice_number.into(), number),
            (w.invoice_date.into(), print_date(invoice.date, language)),
        ],
        detail_columns: true,
        sections: vec![rows],
        totals: vec![
            TotalLine {
                label: w.total_hours.into(),
                amount: format!("{} h", plain(hours, language)),
                strong: true,
            },
            TotalLine {
                label: w.amount.into(),
                amount: money(total, currency, language),
                strong: false,
            },
        ],
        labels: Labels {
            pos: w.date.into(),
            quantity: w.hours.into(),
            unit_price: w.rate.into(),
            ..Labels::of(language)
        },
        ..Default::default()
    })
}

#[cfg(test)]
mod tests;
