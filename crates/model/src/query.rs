//! List query parameters (interface.md § GET /invoices; `decisions.md` § Lists), parsed
//! and written the same way by the browser (its URL) and the server (the request).

use crate::status::InvoiceStatus;
use chrono::{DateTime, NaiveDate, Utc};

/// A query parameter with the wrong form (answered with 400 naming it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct QueryError {
    /// Parameter name, e.g. `date_from`.
    pub param: String,
    /// What is wrong, e.g. `must be a date YYYY-MM-DD`.
    pub message: String,
}

impl std::fmt::Display for QueryError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "query parameter {} {}", self.param, self.message)
    }
}

fn bad(param: &str, message: &str) -> QueryError {
    QueryError {
        param: param.to_string(),
        message: message.to_string(),
    }
}

/// Parses a date `YYYY-MM-DD` for `param`.
pub fn parse_date(param: &str, value: &str) -> Result<NaiveDate, QueryError> {
    NaiveDate::parse_from_str(value, "%Y-%m-%d")
        .map_err(|_| bad(param, "must be a date YYYY-MM-DD"))
}

/// Parses an integer id for `param`.
pub fn parse_id(param: &str, value: &str) -> Result<i64, QueryError> {
    value
        .trim()
        .parse::<i64>()
        .map_err(|_| bad(param, "must be an integer"))
}

/// Parses a comma-separated id list (`"1,2,3"`) for `param`.
pub fn parse_ids(param: &str, value: &str) -> Result<Vec<i64>, QueryError> {
    value
        .split(',')
        .filter(|s| !s.trim().is_empty())
        .map(|s| parse_id(param, s))
        .collect()
}

/// Splits a comma-separated list, dropping empty entries and surrounding spaces.
pub fn split_list(value: &str) -> impl Iterator<Item = String> + '_ {
    value
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(str::to_string)
}

/// Pagination and sorting common to every list: `page` (from 1), `per_page` (1–100,
/// default 100; larger values are treated as 100), `sort_by=<field> [asc|desc]`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paging {
    /// Page number from 1; `None` → 1.
    pub page: Option<u32>,
    /// Page size; `None` → 100.
    pub per_page: Option<u32>,
    /// `sort_by` as given (`"gross_total desc"`); validated per resource by the server.
    pub sort_by: Option<String>,
}

impl Paging {
    /// The page to serve (≥ 1).
    pub fn page(&self) -> u32 {
        self.page.unwrap_or(1).max(1)
    }

    /// The page size to serve (1–100).
    pub fn per_page(&self) -> u32 {
        self.per_page.unwrap_or(100).clamp(1, 100)
    }

    /// Takes `page`, `per_page` and `sort_by`; returns false for other names.
    pub fn accept(&mut self, name: &str, value: &str) -> Result<bool, QueryError> {
        match name {
            "page" => {
                self.page = Some(
                    value
                        .parse()
                        .map_err(|_| bad(name, "must be a positive integer"))?,
                )
            }
            "per_page" => {
                let n: u32 = value
                    .parse()
                    .map_err(|_| bad(name, "must be a positive integer"))?;
                if n == 0 {
                    return Err(bad(name, "must be a positive integer"));
                }
                self.per_page = Some(n);
            }
            "sort_by" => self.sort_by = Some(value.to_string()),
            _ => return Ok(false),
        }
        Ok(true)
    }

    /// Writes the non-default parameters.
    pub fn write(&self, out: &mut Vec<(String, String)>) {
        if let Some(p) = self.page.filter(|p| *p > 1) {
            out.push(("page".into(), p.to_string()));
        }
        if let Some(p) = self.per_page {
            out.push(("per_page".into(), p.to_string()));
        }
        if let Some(s) = &self.sort_by {
            out.push(("sort_by".into(), s.clone()));
        }
    }
}

/// Global filters of every list: `ids`, `updated_after`, `custom_properties[Name]=Value`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GlobalFilter {
    /// Only these ids.
    pub ids: Option<Vec<i64>>,
    /// Only records changed after this time.
    pub updated_after: Option<DateTime<Utc>>,
    /// Exact matches of custom properties.
    pub custom_properties: Vec<(String, String)>,
}

impl GlobalFilter {
    /// Takes a global filter parameter; returns false for other names.
    pub fn accept(&mut self, name: &str, value: &str) -> Result<bool, QueryError> {
        if name == "ids" {
            self.ids = Some(parse_ids(name, value)?);
        } else if name == "updated_after" {
            self.updated_after = Some(
                crate::timestamp::parse(value)
                    .ok_or_else(|| bad(name, "must be a timestamp YYYY-MM-DDTHH:MM:SSZ"))?,
            );
        } else if let Some(key) = name
            .strip_prefix("custom_properties[")
            .and_then(|r| r.strip_suffix(']'))
        {
            self.custom_properties
                .push((key.to_string(), value.to_string()));
        } else {
            return Ok(false);
        }
        Ok(true)
    }
}

/// GET /invoices (and /invoices/locked) filters.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct InvoiceFilter {
    /// Any of these statuses (comma-separated on the wire).
    pub status: Vec<InvoiceStatus>,
    /// Invoice date on or after.
    pub date_from: Option<NaiveDate>,
    /// Invoice date on or before.
    pub date_to: Option<NaiveDate>,
    /// Service period starting on or after.
    pub service_period_from: Option<NaiveDate>,
    /// Service period ending on or before.
    pub service_period_to: Option<NaiveDate>,
    /// Must carry all of these tags.
    pub tags: Vec<String>,
    /// Exact invoice number.
    pub identifier: Option<String>,
    /// Wildcard search in title and identifier.
    pub term: Option<String>,
    /// Customer company id.
    pub company_id: Option<i64>,
    /// Project id.
    pub project_id: Option<i64>,
    /// Pagination and sorting.
    pub paging: Paging,
    /// Global filters.
    pub global: GlobalFilter,
}

impl InvoiceFilter {
    /// Parses query pairs; unknown names are ignored; a wrong form is a [`QueryError`].
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, QueryError> {
        let mut f = InvoiceFilter::default();
        for (name, value) in pairs {
            if f.paging.accept(name, value)? || f.global.accept(name, value)? {
                continue;
            }
            if value.is_empty() {
                continue;
            }
            match name {
                "status" => {
                    for s in split_list(value) {
                        f.status.push(InvoiceStatus::parse(&s).ok_or_else(|| bad(name, "must be one of draft, created, sent, partially_paid, paid, overdue, ignored"))?);
                    }
                }
                "date_from" => f.date_from = Some(parse_date(name, value)?),
                "date_to" => f.date_to = Some(parse_date(name, value)?),
                "service_period_from" => f.service_period_from = Some(parse_date(name, value)?),
                "service_period_to" => f.service_period_to = Some(parse_date(name, value)?),
                "tags" | "tags[]" => f.tags.extend(split_list(value)),
                "identifier" => f.identifier = Some(value.to_string()),
                "term" => f.term = Some(value.to_string()),
                "company_id" | "customer_id" => f.company_id = Some(parse_id(name, value)?),
                "project_id" => f.project_id = Some(parse_id(name, value)?),
                _ => {}
            }
        }
        Ok(f)
    }

    /// Writes the filter as query pairs (the inverse of [`InvoiceFilter::from_pairs`] for
    /// the non-global part).
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if !self.status.is_empty() {
            out.push((
                "status".into(),
                self.status
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
            ));
        }
        let dates = [
            ("date_from", self.date_from),
            ("date_to", self.date_to),
            ("service_period_from", self.service_period_from),
            ("service_period_to", self.service_period_to),
        ];
        for (name, date) in dates {
            if let Some(d) = date {
                out.push((name.into(), d.format("%Y-%m-%d").to_string()));
            }
        }
        if !self.tags.is_empty() {
            out.push(("tags".into(), self.tags.join(",")));
        }
        if let Some(v) = &self.identifier {
            out.push(("identifier".into(), v.clone()));
        }
        if let Some(v) = &self.term {
            out.push(("term".into(), v.clone()));
        }
        if let Some(v) = self.company_id {
            out.push(("company_id".into(), v.to_string()));
        }
        if let Some(v) = self.project_id {
            out.push(("project_id".into(), v.to_string()));
        }
        self.paging.write(&mut out);
        out
    }
}

/// GET /offers filters: `sort` (date, created_at, title), `status`, `from`, `to`,
/// `identifier`, `deal_id` and `project_id` (single or comma-separated ids).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct OfferFilter {
    /// Any of these statuses.
    pub status: Vec<crate::offer::OfferStatus>,
    /// Offer date on or after.
    pub from: Option<NaiveDate>,
    /// Offer date on or before.
    pub to: Option<NaiveDate>,
    /// Exact offer number.
    pub identifier: Option<String>,
    /// Any of these deals.
    pub deal_ids: Vec<i64>,
    /// Any of these projects.
    pub project_ids: Vec<i64>,
    /// Customer company.
    pub company_id: Option<i64>,
    /// The interface's `sort` (`date`, `created_at`, `title`), newest/first-letter first.
    pub sort: Option<String>,
    /// Pagination and `sort_by`.
    pub paging: Paging,
    /// Global filters.
    pub global: GlobalFilter,
}

impl OfferFilter {
    /// Parses query pairs; unknown names are ignored; a wrong form is a [`QueryError`].
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, QueryError> {
        let mut f = OfferFilter::default();
        for (name, value) in pairs {
            if f.paging.accept(name, value)? || f.global.accept(name, value)? || value.is_empty() {
                continue;
            }
            match name {
                "status" => {
                    for s in split_list(value) {
                        f.status.push(crate::offer::OfferStatus::parse(&s).ok_or_else(|| bad(name, "must be one of created, sent, accepted, partially_billed, billed, archived"))?);
                    }
                }
                "from" => f.from = Some(parse_date(name, value)?),
                "to" => f.to = Some(parse_date(name, value)?),
                "identifier" => f.identifier = Some(value.to_string()),
                "deal_id" => f.deal_ids.extend(parse_ids(name, value)?),
                "project_id" => f.project_ids.extend(parse_ids(name, value)?),
                "company_id" => f.company_id = Some(parse_id(name, value)?),
                "sort" => {
                    if !["date", "created_at", "title"].contains(&value) {
                        return Err(bad(name, "must be date, created_at or title"));
                    }
                    f.sort = Some(value.to_string());
                }
                _ => {}
            }
        }
        Ok(f)
    }

    /// Writes the filter as query pairs (for the browser's URL and requests).
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if !self.status.is_empty() {
            out.push((
                "status".into(),
                self.status
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
            ));
        }
        for (name, date) in [("from", self.from), ("to", self.to)] {
            if let Some(d) = date {
                out.push((name.into(), d.format("%Y-%m-%d").to_string()));
            }
        }
        let ids = |v: &[i64]| {
            v.iter()
                .map(|i| i.to_string())
                .collect::<Vec<_>>()
                .join(",")
        };
        if let Some(v) = &self.identifier {
            out.push(("identifier".into(), v.clone()));
        }
        if !self.deal_ids.is_empty() {
            out.push(("deal_id".into(), ids(&self.deal_ids)));
        }
        if !self.project_ids.is_empty() {
            out.push(("project_id".into(), ids(&self.project_ids)));
        }
        if let Some(c) = self.company_id {
            out.push(("company_id".into(), c.to_string()));
        }
        if let Some(s) = &self.sort {
            out.push(("sort".into(), s.clone()));
        }
        self.paging.write(&mut out);
        out
    }
}

/// GET /purchases filters (interface.md; `decisions.md` § Lists).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct PurchaseFilter {
    /// Category of the purchase or of one of its positions.
    pub category_id: Option<i64>,
    /// Full-text search over the positions' titles (and the purchase's title and numbers).
    pub term: Option<String>,
    /// Supplier; `Some(0)` selects purchases without a supplier.
    pub company_id: Option<i64>,
    /// Any of these statuses.
    pub status: Vec<crate::purchase::PurchaseStatus>,
    /// Must carry all of these tags.
    pub tags: Vec<String>,
    /// Date on or after (`date=<from>:<to>`, either side may be empty).
    pub date_from: Option<NaiveDate>,
    /// Date on or before.
    pub date_to: Option<NaiveDate>,
    /// `true`: only purchases without any payment; `false`: only with payments.
    pub unpaid: Option<bool>,
    /// Payment method.
    pub payment_method: Option<crate::purchase::PaymentMethod>,
    /// Pagination and `sort_by`.
    pub paging: Paging,
    /// Global filters.
    pub global: GlobalFilter,
}

impl PurchaseFilter {
    /// Parses query pairs; unknown names are ignored; a wrong form is a [`QueryError`].
    pub fn from_pairs<'a>(
        pairs: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, QueryError> {
        let mut f = PurchaseFilter::default();
        for (name, value) in pairs {
            if f.paging.accept(name, value)? || f.global.accept(name, value)? || value.is_empty() {
                continue;
            }
            match name {
                "category_id" => f.category_id = Some(parse_id(name, value)?),
                "term" => f.term = Some(value.to_string()),
                "company_id" => f.company_id = Some(parse_id(name, value)?),
                "status" => {
                    for s in split_list(value) {
                        f.status.push(
                            crate::purchase::PurchaseStatus::parse(&s)
                                .ok_or_else(|| bad(name, "must be pending or approved"))?,
                        );
                    }
                }
                "tags" | "tags[]" => f.tags.extend(split_list(value)),
                "date" => {
                    let (from, to) = value.split_once(':').ok_or_else(|| {
                        bad(
                            name,
                            "must be a range YYYY-MM-DD:YYYY-MM-DD (either side may be empty)",
                        )
                    })?;
                    f.date_from = (!from.is_empty())
                        .then(|| parse_date(name, from))
                        .transpose()?;
                    f.date_to = (!to.is_empty()).then(|| parse_date(name, to)).transpose()?;
                }
                "unpaid" => {
                    f.unpaid = Some(match value {
                        "true" | "1" => true,
                        "false" | "0" => false,
                        _ => return Err(bad(name, "must be true or false")),
                    })
                }
                "payment_method" => {
                    f.payment_method =
                        Some(crate::purchase::PaymentMethod::parse(value).ok_or_else(|| {
                            bad(
                                name,
                                "must be bank_transfer, direct_debit, credit_card, paypal or cash",
                            )
                        })?)
                }
                _ => {}
            }
        }
        Ok(f)
    }

    /// Writes the filter as query pairs.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(c) = self.category_id {
            out.push(("category_id".into(), c.to_string()));
        }
        if let Some(t) = &self.term {
            out.push(("term".into(), t.clone()));
        }
        if let Some(c) = self.company_id {
            out.push(("company_id".into(), c.to_string()));
        }
        if !self.status.is_empty() {
            out.push((
                "status".into(),
                self.status
                    .iter()
                    .map(|s| s.as_str())
                    .collect::<Vec<_>>()
                    .join(","),
            ));
        }
        if !self.tags.is_empty() {
            out.push(("tags".into(), self.tags.join(",")));
        }
        if self.date_from.is_some() || self.date_to.is_some() {
            let d = |v: Option<NaiveDate>| {
                v.map(|d| d.format("%Y-%m-%d").to_string())
                    .unwrap_or_default()
            };
            out.push((
                "date".into(),
                format!("{}:{}", d(self.date_from), d(self.date_to)),
            ));
        }
        if let Some(u) = self.unpaid {
            out.push(("unpaid".into(), u.to_string()));
        }
        if let Some(m) = self.payment_method {
            out.push(("payment_method".into(), m.as_str().into()));
        }
        self.paging.write(&mut out);
        out
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_and_writes_back() {
        let pairs = [
            ("status", "sent,paid"),
            ("date_from", "2026-01-01"),
            ("tags", "a"),
            ("tags", "b"),
            ("term", "web"),
            ("page", "2"),
            ("custom_properties[Kst]", "4711"),
            ("whatever", "x"),
        ];
        let f = InvoiceFilter::from_pairs(pairs).unwrap();
        assert_eq!(f.status, vec![InvoiceStatus::Sent, InvoiceStatus::Paid]);
        assert_eq!(f.tags, vec!["a", "b"]);
        assert_eq!(f.paging.page(), 2);
        assert_eq!(
            f.global.custom_properties,
            vec![("Kst".to_string(), "4711".to_string())]
        );
        let again: Vec<(String, String)> = f.to_pairs();
        let f2 =
            InvoiceFilter::from_pairs(again.iter().map(|(a, b)| (a.as_str(), b.as_str()))).unwrap();
        assert_eq!(f2.status, f.status);
        assert_eq!(f2.tags, f.tags);
        assert_eq!(f2.date_from, f.date_from);
    }

    #[test]
    fn wrong_forms_name_the_parameter() {
        assert_eq!(
            InvoiceFilter::from_pairs([("date_from", "yesterday")])
                .unwrap_err()
                .param,
            "date_from"
        );
        assert_eq!(
            InvoiceFilter::from_pairs([("status", "lost")])
                .unwrap_err()
                .param,
            "status"
        );
        assert_eq!(
            InvoiceFilter::from_pairs([("per_page", "0")])
                .unwrap_err()
                .param,
            "per_page"
        );
        assert_eq!(
            InvoiceFilter::from_pairs([("ids", "1,x")])
                .unwrap_err()
                .param,
            "ids"
        );
    }

    #[test]
    fn per_page_is_capped() {
        let f = InvoiceFilter::from_pairs([("per_page", "500")]).unwrap();
        assert_eq!(f.paging.per_page(), 100);
    }

    #[test]
    fn offer_filter_reads_id_lists_and_sort() {
        let f = OfferFilter::from_pairs([
            ("deal_id", "1,2"),
            ("project_id", "7"),
            ("sort", "title"),
            ("status", "accepted"),
        ])
        .unwrap();
        assert_eq!(
            (f.deal_ids.clone(), f.project_ids.clone(), f.sort.as_deref()),
            (vec![1, 2], vec![7], Some("title"))
        );
        let back = f.to_pairs();
        assert!(back.contains(&("deal_id".to_string(), "1,2".to_string())));
        assert_eq!(
            OfferFilter::from_pairs([("sort", "price")])
                .unwrap_err()
                .param,
            "sort"
        );
        assert_eq!(
            OfferFilter::from_pairs([("deal_id", "x")])
                .unwrap_err()
                .param,
            "deal_id"
        );
    }

    #[test]
    fn purchase_filter_date_ranges_and_unpaid() {
        let f = PurchaseFilter::from_pairs([
            ("date", "2026-11-01:"),
            ("unpaid", "true"),
            ("company_id", "0"),
            ("status", "pending,archived"),
        ])
        .unwrap();
        assert_eq!(
            (f.date_from.is_some(), f.date_to, f.unpaid, f.company_id),
            (true, None, Some(true), Some(0))
        );
        assert_eq!(f.status.len(), 2);
        let f2 =
            PurchaseFilter::from_pairs(f.to_pairs().iter().map(|(a, b)| (a.as_str(), b.as_str())))
                .unwrap();
        assert_eq!(f2.date_from, f.date_from);
        let to_only = PurchaseFilter::from_pairs([("date", ":2026-11-30")]).unwrap();
        assert!(to_only.date_from.is_none() && to_only.date_to.is_some());
        assert_eq!(
            PurchaseFilter::from_pairs([("date", "2026-11-01")])
                .unwrap_err()
                .param,
            "date"
        );
        assert_eq!(
            PurchaseFilter::from_pairs([("unpaid", "maybe")])
                .unwrap_err()
                .param,
            "unpaid"
        );
    }
}
