//! OpenAPI query parameters of the lists (feature `openapi`): `utoipa::IntoParams` for
//! [`Paging`], [`GlobalFilter`] and every resource filter of this module, written by hand so
//! that a resource filter also documents the paging and global parameters it reads
//! through its skipped fields (`params(kontor_model::query::InvoiceFilter)` names every
//! key the list accepts), and so that each parameter's schema is the form [`super::one`] and
//! [`super::list`] really read (comma-separated lists are strings, ids 64-bit integers,
//! dates `YYYY-MM-DD` with a year 1900–2999).

use super::{
    CompanyFilter, GlobalFilter, InvoiceFilter, OfferFilter, Paging, PurchaseFilter, INVOICE_SORTS,
    OFFER_SORTS, PURCHASE_SORTS,
};
use crate::dunning::OverdueFilter;
use utoipa::openapi::path::{Parameter, ParameterBuilder, ParameterIn, ParameterStyle};
use utoipa::openapi::schema::{KnownFormat, Object, ObjectBuilder, SchemaFormat, Type};
use utoipa::openapi::Required;
use utoipa::IntoParams;

const PAYMENT_METHODS: &[&str] = &[
    "bank_transfer",
    "direct_debit",
    "credit_card",
    "paypal",
    "cash",
];

/// An optional query parameter `name`.
fn param(name: &str, schema: Object, description: &str) -> Parameter {
    ParameterBuilder::new()
        .name(name)
        .parameter_in(ParameterIn::Query)
        .required(Required::False)
        .description(Some(description))
        .schema(Some(schema))
        .build()
}

fn text() -> Object {
    ObjectBuilder::new().schema_type(Type::String).build()
}

/// One of `words`.
fn word(words: &[&str]) -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .enum_values(Some(words.iter().copied()))
        .build()
}

/// A comma-separated list (also repeated keys; spaces and empty items are ignored). A plain
/// string: the server trims and skips what a pattern would have to spell out.
fn list() -> Object {
    text()
}

fn int64() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int64)))
        .build()
}

/// A positive 32-bit integer (`u32`, 0 refused).
fn positive() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::Integer)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Int32)))
        .minimum(Some(1))
        .maximum(Some(u32::MAX))
        .build()
}

fn boolean() -> Object {
    ObjectBuilder::new().schema_type(Type::Boolean).build()
}

fn date() -> Object {
    ObjectBuilder::new()
        .schema_type(Type::String)
        .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date)))
        .description(Some("A date `YYYY-MM-DD` with a year from 1900 to 2999."))
        .build()
}

fn sort_order() -> Parameter {
    param(
        "order",
        ObjectBuilder::new()
            .schema_type(Type::String)
            .enum_values(Some(["asc", "desc"]))
            .build(),
        "Direction of `sort` (case-insensitive); absent: dates newest first, everything else ascending.",
    )
}

fn sort(keys: &[&str]) -> Parameter {
    param(
        "sort",
        word(keys),
        "Sort key; `sort_by` wins when both are given. Absent: newest first.",
    )
}

fn term(description: &str) -> Parameter {
    param("term", text(), description)
}

fn tags() -> Parameter {
    param(
        "tags",
        text(),
        "Must carry all of these tags: comma-separated and/or repeated (`tags=a,b`, `tags=a&tags=b`; `tags[]=a` is read too).",
    )
}

/// Paging, global filters, then `own`: every parameter of a list.
fn with_common(mut own: Vec<Parameter>) -> Vec<Parameter> {
    let mut all = Paging::into_params(|| Some(ParameterIn::Query));
    all.extend(GlobalFilter::into_params(|| Some(ParameterIn::Query)));
    all.append(&mut own);
    all
}

impl IntoParams for Paging {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        vec![
            param("page", positive(), "Page number from 1 (default 1)."),
            param(
                "per_page",
                positive(),
                "Page size (default 100; values above 100 are treated as 100).",
            ),
            param(
                "sort_by",
                text(),
                "Sort: `<field>` or `<field> asc|desc` (the fields allowed depend on the list; another field is a 400).",
            ),
        ]
    }
}

impl IntoParams for GlobalFilter {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let custom = ObjectBuilder::new()
            .schema_type(Type::Object)
            .additional_properties(Some(ObjectBuilder::new().schema_type(Type::String)))
            .build();
        let custom_properties = ParameterBuilder::new()
            .name("custom_properties")
            .parameter_in(ParameterIn::Query)
            .required(Required::False)
            .style(Some(ParameterStyle::DeepObject))
            .explode(Some(true))
            .description(Some(
                "Exact matches of custom properties: `custom_properties[Name]=Value` (any number of names).",
            ))
            .schema(Some(custom))
            .build();
        vec![
            param(
                "ids",
                list(),
                "Only these record ids, comma-separated (given empty: no records).",
            ),
            param(
                "updated_after",
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .format(Some(SchemaFormat::KnownFormat(KnownFormat::DateTime)))
                    .build(),
                "Only records changed after this time (`YYYY-MM-DDTHH:MM:SSZ` or another RFC 3339 timestamp).",
            ),
            custom_properties,
        ]
    }
}

/// Paging and the global filters only: the parameters of a list without filters of its own
/// (`params(kontor_model::query::ListParams)`), or to put before a filter type documenting
/// only its own keys (`params(kontor_model::query::ListParams, ActivityQuery)`).
pub struct ListParams;

impl IntoParams for ListParams {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        with_common(Vec::new())
    }
}

impl IntoParams for InvoiceFilter {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        with_common(vec![
            param(
                "status",
                list(),
                "Any of these statuses, comma-separated (draft, created, sent, partially_paid, paid, overdue, ignored).",
            ),
            param("date_from", date(), "Invoice date on or after."),
            param("date_to", date(), "Invoice date on or before."),
            param(
                "service_period_from",
                date(),
                "Service period starting on or after.",
            ),
            param("service_period_to", date(), "Service period ending on or before."),
            tags(),
            param("identifier", text(), "Exact invoice number."),
            term("Case-insensitive substring search (`*` a wildcard) in number, title, customer name and recipient address."),
            sort(INVOICE_SORTS),
            sort_order(),
            param(
                "company_id",
                int64(),
                "Customer company id (`customer_id` is another name).",
            ),
            param("customer_id", int64(), "Another name for `company_id`."),
            param("project_id", int64(), "Project id."),
            param(
                "open",
                boolean(),
                "`true`: only invoices with an open amount; `false`: only those without.",
            ),
            param(
                "overdue",
                boolean(),
                "`true`: only overdue invoices; `false`: only those that are not.",
            ),
        ])
    }
}

impl IntoParams for OfferFilter {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        with_common(vec![
            param(
                "status",
                list(),
                "Any of these statuses, comma-separated (created, sent, accepted, partially_billed, billed, archived).",
            ),
            param("from", date(), "Offer date on or after."),
            param("to", date(), "Offer date on or before."),
            param("identifier", text(), "Exact offer number."),
            param("deal_id", list(), "Any of these deals (comma-separated ids)."),
            param(
                "project_id",
                list(),
                "Any of these projects (comma-separated ids).",
            ),
            param("company_id", int64(), "Customer company id."),
            term("Case-insensitive substring search (`*` a wildcard) in number, title, company name and recipient address."),
            sort(OFFER_SORTS),
            sort_order(),
        ])
    }
}

impl IntoParams for PurchaseFilter {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let range = text();
        with_common(vec![
            param(
                "category_id",
                int64(),
                "Category of the purchase or of one of its positions.",
            ),
            term("Case-insensitive substring search (`*` a wildcard) in identifier, receipt number, title, supplier name and position titles."),
            sort(PURCHASE_SORTS),
            sort_order(),
            param(
                "company_id",
                int64(),
                "Supplier company id; 0 selects purchases without a supplier.",
            ),
            param(
                "status",
                list(),
                "Any of these statuses, comma-separated (pending, approved; archived is read as approved).",
            ),
            tags(),
            param(
                "date",
                range,
                "Purchase date range `YYYY-MM-DD:YYYY-MM-DD`; either side may be empty (`2026-11-01:`).",
            ),
            param(
                "unpaid",
                boolean(),
                "`true`: only purchases without any payment; `false`: only those with payments.",
            ),
            param("payment_method", word(PAYMENT_METHODS), "Payment method."),
        ])
    }
}

impl IntoParams for CompanyFilter {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        with_common(vec![
            param(
                "type",
                list(),
                "Any of these roles, comma-separated (customer, supplier, organization).",
            ),
            term("Case-insensitive substring of name, address, e-mail, phone, VAT ID or tags (`name` is another name)."),
            param("name", text(), "Another name for `term`."),
            tags(),
            param(
                "active",
                boolean(),
                "`true`: only active companies; `false`: only archived ones; absent: all.",
            ),
        ])
    }
}

impl IntoParams for OverdueFilter {
    fn into_params(_: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        with_common(vec![
            param(
                "company_id",
                int64(),
                "Customer company id (`customer_id` is another name).",
            ),
            param("customer_id", int64(), "Another name for `company_id`."),
            param(
                "level",
                positive(),
                "Only invoices whose next dunning level is this one (1: never reminded).",
            ),
        ])
    }
}
