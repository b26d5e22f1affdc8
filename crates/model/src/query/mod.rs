//! List query parameters (interface.md § GET /invoices; `decisions.md` § Lists): plain
//! serde structs, decoded from and written to a query string by `serde_html_form`, the
//! same way by the browser (its URL) and the server (the request).
//!
//! - [`Paging`] (`page`, `per_page`, `sort_by`) and [`GlobalFilter`] (`ids`,
//!   `updated_after`, `custom_properties[Name]=Value`) are read by every list.
//! - [`InvoiceFilter`], [`OfferFilter`], [`PurchaseFilter`] are the resources' own filters;
//!   they carry their paging and global filter as skipped fields, filled by
//!   [`ListFilter::from_query`].
//! - [`decode`] names the parameter of a malformed value ([`QueryError`], a 400 on the
//!   server); unknown parameters are ignored.
//! - The fields' forms are given by [`one`] (a single value, last one wins, empty = absent)
//!   and [`list`] (comma-separated and/or repeated), both through [`Param`]; these
//!   helpers live in `form.rs`, this file holds the types.

mod form;
mod monthly;
#[cfg(feature = "openapi")]
mod openapi;
mod summary;

pub use form::{
    comma_joined, decode, encode, id_list, list, one, parse_date, parse_id, split_list, Param,
    QueryError,
};
pub use monthly::{invoice_months, CurrencyMonths, InvoiceMonths, MonthAmounts, MonthRow};
#[cfg(feature = "openapi")]
pub use openapi::ListParams;
pub use summary::{CurrencyTotals, ListSummary};

use crate::offer::OfferStatus;
use crate::purchase::{PaymentMethod, PurchaseStatus};
use crate::status::InvoiceStatus;
use chrono::{DateTime, NaiveDate, Utc};
use serde::de::{self, DeserializeOwned, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

/// Pagination and sorting common to every list: `page` (from 1), `per_page` (1–100,
/// default 100; larger values are treated as 100), `sort_by=<field> [asc|desc]`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct Paging {
    /// Page number from 1; `None` → 1.
    #[serde(deserialize_with = "one", skip_serializing_if = "first_page")]
    pub page: Option<u32>,
    /// Page size; `None` → 100.
    #[serde(deserialize_with = "one")]
    pub per_page: Option<u32>,
    /// `sort_by` as given (`"gross_total desc"`); validated per resource by the server.
    #[serde(deserialize_with = "one")]
    pub sort_by: Option<String>,
}

fn first_page(page: &Option<u32>) -> bool {
    page.is_none_or(|p| p <= 1)
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
}

/// Global filters of every list: `ids`, `updated_after`, `custom_properties[Name]=Value`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[serde(default)]
pub struct GlobalFilter {
    /// Only these ids (comma-separated; given empty: none).
    #[serde(deserialize_with = "id_list")]
    pub ids: Option<Vec<i64>>,
    /// Only records changed after this time.
    #[serde(deserialize_with = "one")]
    pub updated_after: Option<DateTime<Utc>>,
    /// Exact matches of custom properties (filled by [`GlobalFilter::from_query`]).
    #[serde(skip)]
    pub custom_properties: Vec<(String, String)>,
}

impl GlobalFilter {
    /// Decodes the global filters of `query`; `custom_properties[Name]=Value` pairs are
    /// collected in order. Errors: [`QueryError`] naming `ids` or `updated_after`.
    pub fn from_query(query: &str) -> Result<Self, QueryError> {
        let mut global: GlobalFilter = decode(query)?;
        global.custom_properties = form_urlencoded::parse(query.as_bytes())
            .filter_map(|(k, v)| {
                k.strip_prefix("custom_properties[")
                    .and_then(|r| r.strip_suffix(']'))
                    .map(|name| (name.to_string(), v.into_owned()))
            })
            .collect();
        Ok(global)
    }
}

/// A resource's list filter with its paging and global filters, read from and written to
/// a query string.
pub trait ListFilter: DeserializeOwned + Serialize + Default {
    /// The paging part.
    fn paging_mut(&mut self) -> &mut Paging;
    /// The paging part, read only.
    fn paging_ref(&self) -> &Paging;
    /// The global filters.
    fn global_mut(&mut self) -> &mut GlobalFilter;

    /// Decodes the filter, its paging and its global filters from `query` (no `?`).
    /// Errors: [`QueryError`] naming the first malformed parameter.
    fn from_query(query: &str) -> Result<Self, QueryError> {
        let mut f: Self = decode(query)?;
        *f.paging_mut() = decode(query)?;
        *f.global_mut() = GlobalFilter::from_query(query)?;
        Ok(f)
    }

    /// [`ListFilter::from_query`] over already split `(name, value)` pairs.
    fn from_pairs<K: AsRef<str>, V: AsRef<str>>(
        pairs: impl IntoIterator<Item = (K, V)>,
    ) -> Result<Self, QueryError> {
        let mut out = form_urlencoded::Serializer::new(String::new());
        for (k, v) in pairs {
            out.append_pair(k.as_ref(), v.as_ref());
        }
        Self::from_query(&out.finish())
    }

    /// The filter and its paging as query pairs (the browser's URL and requests; global
    /// filters are not written).
    fn to_pairs(&self) -> Vec<(String, String)> {
        let mut out = encode(self);
        out.extend(encode(self.paging_ref()));
        out
    }
}

macro_rules! list_filter {
    ($t:ty) => {
        impl ListFilter for $t {
            fn paging_mut(&mut self) -> &mut Paging {
                &mut self.paging
            }
            fn paging_ref(&self) -> &Paging {
                &self.paging
            }
            fn global_mut(&mut self) -> &mut GlobalFilter {
                &mut self.global
            }
        }
    };
}

/// GET /invoices (and /invoices/locked) filters.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct InvoiceFilter {
    /// Any of these statuses (comma-separated on the wire).
    #[serde(
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub status: Vec<InvoiceStatus>,
    /// Invoice date on or after.
    #[serde(deserialize_with = "one")]
    pub date_from: Option<NaiveDate>,
    /// Invoice date on or before.
    #[serde(deserialize_with = "one")]
    pub date_to: Option<NaiveDate>,
    /// Service period starting on or after.
    #[serde(deserialize_with = "one")]
    pub service_period_from: Option<NaiveDate>,
    /// Service period ending on or before.
    #[serde(deserialize_with = "one")]
    pub service_period_to: Option<NaiveDate>,
    /// Must carry all of these tags (`tags=a,b`, `tags=a&tags=b` or `tags[]=a`).
    #[serde(
        alias = "tags[]",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub tags: Vec<String>,
    /// Exact invoice number.
    #[serde(deserialize_with = "one")]
    pub identifier: Option<String>,
    /// Case-insensitive substring search (`*` a wildcard) in number, title, customer name
    /// and recipient address (issue 11 § Find and see).
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// Sort key (issue 11): `identifier`, `date`, `due_date`, `customer`, `gross_total`,
    /// `open_amount`; absent → newest first. `sort_by` wins when both are given.
    #[serde(
        deserialize_with = "invoice_sort",
        skip_serializing_if = "Option::is_none"
    )]
    pub sort: Option<String>,
    /// Direction of `sort`; absent → dates newest first, everything else ascending.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub order: Option<SortOrder>,
    /// Customer company id (`customer_id` is another name, `decisions.md` § Invoices).
    #[serde(alias = "customer_id", deserialize_with = "one")]
    pub company_id: Option<i64>,
    /// Project id.
    #[serde(deserialize_with = "one")]
    pub project_id: Option<i64>,
    /// `true`: only invoices with something still to be paid (`open_amount` > 0,
    /// [`crate::dashboard::open_amount`]); `false`: only those without (issue 11, the
    /// dashboard's links).
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub open: Option<bool>,
    /// `true`: only overdue invoices ([`crate::dashboard::is_overdue`] on the server's
    /// date); `false`: only those that are not (issue 11, the dashboard's links).
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub overdue: Option<bool>,
    /// Pagination and sorting.
    #[serde(skip)]
    pub paging: Paging,
    /// Global filters.
    #[serde(skip)]
    pub global: GlobalFilter,
}

list_filter!(InvoiceFilter);

/// GET /offers filters: `sort` (date, created_at, title), `status`, `from`, `to`,
/// `identifier`, `deal_id` and `project_id` (single or comma-separated ids).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct OfferFilter {
    /// Any of these statuses.
    #[serde(
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub status: Vec<OfferStatus>,
    /// Offer date on or after.
    #[serde(deserialize_with = "one")]
    pub from: Option<NaiveDate>,
    /// Offer date on or before.
    #[serde(deserialize_with = "one")]
    pub to: Option<NaiveDate>,
    /// Exact offer number.
    #[serde(deserialize_with = "one")]
    pub identifier: Option<String>,
    /// Any of these deals.
    #[serde(
        rename = "deal_id",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub deal_ids: Vec<i64>,
    /// Any of these projects.
    #[serde(
        rename = "project_id",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub project_ids: Vec<i64>,
    /// Customer company.
    #[serde(deserialize_with = "one")]
    pub company_id: Option<i64>,
    /// Case-insensitive substring search (`*` a wildcard) in number, title, company name
    /// and recipient address (issue 11 § Find and see).
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// The interface's `sort` (`date`, `created_at`, `title`) and issue 11's
    /// (`identifier`, `company`, `gross_total`); `sort_by` wins when both are given.
    #[serde(
        deserialize_with = "offer_sort",
        skip_serializing_if = "Option::is_none"
    )]
    pub sort: Option<String>,
    /// Direction of `sort`; absent → dates newest first, everything else ascending.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub order: Option<SortOrder>,
    /// Pagination and `sort_by`.
    #[serde(skip)]
    pub paging: Paging,
    /// Global filters.
    #[serde(skip)]
    pub global: GlobalFilter,
}

list_filter!(OfferFilter);

/// The `sort` keys of GET /invoices (issue 11 § Find and see).
pub const INVOICE_SORTS: &[&str] = &[
    "identifier",
    "date",
    "due_date",
    "customer",
    "gross_total",
    "open_amount",
];
/// The `sort` keys of GET /offers (interface.md's three, then issue 11's).
pub const OFFER_SORTS: &[&str] = &[
    "date",
    "created_at",
    "title",
    "identifier",
    "company",
    "gross_total",
];
/// The `sort` keys of GET /purchases (issue 11 § Find and see).
pub const PURCHASE_SORTS: &[&str] = &["identifier", "date", "supplier", "gross_total"];

/// A `sort` value that must be one of `allowed`; the error lists them.
fn sort_key<'de, D: Deserializer<'de>>(d: D, allowed: &[&str]) -> Result<Option<String>, D::Error> {
    let sort: Option<String> = one(d)?;
    match sort {
        Some(s) if !allowed.contains(&s.as_str()) => Err(de::Error::custom(format!(
            "must be one of {}",
            allowed.join(", ")
        ))),
        other => Ok(other),
    }
}

/// `deserialize_with` for the offers' `sort` ([`OFFER_SORTS`]).
fn offer_sort<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    sort_key(d, OFFER_SORTS)
}

/// `deserialize_with` for the invoices' `sort` ([`INVOICE_SORTS`]).
fn invoice_sort<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    sort_key(d, INVOICE_SORTS)
}

/// `deserialize_with` for the purchases' `sort` ([`PURCHASE_SORTS`]).
fn purchase_sort<'de, D: Deserializer<'de>>(d: D) -> Result<Option<String>, D::Error> {
    sort_key(d, PURCHASE_SORTS)
}

/// The direction of a list's `sort` (`order=asc|desc`, issue 11).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum SortOrder {
    /// Smallest / earliest / A first.
    Asc,
    /// Largest / latest / Z first.
    Desc,
}

impl SortOrder {
    /// `asc` or `desc` (also the SQL keyword, case aside).
    pub fn as_str(self) -> &'static str {
        match self {
            SortOrder::Asc => "asc",
            SortOrder::Desc => "desc",
        }
    }

    /// The direction used when `order` is absent: dates (`date`, `due_date`,
    /// `created_at`) newest first, every other key ascending.
    pub fn default_for(key: &str) -> SortOrder {
        match key {
            "date" | "due_date" | "created_at" => SortOrder::Desc,
            _ => SortOrder::Asc,
        }
    }
}

impl Param for SortOrder {
    const EXPECTED: &'static str = "asc or desc";

    fn parse_param(text: &str) -> Option<Self> {
        match text.to_ascii_lowercase().as_str() {
            "asc" => Some(SortOrder::Asc),
            "desc" => Some(SortOrder::Desc),
            _ => None,
        }
    }
}

/// A date range `YYYY-MM-DD:YYYY-MM-DD` where either side may be empty (`2026-11-01:`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct DateRange {
    /// On or after.
    pub from: Option<NaiveDate>,
    /// On or before.
    pub to: Option<NaiveDate>,
}

impl DateRange {
    /// True when neither side is set.
    pub fn is_open(&self) -> bool {
        self.from.is_none() && self.to.is_none()
    }
}

impl Param for DateRange {
    const EXPECTED: &'static str =
        "a range YYYY-MM-DD:YYYY-MM-DD (either side may be empty, years 1900–2999)";

    fn parse_param(text: &str) -> Option<Self> {
        let (from, to) = text.split_once(':')?;
        let side = |t: &str| match t.trim() {
            "" => Some(None),
            t => crate::wire::parse_date(t).ok().map(Some),
        };
        Some(DateRange {
            from: side(from)?,
            to: side(to)?,
        })
    }
}

fn date_range<'de, D: Deserializer<'de>>(d: D) -> Result<DateRange, D::Error> {
    one(d).map(Option::unwrap_or_default)
}

fn write_range<S: Serializer>(range: &DateRange, s: S) -> Result<S::Ok, S::Error> {
    let side = |v: Option<NaiveDate>| v.map(|d| d.to_string()).unwrap_or_default();
    s.serialize_str(&format!("{}:{}", side(range.from), side(range.to)))
}

/// GET /purchases filters (interface.md; `decisions.md` § Lists).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct PurchaseFilter {
    /// Category of the purchase or of one of its positions.
    #[serde(deserialize_with = "one")]
    pub category_id: Option<i64>,
    /// Case-insensitive substring search (`*` a wildcard) in the identifier, receipt
    /// number, title, supplier name and position titles (issue 11 § Find and see).
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// Sort key (issue 11): `identifier`, `date`, `supplier`, `gross_total`; absent →
    /// newest first. `sort_by` wins when both are given.
    #[serde(
        deserialize_with = "purchase_sort",
        skip_serializing_if = "Option::is_none"
    )]
    pub sort: Option<String>,
    /// Direction of `sort`; absent → dates newest first, everything else ascending.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub order: Option<SortOrder>,
    /// Supplier; `Some(0)` selects purchases without a supplier.
    #[serde(deserialize_with = "one")]
    pub company_id: Option<i64>,
    /// Any of these statuses.
    #[serde(
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub status: Vec<PurchaseStatus>,
    /// Must carry all of these tags.
    #[serde(
        alias = "tags[]",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub tags: Vec<String>,
    /// The purchase date range (`date=<from>:<to>`, either side may be empty).
    #[serde(
        deserialize_with = "date_range",
        serialize_with = "write_range",
        skip_serializing_if = "DateRange::is_open"
    )]
    pub date: DateRange,
    /// `true`: only purchases without any payment; `false`: only with payments.
    #[serde(deserialize_with = "one")]
    pub unpaid: Option<bool>,
    /// Payment method.
    #[serde(deserialize_with = "one")]
    pub payment_method: Option<PaymentMethod>,
    /// Pagination and `sort_by`.
    #[serde(skip)]
    pub paging: Paging,
    /// Global filters.
    #[serde(skip)]
    pub global: GlobalFilter,
}

list_filter!(PurchaseFilter);

/// GET /companies filters (issue 9 contract § Company): `type` (one or a comma list of
/// customer, supplier, organization), `term` (substring of name, address, e-mail, phone,
/// VAT ID or tags, case-insensitive; `name` is another name for it), `tags` (must carry
/// all), `active` (`true`/`false`; absent: all).
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default)]
pub struct CompanyFilter {
    /// Any of these roles.
    #[serde(
        rename = "type",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub kinds: Vec<crate::party::CompanyType>,
    /// Substring search.
    #[serde(
        alias = "name",
        deserialize_with = "one",
        skip_serializing_if = "Option::is_none"
    )]
    pub term: Option<String>,
    /// Must carry all of these tags.
    #[serde(
        alias = "tags[]",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    pub tags: Vec<String>,
    /// Only active (`true`) or archived (`false`) companies.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub active: Option<bool>,
    /// Pagination and `sort_by` (`name`, `created_at`, `updated_at`).
    #[serde(skip)]
    pub paging: Paging,
    /// Global filters.
    #[serde(skip)]
    pub global: GlobalFilter,
}

list_filter!(CompanyFilter);

#[cfg(test)]
mod tests {
    use super::*;

    fn pairs_to_query(pairs: &[(String, String)]) -> String {
        let mut out = form_urlencoded::Serializer::new(String::new());
        for (k, v) in pairs {
            out.append_pair(k, v);
        }
        out.finish()
    }

    #[test]
    fn parses_and_writes_back() {
        let q = "status=sent,paid&date_from=2026-01-01&tags=a&tags=b&term=web&page=2&custom_properties%5BKst%5D=4711&whatever=x";
        let f = InvoiceFilter::from_query(q).unwrap();
        assert_eq!(f.status, vec![InvoiceStatus::Sent, InvoiceStatus::Paid]);
        assert_eq!(f.tags, vec!["a", "b"]);
        assert_eq!(f.paging.page(), 2);
        assert_eq!(
            f.global.custom_properties,
            vec![("Kst".to_string(), "4711".to_string())]
        );
        let again = f.to_pairs();
        assert!(again.contains(&("status".into(), "sent,paid".into())));
        assert!(again.contains(&("tags".into(), "a,b".into())));
        assert!(again.contains(&("page".into(), "2".into())));
        let f2 = InvoiceFilter::from_query(&pairs_to_query(&again)).unwrap();
        assert_eq!(
            (f2.status, f2.tags, f2.date_from),
            (f.status, f.tags, f.date_from)
        );
    }

    #[test]
    fn company_filters_read_and_write_back() {
        let f = CompanyFilter::from_query(
            "type=customer,supplier&term=hafen&tags=a&tags=b&active=false&page=3",
        )
        .unwrap();
        assert_eq!(
            f.kinds,
            vec![
                crate::party::CompanyType::Customer,
                crate::party::CompanyType::Supplier
            ]
        );
        assert_eq!(f.term.as_deref(), Some("hafen"));
        assert_eq!(f.tags, vec!["a", "b"]);
        assert_eq!(f.active, Some(false));
        let again = f.to_pairs();
        assert!(again.contains(&("type".into(), "customer,supplier".into())));
        assert!(again.contains(&("active".into(), "false".into())));
        assert_eq!(
            CompanyFilter::from_query(&pairs_to_query(&again)).unwrap(),
            f
        );
        assert_eq!(
            CompanyFilter::from_query("type=person").unwrap_err().param,
            "type"
        );
        assert_eq!(
            CompanyFilter::from_query("active=maybe").unwrap_err().param,
            "active"
        );
    }

    #[test]
    fn wrong_forms_name_the_parameter() {
        let err = |q: &str| InvoiceFilter::from_query(q).unwrap_err();
        assert_eq!(err("date_from=yesterday").param, "date_from");
        assert!(err("date_from=yesterday").message.contains("YYYY-MM-DD"));
        assert_eq!(err("date_to=2026-1-1").param, "date_to");
        assert_eq!(err("status=sent,lost").param, "status");
        assert_eq!(err("per_page=0").param, "per_page");
        assert_eq!(err("page=x").param, "page");
        assert_eq!(err("ids=1,x").param, "ids");
        assert_eq!(err("updated_after=soon").param, "updated_after");
        // The name the request used, also for an alias.
        assert_eq!(err("customer_id=abc").param, "customer_id");
    }

    #[test]
    fn empty_values_are_absent_and_unknown_ignored() {
        let f = InvoiceFilter::from_query("status=&date_from=&term=&foo=bar&project_id=").unwrap();
        assert!(f.to_pairs().is_empty(), "{:?}", f.to_pairs());
        assert_eq!(f, InvoiceFilter::default());
        let ids = InvoiceFilter::from_query("ids=").unwrap();
        assert_eq!(ids.global.ids, Some(vec![]));
    }

    #[test]
    fn open_and_overdue_read_and_write_back() {
        let f = InvoiceFilter::from_query("overdue=true&open=false").unwrap();
        assert_eq!((f.open, f.overdue), (Some(false), Some(true)));
        let back = f.to_pairs();
        assert!(back.contains(&("overdue".to_string(), "true".to_string())));
        assert!(back.contains(&("open".to_string(), "false".to_string())));
        assert_eq!(
            InvoiceFilter::from_query("overdue=soon").unwrap_err().param,
            "overdue"
        );
        assert_eq!(InvoiceFilter::from_query("overdue=").unwrap().overdue, None);
    }

    #[test]
    fn per_page_is_capped() {
        let f = InvoiceFilter::from_query("per_page=500").unwrap();
        assert_eq!(f.paging.per_page(), 100);
    }

    #[test]
    fn lists_take_commas_repeats_and_brackets() {
        let f = InvoiceFilter::from_query("tags%5B%5D=x&tags%5B%5D=y,z").unwrap();
        assert_eq!(f.tags, vec!["x", "y", "z"]);
        let g = InvoiceFilter::from_query("customer_id=7").unwrap();
        assert_eq!(g.company_id, Some(7));
    }

    #[test]
    fn offer_filter_reads_id_lists_and_sort() {
        let f =
            OfferFilter::from_query("deal_id=1,2&project_id=7&sort=title&status=accepted").unwrap();
        assert_eq!(
            (f.deal_ids.clone(), f.project_ids.clone(), f.sort.as_deref()),
            (vec![1, 2], vec![7], Some("title"))
        );
        let back = f.to_pairs();
        assert!(back.contains(&("deal_id".to_string(), "1,2".to_string())));
        assert_eq!(
            OfferFilter::from_query("sort=price").unwrap_err().param,
            "sort"
        );
        assert_eq!(
            OfferFilter::from_query("deal_id=x").unwrap_err().param,
            "deal_id"
        );
    }

    #[test]
    fn sort_and_order_are_checked_and_written_back() {
        let f = InvoiceFilter::from_query("sort=customer&order=DESC&term=Kranzler").unwrap();
        assert_eq!(
            (f.sort.as_deref(), f.order, f.term.as_deref()),
            (Some("customer"), Some(SortOrder::Desc), Some("Kranzler"))
        );
        let back = f.to_pairs();
        assert!(back.contains(&("order".to_string(), "desc".to_string())));
        assert_eq!(
            InvoiceFilter::from_query(&pairs_to_query(&back)).unwrap(),
            f
        );
        let err = InvoiceFilter::from_query("sort=colour").unwrap_err();
        assert_eq!(err.param, "sort");
        assert!(err.message.contains("open_amount"), "{}", err.message);
        assert_eq!(
            InvoiceFilter::from_query("order=up").unwrap_err().param,
            "order"
        );
        assert_eq!(
            PurchaseFilter::from_query("sort=customer")
                .unwrap_err()
                .param,
            "sort"
        );
        let p = PurchaseFilter::from_query("sort=supplier").unwrap();
        assert_eq!(p.sort.as_deref(), Some("supplier"));
        let o = OfferFilter::from_query("sort=company&order=asc&term=x").unwrap();
        assert_eq!(
            (o.sort.as_deref(), o.order, o.term.as_deref()),
            (Some("company"), Some(SortOrder::Asc), Some("x"))
        );
        assert_eq!(SortOrder::default_for("due_date"), SortOrder::Desc);
        assert_eq!(SortOrder::default_for("gross_total"), SortOrder::Asc);
    }

    #[test]
    fn purchase_filter_date_ranges_and_unpaid() {
        let f = PurchaseFilter::from_query(
            "date=2026-11-01:&unpaid=true&company_id=0&status=pending,archived",
        )
        .unwrap();
        assert_eq!(
            (f.date.from.is_some(), f.date.to, f.unpaid, f.company_id),
            (true, None, Some(true), Some(0))
        );
        assert_eq!(f.status.len(), 2);
        let f2 = PurchaseFilter::from_query(&pairs_to_query(&f.to_pairs())).unwrap();
        assert_eq!(f2.date, f.date);
        let to_only = PurchaseFilter::from_query("date=:2026-11-30").unwrap();
        assert!(to_only.date.from.is_none() && to_only.date.to.is_some());
        let err = |q: &str| PurchaseFilter::from_query(q).unwrap_err().param;
        assert_eq!(err("date=2026-11-01"), "date");
        assert_eq!(err("date=2026-11-01:tomorrow"), "date");
        assert_eq!(err("unpaid=maybe"), "unpaid");
        assert_eq!(err("payment_method=gold"), "payment_method");
    }

    #[test]
    fn helpers_decode_single_and_repeated_values() {
        #[derive(Deserialize, Default)]
        #[serde(default)]
        struct Q {
            #[serde(deserialize_with = "one")]
            n: Option<i64>,
            #[serde(deserialize_with = "list")]
            m: Vec<i64>,
        }
        let q: Q = decode("n=1&n=2&m=3&m=4,5").unwrap();
        assert_eq!((q.n, q.m), (Some(2), vec![3, 4, 5]));
        let e = decode::<Q>("m=3,four").err().unwrap();
        assert_eq!(
            (e.param.as_str(), e.message.as_str()),
            ("m", "must be an integer")
        );
        assert_eq!(DateRange::parse_param("2026-01-01"), None);
        assert_eq!(DateRange::parse_param(":"), Some(DateRange::default()));
    }
}
