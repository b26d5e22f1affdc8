//! A backdated invoice (issue 34: "a backdated invoice asks before it takes the next
//! number"). Invoice numbers are given in order when an invoice is finalized (§ 14 (4)
//! Nr. 4 UStG: one unbroken sequence); an invoice dated before one that already has a
//! number gets a higher number for an earlier date. That is allowed, but it should be a
//! decision: the app asks before finalizing such an invoice and names the later one.

use crate::query::{InvoiceFilter, Paging, SortOrder};
use crate::status::InvoiceStatus;
use chrono::NaiveDate;

/// The query (`GET /invoices`) for the newest numbered invoice dated after `date`: every
/// status but `draft`, `date_from` the day after `date`, the latest date first, one per
/// page. An empty answer means `date` is not backdated. `None` for the last day chrono
/// knows (nothing can be dated after it).
pub fn later_numbered_invoices(date: NaiveDate) -> Option<InvoiceFilter> {
    Some(InvoiceFilter {
        status: InvoiceStatus::ALL
            .into_iter()
            .filter(|s| *s != InvoiceStatus::Draft)
            .collect(),
        from: Some(date.succ_opt()?),
        sort: Some("date".into()),
        order: Some(SortOrder::Desc),
        paging: Paging {
            per_page: Some(1),
            ..Paging::default()
        },
        ..InvoiceFilter::default()
    })
}

/// Whether an invoice dated `date` is backdated: a numbered invoice is dated later
/// (`latest_numbered`: the latest date of a numbered invoice, `None` without one).
pub fn is_backdated(date: NaiveDate, latest_numbered: Option<NaiveDate>) -> bool {
    latest_numbered.is_some_and(|latest| date < latest)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn d(s: &str) -> NaiveDate {
        s.parse().unwrap()
    }

    #[test]
    fn an_invoice_dated_before_a_numbered_one_is_backdated() {
        assert!(is_backdated(d("2026-11-01"), Some(d("2026-11-15"))));
        assert!(!is_backdated(d("2026-11-15"), Some(d("2026-11-15"))));
        assert!(!is_backdated(d("2026-11-20"), Some(d("2026-11-15"))));
        assert!(!is_backdated(d("2026-11-01"), None));
    }

    #[test]
    fn the_query_asks_for_numbered_invoices_after_the_date_newest_first() {
        let f = later_numbered_invoices(d("2026-11-01")).unwrap();
        assert_eq!(f.from, Some(d("2026-11-02")));
        assert!(!f.status.contains(&InvoiceStatus::Draft));
        assert!(f.status.contains(&InvoiceStatus::Paid));
        assert_eq!(f.status.len(), InvoiceStatus::ALL.len() - 1);
        let pairs = crate::query::ListFilter::to_pairs(&f);
        let get = |k: &str| {
            pairs
                .iter()
                .find(|(key, _)| key == k)
                .map(|(_, v)| v.as_str())
        };
        assert_eq!(get("date_from"), Some("2026-11-02"));
        assert_eq!(get("sort"), Some("date"));
        assert_eq!(get("order"), Some("desc"));
        assert_eq!(get("per_page"), Some("1"));
        assert!(later_numbered_invoices(NaiveDate::MAX).is_none());
    }
}
