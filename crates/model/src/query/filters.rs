//! The resources' own list filters: [`InvoiceFilter`], [`OfferFilter`], [`PurchaseFilter`]
//! and [`CompanyFilter`], each with its paging and global filters as skipped fields
//! ([`ListFilter`]) and, but for the companies, its `sort`/`order` ([`SortedFilter`]).
//! Every field's comment is also its OpenAPI parameter's description (feature `openapi`,
//! `#[derive(IntoParams)]`; the schemas a Rust type would get wrong come from
//! [`super::openapi`]).

#[cfg(feature = "openapi")]
use super::openapi;
use super::{
    comma_joined, list, one, DateRange, GlobalFilter, ListFilter, Paging, SortOrder, SortedFilter,
    INVOICE_SORTS, OFFER_SORTS, PURCHASE_SORTS,
};
use crate::offer::OfferStatus;
use crate::purchase::{PaymentMethod, PurchaseStatus};
use crate::status::InvoiceStatus;
use chrono::NaiveDate;
use serde::de::{self, Deserializer};
use serde::{Deserialize, Serialize, Serializer};

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

/// GET /invoices (and /invoices/locked) filters. Its OpenAPI parameters (feature
/// `openapi`) are its own keys; a route names `ListParams` and `CustomerIdAlias` too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct InvoiceFilter {
    /// Any of these statuses, comma-separated (draft, created, sent, partially_paid, paid,
    /// overdue, ignored).
    #[serde(
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub status: Vec<InvoiceStatus>,
    /// Invoice date on or after.
    // `date_from` on the wire, the interface's name; inside, every date range says
    // `from`/`to`.
    #[serde(rename = "date_from", deserialize_with = "one")]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::QueryDate, inline))]
    pub from: Option<NaiveDate>,
    /// Invoice date on or before.
    #[serde(rename = "date_to", deserialize_with = "one")]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::QueryDate, inline))]
    pub to: Option<NaiveDate>,
    /// Service period starting on or after.
    #[serde(deserialize_with = "one")]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::QueryDate, inline))]
    pub service_period_from: Option<NaiveDate>,
    /// Service period ending on or before.
    #[serde(deserialize_with = "one")]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::QueryDate, inline))]
    pub service_period_to: Option<NaiveDate>,
    /// Must carry all of these tags: comma-separated and/or repeated (`tags=a,b`,
    /// `tags=a&tags=b`; `tags[]=a` is read too).
    #[serde(
        alias = "tags[]",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub tags: Vec<String>,
    /// Exact invoice number.
    #[serde(deserialize_with = "one")]
    pub identifier: Option<String>,
    /// Case-insensitive substring search (`*` a wildcard) in number, title, customer name
    /// and recipient address.
    // Issue 11 § Find and see.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// Sort key; `sort_by` wins when both are given. Absent: newest first.
    // Issue 11: `identifier`, `date`, `due_date`, `customer`, `gross_total`, `open_amount`
    // ([`INVOICE_SORTS`]).
    #[serde(
        deserialize_with = "invoice_sort",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::InvoiceSorts, inline))]
    pub sort: Option<String>,
    /// Direction of `sort` (case-insensitive); absent: dates newest first, everything else
    /// ascending.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(inline))]
    pub order: Option<SortOrder>,
    /// Customer company id (`customer_id` is another name).
    // `decisions.md` § Invoices.
    #[serde(alias = "customer_id", deserialize_with = "one")]
    pub company_id: Option<i64>,
    /// Project id.
    #[serde(deserialize_with = "one")]
    pub project_id: Option<i64>,
    /// `true`: only invoices with an open amount; `false`: only those without.
    // Something still to be paid (`open_amount` > 0, `crate::dashboard::open_amount`);
    // issue 11, the dashboard's links.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub open: Option<bool>,
    /// `true`: only overdue invoices; `false`: only those that are not.
    // `crate::dashboard::is_overdue` on the server's date; issue 11, the dashboard's links.
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
/// `identifier`, `deal_id` and `project_id` (single or comma-separated ids). Its OpenAPI
/// parameters (feature `openapi`) are its own keys; a route names `ListParams` too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct OfferFilter {
    /// Any of these statuses, comma-separated (created, sent, accepted, partially_billed,
    /// billed, archived).
    #[serde(
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub status: Vec<OfferStatus>,
    /// Offer date on or after.
    #[serde(deserialize_with = "one")]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::QueryDate, inline))]
    pub from: Option<NaiveDate>,
    /// Offer date on or before.
    #[serde(deserialize_with = "one")]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::QueryDate, inline))]
    pub to: Option<NaiveDate>,
    /// Valid until (`due_date`) on or after (issue 33: the dashboard's "offers expiring
    /// within 7 days" links here).
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::QueryDate, inline))]
    pub due_date_from: Option<NaiveDate>,
    /// Valid until (`due_date`) on or before.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::QueryDate, inline))]
    pub due_date_to: Option<NaiveDate>,
    /// Exact offer number.
    #[serde(deserialize_with = "one")]
    pub identifier: Option<String>,
    /// Any of these deals (comma-separated ids).
    #[serde(
        rename = "deal_id",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub deal_ids: Vec<i64>,
    /// Any of these projects (comma-separated ids).
    #[serde(
        rename = "project_id",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub project_ids: Vec<i64>,
    /// Customer company id.
    #[serde(deserialize_with = "one")]
    pub company_id: Option<i64>,
    /// Case-insensitive substring search (`*` a wildcard) in number, title, company name
    /// and recipient address.
    // Issue 11 § Find and see.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// Sort key; `sort_by` wins when both are given. Absent: newest first.
    // The interface's `sort` (`date`, `created_at`, `title`) and issue 11's (`identifier`,
    // `company`, `gross_total`): [`OFFER_SORTS`].
    #[serde(
        deserialize_with = "offer_sort",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::OfferSorts, inline))]
    pub sort: Option<String>,
    /// Direction of `sort` (case-insensitive); absent: dates newest first, everything else
    /// ascending.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(inline))]
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

fn date_range<'de, D: Deserializer<'de>>(d: D) -> Result<DateRange, D::Error> {
    one(d).map(Option::unwrap_or_default)
}

fn write_range<S: Serializer>(range: &DateRange, s: S) -> Result<S::Ok, S::Error> {
    let side = |v: Option<NaiveDate>| v.map(|d| d.to_string()).unwrap_or_default();
    s.serialize_str(&format!("{}:{}", side(range.from), side(range.to)))
}

/// GET /purchases filters (interface.md; `decisions.md` § Lists). Its OpenAPI parameters
/// (feature `openapi`) are its own keys; a route names `ListParams` too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct PurchaseFilter {
    /// Category of the purchase or of one of its positions.
    #[serde(deserialize_with = "one")]
    pub category_id: Option<i64>,
    /// Case-insensitive substring search (`*` a wildcard) in identifier, receipt number,
    /// title, supplier name and position titles.
    // Issue 11 § Find and see.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    pub term: Option<String>,
    /// Sort key; `sort_by` wins when both are given. Absent: newest first.
    // Issue 11: `identifier`, `date`, `supplier`, `gross_total` ([`PURCHASE_SORTS`]).
    #[serde(
        deserialize_with = "purchase_sort",
        skip_serializing_if = "Option::is_none"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = openapi::PurchaseSorts, inline))]
    pub sort: Option<String>,
    /// Direction of `sort` (case-insensitive); absent: dates newest first, everything else
    /// ascending.
    #[serde(deserialize_with = "one", skip_serializing_if = "Option::is_none")]
    #[cfg_attr(feature = "openapi", param(inline))]
    pub order: Option<SortOrder>,
    /// Supplier company id; 0 selects purchases without a supplier.
    #[serde(deserialize_with = "one")]
    pub company_id: Option<i64>,
    /// Any of these statuses, comma-separated (pending, approved; archived is read as
    /// approved).
    #[serde(
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub status: Vec<PurchaseStatus>,
    /// Must carry all of these tags: comma-separated and/or repeated (`tags=a,b`,
    /// `tags=a&tags=b`; `tags[]=a` is read too).
    #[serde(
        alias = "tags[]",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub tags: Vec<String>,
    /// Purchase date range `YYYY-MM-DD:YYYY-MM-DD`; either side may be empty
    /// (`2026-11-01:`).
    #[serde(
        deserialize_with = "date_range",
        serialize_with = "write_range",
        skip_serializing_if = "DateRange::is_open"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub date: DateRange,
    /// `true`: only purchases without any payment; `false`: only those with payments.
    #[serde(deserialize_with = "one")]
    pub unpaid: Option<bool>,
    /// Payment method.
    #[serde(deserialize_with = "one")]
    #[cfg_attr(feature = "openapi", param(inline))]
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
/// all), `active` (`true`/`false`; absent: all). Its OpenAPI parameters (feature
/// `openapi`) are its own keys; a route names `ListParams` and `NameAlias` too.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::IntoParams))]
#[cfg_attr(feature = "openapi", into_params(parameter_in = Query))]
#[serde(default)]
pub struct CompanyFilter {
    /// Any of these roles, comma-separated (customer, supplier, organization).
    #[serde(
        rename = "type",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub kinds: Vec<crate::party::CompanyType>,
    /// Case-insensitive substring of name, address, e-mail, phone, VAT ID or tags (`name`
    /// is another name).
    #[serde(
        alias = "name",
        deserialize_with = "one",
        skip_serializing_if = "Option::is_none"
    )]
    pub term: Option<String>,
    /// Must carry all of these tags: comma-separated and/or repeated (`tags=a,b`,
    /// `tags=a&tags=b`; `tags[]=a` is read too).
    #[serde(
        alias = "tags[]",
        deserialize_with = "list",
        serialize_with = "comma_joined",
        skip_serializing_if = "Vec::is_empty"
    )]
    #[cfg_attr(feature = "openapi", param(value_type = String))]
    pub tags: Vec<String>,
    /// `true`: only active companies; `false`: only archived ones; absent: all.
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
