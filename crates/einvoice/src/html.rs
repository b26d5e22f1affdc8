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

/// An amount with two decimals at least (`1234.5` → `1234.50`), as the document states it.
fn money(d: Decimal) -> String {
    let mut d = d.normalize();
    if d.scale() < 2 {
        d.rescale(2);
    }
    d.to_string()
}

fn party(out: &mut String, title: &str, p: &Party) {
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
    row("VAT ID", p.vat_identifier.as_deref());
    row("Tax number", p.tax_number.as_deref());
    row("Identifier", p.identifier.as_deref());
    row("Registration", p.legal_registration.as_deref());
    row(
        "Electronic address",
        p.electronic_address.as_ref().map(|e| e.value.as_str()),
    );
    if let Some(c) = &p.contact {
        row("Contact", c.name.as_deref());
        row("Phone", c.phone.as_deref());
        row("E-mail", c.email.as_deref());
    }
    row(
        "Legal information",
        p.additional_legal_information.as_deref(),
    );
    out.push_str("</dl></section>");
}

fn allowance_rows(out: &mut String, title: &str, list: &[AllowanceCharge], sign: &str) {
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
            escape(a.category.code()),
            escape(&a.rate.normalize().to_string()),
            escape(&money(a.amount)),
        );
    }
}

/// The page's only style sheet, inline in `<style>` (the view loads nothing). Servers that
/// show the page under their own Content-Security-Policy allow exactly this sheet by its
/// hash (`'sha256-…'` of these bytes).
pub const STYLE: &str = "body{font:14px/1.45 system-ui,sans-serif;color:#1f2328;margin:24px;max-width:960px}h1{font-size:20px;margin:0 0 4px}h2{font-size:15px;margin:16px 0 4px}.parties{display:flex;gap:48px;flex-wrap:wrap}dl{display:grid;grid-template-columns:auto 1fr;gap:2px 12px;margin:4px 0}dt{color:#59636e}dd{margin:0}table{border-collapse:collapse;width:100%;margin:8px 0}th,td{border-bottom:1px solid #d1d9e0;padding:4px 6px;text-align:left;vertical-align:top}.n{text-align:right;white-space:nowrap}.total td{font-weight:600}.muted{color:#59636e}";

/// The whole page for `invoice`: seller, buyer, number and dates, lines, allowances and
/// charges, VAT breakdown, totals (BT-106 … BT-115), payment instructions and notes.
pub fn render_html(invoice: &Invoice) -> String {
    let i = invoice;
    let kind = match i.type_code {
        TypeCode::Invoice => "Invoice",
        TypeCode::CreditNote => "Credit note",
    };
    let cur = escape(&i.currency);
    let mut out = String::new();
    let _ = write!(
        out,
        "<!DOCTYPE html><html><head><meta charset=\"utf-8\"><title>{kind} {}</title><style>{STYLE}</style></head><body>",
        escape(&i.number)
    );
    let _ = write!(
        out,
        "<h1>{kind} {}</h1><dl><dt>Issue date</dt><dd>{}</dd>",
        escape(&i.number),
        i.issue_date
    );
    if let Some(d) = i.due_date {
        let _ = write!(out, "<dt>Due date</dt><dd>{d}</dd>");
    }
    if let Some((from, to)) = i.period {
        let _ = write!(out, "<dt>Service period</dt><dd>{from} – {to}</dd>");
    }
    if let Some(d) = i.delivery_date {
        let _ = write!(out, "<dt>Delivery date</dt><dd>{d}</dd>");
    }
    let _ = write!(out, "<dt>Currency</dt><dd>{cur}</dd>");
    if let Some(r) = &i.buyer_reference {
        let _ = write!(out, "<dt>Buyer reference</dt><dd>{}</dd>", escape(r));
    }
    if let Some(r) = &i.order_reference {
        let _ = write!(out, "<dt>Order</dt><dd>{}</dd>", escape(r));
    }
    if let Some(p) = &i.preceding_invoice {
        let _ = write!(
            out,
            "<dt>Preceding invoice</dt><dd>{}{}</dd>",
            escape(&p.number),
            p.issue_date.map(|d| format!(" ({d})")).unwrap_or_default()
        );
    }
    let _ = write!(
        out,
        "<dt>Specification</dt><dd class=\"muted\">{}</dd></dl>",
        escape(i.specification.identifier())
    );
    out.push_str("<div class=\"parties\">");
    party(&mut out, "Seller", &i.seller);
    party(&mut out, "Buyer", &i.buyer);
    out.push_str("</div>");

    let _ = write!(
        out,
        "<h2>Lines</h2><table><thead><tr><th>#</th><th>Item</th><th class=\"n\">Quantity</th>\
<th class=\"n\">Price ({cur})</th><th>VAT</th><th class=\"n\">Net ({cur})</th></tr></thead><tbody>"
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
            let _ = write!(out, "<br><span class=\"muted\">{from} – {to}</span>");
        }
        let _ = write!(
            out,
            "</td><td class=\"n\">{} {}</td><td class=\"n\">{}</td><td>{} {} %</td><td class=\"n\">{}</td></tr>",
            escape(&l.quantity.normalize().to_string()),
            escape(&l.unit_code),
            escape(&l.price.normalize().to_string()),
            escape(l.category.code()),
            escape(&l.rate.normalize().to_string()),
            escape(&money(l.net_amount)),
        );
    }
    allowance_rows(&mut out, "Allowance", &i.allowances, "−");
    allowance_rows(&mut out, "Charge", &i.charges, "");
    out.push_str("</tbody></table>");

    let _ = write!(
        out,
        "<h2>VAT breakdown</h2><table><thead><tr><th>Category</th><th class=\"n\">Rate</th>\
<th class=\"n\">Taxable ({cur})</th><th class=\"n\">VAT ({cur})</th><th>Exemption reason</th></tr></thead><tbody>"
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
            escape(b.category.code()),
            escape(&b.rate.normalize().to_string()),
            escape(&money(b.taxable_amount)),
            escape(&money(b.tax_amount)),
            escape(&reason),
        );
    }
    out.push_str("</tbody></table>");

    let t = &i.totals;
    let _ = write!(out, "<h2>Totals ({cur})</h2><table><tbody>");
    let mut total = |label: &str, v: Decimal, strong: bool, always: bool| {
        if always || !v.is_zero() {
            let _ = write!(
                out,
                "<tr{}><td>{}</td><td class=\"n\">{}</td></tr>",
                if strong { " class=\"total\"" } else { "" },
                escape(label),
                escape(&money(v))
            );
        }
    };
    total("Sum of lines", t.line_net_total, false, true);
    total("Allowances", t.allowance_total, false, false);
    total("Charges", t.charge_total, false, false);
    total("Total without VAT", t.tax_exclusive, false, true);
    total("VAT", t.tax_total, false, true);
    total("Total with VAT", t.tax_inclusive, true, true);
    total("Paid", t.prepaid, false, false);
    total("Rounding", t.rounding, false, false);
    total("Amount due", t.payable, true, true);
    out.push_str("</tbody></table>");

    out.push_str("<h2>Payment</h2><dl>");
    match &i.payment_means {
        Some(PaymentMeans::CreditTransfer {
            iban,
            account_name,
            bic,
        }) => {
            let _ = write!(
                out,
                "<dt>Means</dt><dd>Credit transfer</dd><dt>IBAN</dt><dd>{}</dd>",
                escape(iban)
            );
            if let Some(n) = account_name {
                let _ = write!(out, "<dt>Account holder</dt><dd>{}</dd>", escape(n));
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
                "<dt>Means</dt><dd>Direct debit</dd><dt>Mandate</dt><dd>{}</dd>\
<dt>Creditor ID</dt><dd>{}</dd><dt>Debited IBAN</dt><dd>{}</dd>",
                escape(mandate_reference),
                escape(creditor_identifier),
                escape(debited_iban)
            );
        }
        None => out.push_str("<dt>Means</dt><dd>not stated</dd>"),
    }
    if let Some(r) = &i.remittance_information {
        let _ = write!(out, "<dt>Reference</dt><dd>{}</dd>", escape(r));
    }
    if let Some(terms) = &i.payment_terms {
        let _ = write!(
            out,
            "<dt>Terms</dt><dd>{}</dd>",
            escape(terms).replace('\n', "<br>")
        );
    }
    out.push_str("</dl>");
    if !i.notes.is_empty() {
        out.push_str("<h2>Notes</h2>");
        for n in &i.notes {
            let _ = write!(out, "<p>{}</p>", escape(n).replace('\n', "<br>"));
        }
    }
    out.push_str("</body></html>");
    out
}
