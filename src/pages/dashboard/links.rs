//! Where each dashboard figure leads: the list filtered to exactly the records the
//! figure counts (`docs/decisions.md` § Summaries and dashboard (issue 11)).

use kontor_model::dashboard::YearMonth;
use kontor_model::offer::OfferStatus;
use kontor_model::purchase::PurchaseStatus;
use kontor_model::query::{InvoiceFilter, ListFilter, OfferFilter, PurchaseFilter};
use kontor_model::status::InvoiceStatus;

/// `path?name=value&...` from a filter's query pairs, the values escaped except for the
/// commas that separate list values (`status=created,sent`).
fn with_query(path: &str, pairs: Vec<(String, String)>) -> String {
    if pairs.is_empty() {
        return path.to_string();
    }
    let query: Vec<String> = pairs
        .into_iter()
        .map(|(k, v)| {
            let value: String = js_sys::encode_uri_component(&v).into();
            format!("{k}={}", value.replace("%2C", ","))
        })
        .collect();
    format!("{path}?{}", query.join("&"))
}

/// The invoices with something open (`/invoices?open=true`).
pub fn open_invoices() -> String {
    let f = InvoiceFilter {
        open: Some(true),
        ..Default::default()
    };
    with_query("/invoices", f.to_pairs())
}

/// The overdue invoices (`/invoices?overdue=true`).
pub fn overdue_invoices() -> String {
    let f = InvoiceFilter {
        overdue: Some(true),
        ..Default::default()
    };
    with_query("/invoices", f.to_pairs())
}

/// The finalized invoices dated in `month` (every status but draft: the revenue chart's
/// invoices, all currencies).
pub fn invoices_of_month(month: YearMonth) -> String {
    let f = InvoiceFilter {
        status: InvoiceStatus::ALL
            .into_iter()
            .filter(|s| *s != InvoiceStatus::Draft)
            .collect(),
        from: month.first_day(),
        to: month.last_day(),
        ..Default::default()
    };
    with_query("/invoices", f.to_pairs())
}

/// Purchases awaiting approval (`/purchases?status=pending`).
pub fn pending_purchases() -> String {
    let f = PurchaseFilter {
        status: vec![PurchaseStatus::Pending],
        ..Default::default()
    };
    with_query("/purchases", f.to_pairs())
}

/// Offers awaiting an answer (`/offers?status=sent`).
pub fn sent_offers() -> String {
    let f = OfferFilter {
        status: vec![OfferStatus::Sent],
        ..Default::default()
    };
    with_query("/offers", f.to_pairs())
}

/// One invoice's detail page.
pub fn invoice(id: i64) -> String {
    format!("/invoices/{id}")
}
