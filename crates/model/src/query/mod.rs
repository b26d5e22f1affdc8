//! List query parameters (interface.md § GET /invoices; `decisions.md` § Lists): plain
//! serde structs, decoded from and written to a query string by `serde_html_form`, the
//! same way by the browser (its URL) and the server (the request).
//!
//! - [`Paging`] (`page`, `per_page`, `sort_by`) and [`GlobalFilter`] (`ids`,
//!   `updated_after`, `custom_properties[Name]=Value`) are read by every list.
//! - [`InvoiceFilter`], [`OfferFilter`], [`PurchaseFilter`], [`CompanyFilter`] are the
//!   resources' own filters (in `filters.rs`); they carry their paging and global filter
//!   as skipped fields, filled by [`ListFilter::from_query`].
//! - [`decode`] names the parameter of a malformed value ([`QueryError`], a 400 on the
//!   server); unknown parameters are ignored.
//! - The fields' forms are given by [`one`] (a single value, last one wins, empty = absent)
//!   and [`list`] (comma-separated and/or repeated), both through [`Param`]; these
//!   helpers live in `form.rs`, this file holds the common types.
//! - With the feature `openapi` every filter derives `utoipa::IntoParams`; `openapi.rs`
//!   holds the parameters and schemas a derive cannot write, and [`ListParams`]
//!   (paging, global filters and custom properties) for a route to name first.

mod filters;
mod form;
mod monthly;
#[cfg(feature = "openapi")]
pub mod openapi;
mod summary;

pub use filters::{CompanyFilter, InvoiceFilter, OfferFilter, PurchaseFilter};
pub use form::{
    comma_joined, decode, encode, id_list, list, one, parse_date, parse_id, split_list, Param,
    QueryError,
};
pub use monthly::{invoice_months, CurrencyMonths, InvoiceMonths, MonthAmounts, MonthRow};
#[cfg(feature = "openapi")]
pub use openapi::{CustomerIdAlias, ListParams, NameAlias};
pub use summary::{CurrencyTotals, ListSummary};

use chrono::{DateTime, NaiveDate, Utc};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// Pagination and sorting common to every list: `page` (from 1), `per_page` (1–100,
/// default 100; larger values are treated as 100), `sort_by=<field> [asc|desc]`.
///
/// The field comments below are also the OpenAPI descriptions of the parameters (feature
/// `openapi`), as in every filter of this module.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct Paging {
    /// Page number from 1 (default 1).
    #[serde(deserialize_with = "one", skip_serializing_if = "first_page")]
    #[cfg_attr(feature = "openapi", param(minimum = 1, maximum = 4294967295_u32))]
    pub page: Option<u32>,
    /// Page size (default 100; values above 100 are treated as 100).
    #[serde(deserialize_with = "one")]
    #[cfg_attr(feature = "openapi", param(minimum = 1, maximum = 4294967295_u32))]
    pub per_page: Option<u32>,
    /// Sort: `<field>` or `<field> asc|desc` (the fields allowed depend on the list; another
    /// field is a 400).
    // Kept as given (`"gross_total desc"`); validated per resource by the server.
    #[serde(deserialize_with = "one")]
    pub sort_by: Option<String>,
    /// Where the page starts: the cursor of the `Link` header's `next` URL (issue 35, keyset
    /// paging) — the id of the last record of the page before, in the same order. Lists
    /// that read pages by cursor (invoices, offers and purchases, sorted by a column that
    /// is never empty)
    /// start right after that record, so a deep page costs what page 1 costs; `page`
    /// still numbers the page. A cursor naming no stored record is ignored (the page is
    /// read by its number). Other lists ignore it. Error: 400 naming `cursor` when it is
    /// not a positive integer.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(
        feature = "openapi",
        param(value_type = Option<i64>, minimum = 1, maximum = 9007199254740991_i64)
    )]
    pub cursor: Option<Cursor>,
}

/// A keyset paging cursor (see [`Paging::cursor`]): the id of the last record of the
/// previous page (≥ 1), written as that integer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(transparent)]
pub struct Cursor(pub i64);

impl Param for Cursor {
    const EXPECTED: &'static str = "the cursor of a Link header's next URL (a positive integer)";
    fn parse_param(text: &str) -> Option<Self> {
        text.parse().ok().filter(|n| *n > 0).map(Cursor)
    }
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

    /// The rows before the page to serve: `(page − 1) × per_page`, 0 to
    /// (2³² − 2) × 100 — computed in 64 bits, so no page number a client can send
    /// overflows it (an `OFFSET` beyond the rows reads an empty page).
    pub fn offset(&self) -> u64 {
        u64::from(self.page() - 1) * u64::from(self.per_page())
    }
}

/// Global filters of every list: `ids`, `updated_after`, `custom_properties[Name]=Value`.
///
/// Its OpenAPI parameters (feature `openapi`) are `ids` and `updated_after`;
/// `custom_properties`, read past serde, is described by `ListParams`.
#[derive(Clone, Debug, Default, PartialEq, Eq, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct GlobalFilter {
    /// Only these record ids, comma-separated (given empty: no records).
    #[serde(deserialize_with = "id_list")]
    #[cfg_attr(feature = "openapi", param(value_type = Option<String>))]
    pub ids: Option<Vec<i64>>,
    /// Only records changed after this time (`YYYY-MM-DDTHH:MM:SSZ` or another RFC 3339
    /// timestamp).
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

/// The direction of a list's `sort` (`order=asc|desc`).
// Issue 11.
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

#[cfg(test)]
mod tests;
