//! A readable, self-contained HTML view of an incoming e-invoice (issue 10 § Receiving:
//! staff must be able to read what they approve). Served by
//! `GET /purchases/{id}/e_invoice.html` with a Content-Security-Policy that forbids
//! scripts and every load; the page itself has no script, no link and no image, only
//! inline CSS. Every text from the document is HTML-escaped ([`escape`]).

use crate::semantic::{AllowanceCharge, Invoice, Party, PaymentMeans, TypeCode};
use rust_decimal::Decimal;
use std::fmt::Write;

/// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities, so it is text in both
/// element content and quoted attributes.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// The language of the view (issue 34: "the e-invoice view of purchases in the locale").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum ViewLanguage {
    /// English labels, `1,234.50`, `24 Nov 2026`.
    #[default]
    En,
    /// German labels, `1.234,50`, `24.11.2026`.
    De,
}

impl ViewLanguage {
    fn locale(self) -> kontor_model::number_input::Locale {
        match self {
            ViewLanguage::En => kontor_model::number_input::Locale::En,
            ViewLanguage::De => kontor_model::number_input::Locale::De,
        }
    }

    fn de(self) -> bool {
        self == ViewLanguage::De
    }
}

/// The view's words in one language.
struct Words {
    lang: &'static str,
    invoice: &'static str,
    credit_note: &'static str,
    issue_date: &'static str,
    due_date: &'static str,
    service_period: &'static str,
    delivery_date: &'static str,
    currency: &'static str,
    buyer_reference: &'static str,
    order: &'static str,
    preceding_invoice: &'static str,
    specification: &'static str,
    seller: &'static str,
    buyer: &'static str,
    vat_id: &'static str,
    tax_number: &'static str,
    identifier: &'static str,
    registration: &'static str,
    electronic_address: &'static str,
    contact: &'static str,
    phone: &'static str,
    email: &'static str,
    legal_information: &'static str,
    lines: &'static str,
    item: &'static str,
    quantity: &'static str,
    price: &'static str,
    vat: &'static str,
    net: &'static str,
    allowance: &'static str,
    charge: &'static str,
    vat_breakdown: &'static str,
    category: &'static str,
    rate: &'static str,
    taxable: &'static str,
    exemption_reason: &'static str,
    totals: &'static str,
    sum_of_lines: &'static str,
    allowances: &'static str,
    charges: &'static str,
    without_vat: &'static str,
    with_vat: &'static str,
    paid: &'static str,
    rounding: &'static str,
    amount_due: &'static str,
    payment: &'static str,
    means: &'static str,
    credit_transfer: &'static str,
    account_holder: &'static str,
    direct_debit: &'static str,
    mandate: &'static str,
    creditor_id: &'static str,
    debited_iban: &'static str,
    not_stated: &'static str,
    reference: &'static str,
    terms: &'static str,
    notes: &'static str,
}

const EN: Words = Words {
    lang: "en",
    invoice: "Invoice",
    credit_note: "Credit note",
    issue_date: "Issue date",
    due_date: "Due date",
    service_period: "Service period",
    delivery_date: "Delivery date",
    currency: "Currency",
    buyer_reference: "Buyer reference",
    order: "Order",
    preceding_invoice: "Preceding invoice",
    specification: "Specification",
    seller: "Seller",
    buyer: "Buyer",
    vat_id: "VAT ID",
    tax_number: "Tax number",
    identifier: "Identifier",
    registration: "Registration",
    electronic_address: "Electronic address",
    contact: "Contact",
    phone: "Phone",
    email: "E-mail",
    legal_information: "Legal information",
    lines: "Lines",
    item: "Item",
    quantity: "Quantity",
    price: "Price",
    vat: "VAT",
    net: "Net",
    allowance: "Allowance",
    charge: "Charge",
    vat_breakdown: "VAT breakdown",
    category: "Category",
    rate: "Rate",
    taxable: "Taxable",
    exemption_reason: "Exemption reason",
    totals: "Totals",
    sum_of_lines: "Sum of lines",
    allowances: "Allowances",
    charges: "Charges",
    without_vat: "Total without VAT",
    with_vat: "Total with VAT",
    paid: "Paid",
    rounding: "Rounding",
    amount_due: "Amount due",
    payment: "Payment",
    means: "Means",
    credit_transfer: "Credit transfer",
    account_holder: "Account holder",
    direct_debit: "Direct debit",
    mandate: "Mandate",
    creditor_id: "Creditor ID",
    debited_iban: "Debited IBAN",
    not_stated: "not stated",
    reference: "Reference",
    terms: "Terms",
    notes: "Notes",
};

const DE: Words = Words {
    lang: "de",
    invoice: "Rechnung",
    credit_note: "Gutschrift",
    issue_date: "Rechnungsdatum",
    due_date: "Fälligkeitsdatum",
    service_period: "Leistungszeitraum",
    delivery_date: "Lieferdatum",
    currency: "Währung",
    buyer_reference: "Käuferreferenz",
    order: "Bestellung",
    preceding_invoice: "Vorherige Rechnung",
    specification: "Spezifikation",
    seller: "Verkäufer",
    buyer: "Käufer",
    vat_id: "USt-IdNr.",
    tax_number: "Steuernummer",
    identifier: "Kennung",
    registration: "Registereintrag",
    electronic_address: "Elektronische Adresse",
    contact: "Ansprechpartner",
    phone: "Telefon",
    email: "E-Mail",
    legal_information: "Rechtliche Angaben",
    lines: "Positionen",
    item: "Artikel",
    quantity: "Menge",
    price: "Preis",
    vat: "USt.",
    net: "Netto",
    allowance: "Nachlass",
    charge: "Zuschlag",
    vat_breakdown: "Umsatzsteuer",
    category: "Kategorie",
    rate: "Satz",
    taxable: "Bemessungsgrundlage",
    exemption_reason: "Befreiungsgrund",
    totals: "Summen",
    sum_of_lines: "Summe der Positionen",
    allowances: "Nachlässe",
    charges: "Zuschläge",
    without_vat: "Gesamt ohne USt.",
    with_vat: "Gesamt mit USt.",
    paid: "Bereits gezahlt",
    rounding: "Rundung",
    amount_due: "Zu zahlender Betrag",
    payment: "Zahlung",
    means: "Zahlungsart",
    credit_transfer: "Überweisung",
    account_holder: "Kontoinhaber",
    direct_debit: "Lastschrift",
    mandate: "Mandat",
    creditor_id: "Gläubiger-ID",
    debited_iban: "Belastete IBAN",
    not_stated: "nicht angegeben",
    reference: "Verwendungszweck",
    terms: "Zahlungsbedingungen",
    notes: "Bemerkungen",
};

/// A VAT category (UNTDID 5305) in words, with its code (`Regelsteuersatz (S)`).
fn category_words(category: crate::semantic::VatCategory, lang: ViewLanguage) -> String {
    use crate::semantic::VatCategory as C;
    let (en, de) = match category {
        C::Standard => ("Standard rate", "Regelsteuersatz"),
        C::Zero => ("Zero rated", "Nullsatz"),
        C::Exempt => ("Exempt from VAT", "Steuerbefreit"),
        C::ReverseCharge => ("Reverse charge", "Reverse-Charge"),
        C::IntraCommunity => ("Intra-community supply", "Innergemeinschaftliche Lieferung"),
        C::Export => ("Export outside the EU", "Ausfuhr"),
        C::OutsideScope => ("Not subject to VAT", "Nicht steuerbar"),
    };
    format!("{} ({})", if lang.de() { de } else { en }, category.code())
}

/// A unit code (BT-130) in words (`Stunden`), else the code itself.
fn unit_text(code: &str, lang: ViewLanguage) -> String {
    match kontor_model::einvoice::unit_words(code) {
        Some((en, de)) => (if lang.de() { de } else { en }).to_string(),
        None => code.to_string(),
    }
}

/// An amount with two decimals at least (`1234.5` → `1,234.50` / `1.234,50`).
fn money(d: Decimal, lang: ViewLanguage) -> String {
    let places = d.normalize().scale().max(2);
    kontor_model::number_input::format_number(d, places, lang.locale())
}

/// A quantity, price or rate with its own decimals (`2.5` → `2,5` in German).
fn number(d: Decimal, lang: ViewLanguage) -> String {
    kontor_model::number_input::format_exact(d.normalize(), lang.locale())
}

/// A date as the language writes it (`24 Nov 2026` / `24.11.2026`).
fn date(d: chrono::NaiveDate, lang: ViewLanguage) -> String {
    match lang {
        ViewLanguage::De => d.format("%d.%m.%Y").to_string(),
        ViewLanguage::En => d.format("%-d %b %Y").to_string(),
    }
}

fn party(out: &mut String, title: &str, p: &Party, w: &Words) {
    let _ = write!(out, "<section class=\"party\"><h2>{}</h2>", escape(title));
    let _ = write!(out, "<p><strong>{}</strong>", escape(&p.name));
    if let Some(t) = &p.trading_name {
        let _ = write!(out, "<br>{}", escape(t));
    }
    for line in &p.address.lines {
        let _ = write!(out, "<br>{}", escape(line));
    }
    let city = [p.address.post_code.as_deref(), p.address.city.as_deref()]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
    if !city.is_empty() {
        let _ = write!(out, "<br>{}", escape(&city));
    }
    if !p.address.country_code.is_empty() {
        let _ = write!(out, "<br>{}", escape(&p.address.country_code));
    }
    out.push_str("</p><dl>");
    let mut row = |k: &str, v: Option<&str>| {
        if let Some(v) = v {
            let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", escape(k), escape(v));
        }
    };
    row(w.vat_id, p.vat_identifier.as_deref());
    row(w.tax_number, p.tax_number.as_deref());
    row(w.identifier, p.identifier.as_deref());
    row(w.registration, p.legal_registration.as_deref());
    row(
        w.electronic_address,
        p.electronic_address.as_ref().map(|e| e.value.as_str()),
    );
    if let Some(c) = &p.contact {
        row(w.contact, c.name.as_deref());
        row(w.phone, c.phone.as_deref());
        row(w.email, c.email.as_deref());
    }
    row(
        w.legal_information,
        p.additional_legal_information.as_deref(),
    );
    out.push_str("</dl></section>");
}

fn allowance_rows(
    out: &mut String,
    title: &str,
    list: &[AllowanceCharge],
    sign: &str,
    lang: ViewLanguage,
) {
    for a in list {
        let reason = a
            .reason
            .clone()
            .or_else(|| a.reason_code.clone())
            .unwrap_or_default();
        let _ = write!(
            out,
            "<tr><td></td><td>{} {}</td><td></td><td></td><td>{} {} %</td><td class=\"n\">{sign}{}</td></tr>",
            escape(title),
            escape(&reason),
            escape(&category_words(a.category, lang)),
            escape(&number(a.rate, lang)),
            escape(&money(a.amount, lang)),
        );
    }
}

/// The page's only style sheet, inline in `<style>` (the view loads nothing). Servers that
/// show the page under their own Content-Security-Policy allow exactly this sheet by its
/// hash (`'sha256-…'` of these bytes).
pub const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;color:#1f2328;margin:24px;max-width:960px}h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:16px 0 4px}.parties{display:flex;gap:48px;flex-wrap:wrap}dl{display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:4px 0}dt{color:#59636e}dd{margin:0}table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border-bottom:1px solid #d1d9e0;padding:4px 6px;text-align:left;vertical-align:top}.n{text-align:right;white-space:nowrap}.total td{font-weight:600}.muted{color:#59636e}";

/// The whole page for `invoice`: seller, buyer, number and dates, lines, allowances and
/// charges, VAT breakdown, totals (BT-106 … BT-115), payment instructions and notes — in
/// English ([`render_html_in`] for German).
pub fn render_html(invoice: &Invoice) -> String {
    render_html_in(invoice, ViewLanguage::En)
}

/// The whole page for `invoice` in `lang`: labels in the language, amounts, quantities and
/// dates as it writes them, unit codes (BT-130) and VAT categories (BT-151) in words with
/// the category's code beside it. The document's own texts stay as written.
pub fn render_html_in(invoice: &Invoice, lang: ViewLanguage) -> String {
    let i = invoice;
    let w = if lang.de() { &DE } else { &EN };
    let kind = match i.type_code {
        TypeCode::Invoice => w.invoice,
        TypeCode::CreditNote => w.credit_note,
    };
    let cur = escape(&i.currency);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html><html lang=\"{}\"><head><meta charset=\"utf-8\"><title>{kind} {}</title><style>{STYLE}</style></head><body>",
        w.lang,
        escape(&i.number)
    );
    let _ = write!(
        out,
        "<h1>{kind} {}</h1><dl><dt>{}</dt><dd>{}</dd>",
        escape(&i.number),
        w.issue_date,
        date(i.issue_date, lang)
    );
    if let Some(d) = i.due_date {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", w.due_date, date(d, lang));
    }
    if let Some((from, to)) = i.period {
        let _ = write!(
            out,
            "<dt>{}</dt><dd>{} – {}</dd>",
            w.service_period,
            date(from, lang),
            date(to, lang)
        );
    }
    if let Some(d) = i.delivery_date {
        let _ = write!(
            out,
            "<dt>{}</dt><dd>{}</dd>",
            w.delivery_date,
            date(d, lang)
        );
    }
    let _ = write!(out, "<dt>{}</dt><dd>{cur}</dd>", w.currency);
    if let Some(r) = &i.buyer_reference {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", w.buyer_reference, escape(r));
    }
    if let Some(r) = &i.order_reference {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", w.order, escape(r));
    }
    if let Some(p) = &i.preceding_invoice {
        let _ = write!(
            out,
            "<dt>{}</dt><dd>{}{}</dd>",
            w.preceding_invoice,
            escape(&p.number),
            p.issue_date
                .map(|d| format!(" ({})", date(d, lang)))
                .unwrap_or_default()
        );
    }
    let _ = write!(
        out,
        "<dt>{}</dt><dd class=\"muted\">{}</dd></dl>",
        w.specification,
        escape(i.specification.identifier())
    );
    out.push_str("<div class=\"parties\">");
    party(&mut out, w.seller, &i.seller, w);
    party(&mut out, w.buyer, &i.buyer, w);
    out.push_str("</div>");

    let _ = write!(
        out,
        "<h2>{}</h2><table><thead><tr><th>#</th><th>{}</th><th class=\"n\">{}</th>\
<th class=\"n\">{} ({cur})</th><th>{}</th><th class=\"n\">{} ({cur})</th></tr></thead><tbody>",
        w.lines, w.item, w.quantity, w.price, w.vat, w.net
    );
    for l in &i.lines {
        let _ = write!(out, "<tr><td>{}</td><td>{}", escape(&l.id), escape(&l.name));
        if let Some(d) = &l.description {
            let _ = write!(out, "<br><span class=\"muted\">{}</span>", escape(d));
        }
        if let Some(n) = &l.note {
            let _ = write!(out, "<br><span class=\"muted\">{}</span>", escape(n));
        }
        if let Some((from, to)) = l.period {
            let _ = write!(
                out,
                "<br><span class=\"muted\">{} – {}</span>",
                date(from, lang),
                date(to, lang)
            );
        }
        let _ = write!(
            out,
            "</td><td class=\"n\">{} {}</td><td class=\"n\">{}</td><td>{} {} %</td><td class=\"n\">{}</td></tr>",
            escape(&number(l.quantity, lang)),
            escape(&unit_text(&l.unit_code, lang)),
            escape(&number(l.price, lang)),
            escape(&category_words(l.category, lang)),
            escape(&number(l.rate, lang)),
            escape(&money(l.net_amount, lang)),
        );
    }
    allowance_rows(&mut out, w.allowance, &i.allowances, "−", lang);
    allowance_rows(&mut out, w.charge, &i.charges, "", lang);
    out.push_str("</tbody></table>");

    let _ = write!(
        out,
        "<h2>{}</h2><table><thead><tr><th>{}</th><th class=\"n\">{}</th>\
<th class=\"n\">{} ({cur})</th><th class=\"n\">{} ({cur})</th><th>{}</th></tr></thead><tbody>",
        w.vat_breakdown, w.category, w.rate, w.taxable, w.vat, w.exemption_reason
    );
    for b in &i.vat_breakdown {
        let reason = [
            b.exemption_reason.as_deref(),
            b.exemption_reason_code.as_deref(),
        ]
        .into_iter()
        .flatten()
        .collect::<Vec<_>>()
        .join(" ");
        let _ = write!(
            out,
            "<tr><td>{}</td><td class=\"n\">{} %</td><td class=\"n\">{}</td><td class=\"n\">{}</td><td>{}</td></tr>",
            escape(&category_words(b.category, lang)),
            escape(&number(b.rate, lang)),
            escape(&money(b.taxable_amount, lang)),
            escape(&money(b.tax_amount, lang)),
            escape(&reason),
        );
    }
    out.push_str("</tbody></table>");

    let t = &i.totals;
    let _ = write!(out, "<h2>{} ({cur})</h2><table><tbody>", w.totals);
    let mut total = |label: &str, v: Decimal, strong: bool, always: bool| {
        if always || !v.is_zero() {
            let _ = write!(
                out,
                "<tr{}><td>{}</td><td class=\"n\">{}</td></tr>",
                if strong { " class=\"total\"" } else { "" },
                escape(label),
                escape(&money(v, lang))
            );
        }
    };
    total(w.sum_of_lines, t.line_net_total, false, true);
    total(w.allowances, t.allowance_total, false, false);
    total(w.charges, t.charge_total, false, false);
    total(w.without_vat, t.tax_exclusive, false, true);
    total(w.vat, t.tax_total, false, true);
    total(w.with_vat, t.tax_inclusive, true, true);
    total(w.paid, t.prepaid, false, false);
    total(w.rounding, t.rounding, false, false);
    total(w.amount_due, t.payable, true, true);
    out.push_str("</tbody></table>");

    let _ = write!(out, "<h2>{}</h2><dl>", w.payment);
    match &i.payment_means {
        Some(PaymentMeans::CreditTransfer {
            iban,
            account_name,
            bic,
        }) => {
            let _ = write!(
                out,
                "<dt>{}</dt><dd>{}</dd><dt>IBAN</dt><dd>{}</dd>",
                w.means,
                w.credit_transfer,
                escape(iban)
            );
            if let Some(n) = account_name {
                let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", w.account_holder, escape(n));
            }
            if let Some(b) = bic {
                let _ = write!(out, "<dt>BIC</dt><dd>{}</dd>", escape(b));
            }
        }
        Some(PaymentMeans::DirectDebit {
            mandate_reference,
            creditor_identifier,
            debited_iban,
        }) => {
            let _ = write!(
                out,
                "<dt>{}</dt><dd>{}</dd><dt>{}</dt><dd>{}</dd>\
<dt>{}</dt><dd>{}</dd><dt>{}</dt><dd>{}</dd>",
                w.means,
                w.direct_debit,
                w.mandate,
                escape(mandate_reference),
                w.creditor_id,
                escape(creditor_identifier),
                w.debited_iban,
                escape(debited_iban)
            );
        }
        None => {
            let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", w.means, w.not_stated);
        }
    }
    if let Some(r) = &i.remittance_information {
        let _ = write!(out, "<dt>{}</dt><dd>{}</dd>", w.reference, escape(r));
    }
    if let Some(terms) = &i.payment_terms {
        let _ = write!(
            out,
            "<dt>{}</dt><dd>{}</dd>",
            w.terms,
            escape(terms).replace('\n', "<br>")
        );
    }
    out.push_str("</dl>");
    if !i.notes.is_empty() {
        let _ = write!(out, "<h2>{}</h2>", w.notes);
        for n in &i.notes {
            let _ = write!(out, "<p>{}</p>", escape(n).replace('\n', "<br>"));
        }
    }
    out.push_str("</body></html>");
    out
}
