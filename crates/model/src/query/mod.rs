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

/// A document list's filter that the list's column headers sort: `sort` (a key of the
/// list's sort keys) and `order`, both in the URL.
pub trait SortedFilter: ListFilter {
    /// `sort` and `order`, to change.
    fn sorting_mut(&mut self) -> (&mut Option<String>, &mut Option<SortOrder>);

    /// `sort` and `order` as given.
    fn sorting(&self) -> (Option<&str>, Option<SortOrder>);

    /// The filter without paging and sort: what the list's summary and totals are of.
    fn unpaged(&self) -> Self
    where
        Self: Clone,
    {
        let mut f = self.clone();
        *f.paging_mut() = Paging::default();
        let (sort, order) = f.sorting_mut();
        *sort = None;
        *order = None;
        f
    }

    /// True when any filter is set: the filter differs from the default once paging and
    /// sort are left out (what "Clear filters" keeps).
    fn has_filters(&self) -> bool
    where
        Self: Clone + PartialEq,
    {
        self.unpaged() != Self::default()
    }

    /// The default filter with this one's `sort`, `order` and `per_page`: what "Clear
    /// filters" leaves.
    fn cleared(&self) -> Self {
        let (sort, order) = self.sorting();
        let sort = sort.map(str::to_string);
        let mut f = Self::default();
        *f.sorting_mut().0 = sort;
        *f.sorting_mut().1 = order;
        f.paging_mut().per_page = self.paging_ref().per_page;
        f
    }
}

macro_rules! sorted_filter {
    ($t:ty) => {
        impl SortedFilter for $t {
            fn sorting_mut(&mut self) -> (&mut Option<String>, &mut Option<SortOrder>) {
                (&mut self.sort, &mut self.order)
            }
            fn sorting(&self) -> (Option<&str>, Option<SortOrder>) {
                (self.sort.as_deref(), self.order)
            }
        }
    };
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
    /// Invoice date on or after (`date_from` on the wire, the interface's name; inside,
    /// every date range says `from`/`to`).
    #[serde(rename = "date_from", deserialize_with = "one")]
    pub from: Option<NaiveDate>,
    /// Invoice date on or before (`date_to` on the wire).
    #[serde(rename = "date_to", deserialize_with = "one")]
    pub to: Option<NaiveDate>,
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
sorted_filter!(InvoiceFilter);

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
sorted_filter!(OfferFilter);

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
sorted_filter!(PurchaseFilter);

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
mod tests;
