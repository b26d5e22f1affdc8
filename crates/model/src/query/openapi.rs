//! OpenAPI query parameters of the lists (feature `openapi`). The list filters
//! ([`super::Paging`], [`super::GlobalFilter`], [`super::InvoiceFilter`],
//! [`super::OfferFilter`], [`super::PurchaseFilter`], [`super::CompanyFilter`]) and
//! [`crate::dunning::OverdueFilter`] derive `utoipa::IntoParams`, their field comments
//! being the parameters' descriptions; what a derive cannot say is here:
//!
//! - the schemas of the forms [`super::one`] and [`super::list`] really read where the
//!   Rust type would say otherwise: [`QueryDate`] (a year 1900–2999) and the `sort` keys
//!   ([`InvoiceSorts`], [`OfferSorts`], [`PurchaseSorts`], from the lists' constants);
//! - the parameters serde does not see as fields: `custom_properties[Name]=Value` (read
//!   by [`super::GlobalFilter::from_query`]) and the other names of a field (serde
//!   aliases: [`CustomerIdAlias`], [`NameAlias`]);
//! - [`ListParams`]: paging, global filters and custom properties, the parameters every
//!   list reads, for a route to name before its own filter
//!   (`params(ListParams, InvoiceFilter, CustomerIdAlias)`).

use super::{GlobalFilter, Paging, INVOICE_SORTS, OFFER_SORTS, PURCHASE_SORTS};
use std::collections::HashMap;
use utoipa::openapi::path::{Parameter, ParameterIn};
use utoipa::openapi::schema::{KnownFormat, ObjectBuilder, Schema, SchemaFormat, Type};
use utoipa::openapi::RefOr;
use utoipa::{IntoParams, PartialSchema, ToSchema};

/// The schema of a query date: a string `YYYY-MM-DD` (format `date`) with a year from
/// 1900 to 2999 ([`crate::wire::parse_date`]). Only named as a `value_type`.
pub struct QueryDate;

impl PartialSchema for QueryDate {
    fn schema() -> RefOr<Schema> {
        ObjectBuilder::new()
            .schema_type(Type::String)
            .format(Some(SchemaFormat::KnownFormat(KnownFormat::Date)))
            .description(Some("A date `YYYY-MM-DD` with a year from 1900 to 2999."))
            .into()
    }
}

impl ToSchema for QueryDate {}

/// A type whose schema is a string enum of `$keys`, only named as a `value_type`.
macro_rules! sort_keys {
    ($(#[$doc:meta])* $name:ident = $keys:expr) => {
        $(#[$doc])*
        pub struct $name;

        impl PartialSchema for $name {
            fn schema() -> RefOr<Schema> {
                ObjectBuilder::new()
                    .schema_type(Type::String)
                    .enum_values(Some($keys.iter().copied()))
                    .into()
            }
        }

        impl ToSchema for $name {}
    };
}

sort_keys!(
    /// The schema of GET /invoices' `sort`: one of [`INVOICE_SORTS`].
    InvoiceSorts = INVOICE_SORTS
);
sort_keys!(
    /// The schema of GET /offers' `sort`: one of [`OFFER_SORTS`].
    OfferSorts = OFFER_SORTS
);
sort_keys!(
    /// The schema of GET /purchases' `sort`: one of [`PURCHASE_SORTS`].
    PurchaseSorts = PURCHASE_SORTS
);

/// `custom_properties[Name]=Value` of every list, which [`GlobalFilter::from_query`] reads
/// past serde; only its parameter description (part of [`ListParams`]).
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CustomProperties {
    /// Exact matches of custom properties: `custom_properties[Name]=Value` (any number of
    /// names).
    #[param(style = DeepObject, explode)]
    pub custom_properties: Option<HashMap<String, String>>,
}

/// `customer_id`, the other name of `company_id` in [`super::InvoiceFilter`] and
/// [`crate::dunning::OverdueFilter`] (a serde alias); only its parameter description.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct CustomerIdAlias {
    /// Another name for `company_id`.
    pub customer_id: Option<i64>,
}

/// `name`, the other name of `term` in [`super::CompanyFilter`] (a serde alias); only its
/// parameter description.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct NameAlias {
    /// Another name for `term`.
    pub name: Option<String>,
}

/// Paging, the global filters and custom properties: the parameters of a list without
/// filters of its own (`params(kontor_model::query::ListParams)`), or to put before a
/// filter type documenting only its own keys (`params(ListParams, InvoiceFilter)`).
pub struct ListParams;

impl IntoParams for ListParams {
    fn into_params(parameter_in: impl Fn() -> Option<ParameterIn>) -> Vec<Parameter> {
        let mut all = Paging::into_params(&parameter_in);
        all.extend(GlobalFilter::into_params(&parameter_in));
        all.extend(CustomProperties::into_params(&parameter_in));
        all
    }
}

#[cfg(test)]
mod tests {
    use super::super::{CompanyFilter, InvoiceFilter, OfferFilter, PurchaseFilter};
    use super::*;
    use crate::dunning::OverdueFilter;
    use serde_json::{json, Value};

    /// The parameters of `P` as JSON: name → (parameter without name, in and required;
    /// its schema).
    fn params<P: IntoParams>() -> Vec<(String, Value)> {
        P::into_params(|| None)
            .into_iter()
            .map(|p| {
                let mut v = serde_json::to_value(&p).unwrap();
                assert_eq!(v["in"], "query", "{}", p.name);
                assert_eq!(v["required"], false, "{}", p.name);
                let o = v.as_object_mut().unwrap();
                o.remove("in");
                o.remove("required");
                (o.remove("name").unwrap().as_str().unwrap().to_string(), v)
            })
            .collect()
    }

    fn names<P: IntoParams>() -> Vec<String> {
        params::<P>().into_iter().map(|p| p.0).collect()
    }

    fn schema<P: IntoParams>(name: &str) -> Value {
        let all = params::<P>();
        let (_, p) = all.iter().find(|p| p.0 == name).expect(name);
        p["schema"].clone()
    }

    #[test]
    fn list_params_are_paging_global_filters_and_custom_properties() {
        assert_eq!(
            names::<ListParams>(),
            [
                "page",
                "per_page",
                "sort_by",
                "cursor",
                "ids",
                "updated_after",
                "custom_properties"
            ]
        );
        let positive =
            json!({"type": "integer", "format": "int32", "minimum": 1, "maximum": 4294967295_u32});
        assert_eq!(schema::<ListParams>("page"), positive);
        assert_eq!(schema::<ListParams>("per_page"), positive);
        assert_eq!(
            schema::<ListParams>("cursor"),
            json!({"type": "integer", "format": "int64", "minimum": 1, "maximum": 9007199254740991_i64})
        );
        assert_eq!(schema::<ListParams>("ids"), json!({"type": "string"}));
        assert_eq!(
            schema::<ListParams>("updated_after"),
            json!({"type": "string", "format": "date-time"})
        );
        let custom = params::<ListParams>().pop().unwrap().1;
        assert_eq!(
            (&custom["style"], &custom["explode"]),
            (&json!("deepObject"), &json!(true))
        );
        assert_eq!(
            custom["schema"]["additionalProperties"],
            json!({"type": "string"})
        );
    }

    /// Every key a list route reads is documented once: `ListParams`, then its filter, then
    /// the other names (as the server's `params(...)` name them).
    #[test]
    fn list_routes_name_every_key_once() {
        let route = |own: Vec<String>, other: Vec<String>| {
            let mut all = names::<ListParams>();
            all.extend(own);
            all.extend(other);
            all
        };
        let routes = [
            names::<ListParams>(),
            route(names::<InvoiceFilter>(), names::<CustomerIdAlias>()),
            route(names::<OfferFilter>(), Vec::new()),
            route(names::<PurchaseFilter>(), Vec::new()),
            route(names::<CompanyFilter>(), names::<NameAlias>()),
            route(names::<OverdueFilter>(), names::<CustomerIdAlias>()),
        ];
        for keys in &routes {
            assert!(keys.starts_with(&names::<ListParams>()), "{keys:?}");
            let mut unique = keys.clone();
            unique.sort();
            unique.dedup();
            assert_eq!(unique.len(), keys.len(), "a key named twice: {keys:?}");
        }
        assert!(routes[1].contains(&"customer_id".to_string()));
        assert!(routes[4].contains(&"name".to_string()));
    }

    /// The wire names (serde renames), in field order, skipped fields left out.
    #[test]
    fn filters_document_their_wire_names() {
        assert_eq!(
            names::<InvoiceFilter>(),
            [
                "status",
                "date_from",
                "date_to",
                "service_period_from",
                "service_period_to",
                "tags",
                "identifier",
                "term",
                "sort",
                "order",
                "company_id",
                "project_id",
                "open",
                "overdue"
            ]
        );
        assert_eq!(
            names::<OfferFilter>(),
            [
                "status",
                "from",
                "to",
                "due_date_from",
                "due_date_to",
                "identifier",
                "deal_id",
                "project_id",
                "company_id",
                "term",
                "sort",
                "order"
            ]
        );
        assert_eq!(
            names::<PurchaseFilter>(),
            [
                "category_id",
                "term",
                "sort",
                "order",
                "company_id",
                "status",
                "tags",
                "date",
                "unpaid",
                "payment_method"
            ]
        );
        assert_eq!(names::<CompanyFilter>(), ["type", "term", "tags", "active"]);
        assert_eq!(names::<OverdueFilter>(), ["company_id", "level"]);
        assert_eq!(names::<CustomerIdAlias>(), ["customer_id"]);
        assert_eq!(names::<NameAlias>(), ["name"]);
    }

    /// Each schema is the form the parser reads: lists and ranges are strings, ids 64-bit
    /// integers, dates `date`, sort keys and enums their words, levels positive.
    #[test]
    fn schemas_are_the_forms_read() {
        let text = json!({"type": "string"});
        assert_eq!(schema::<InvoiceFilter>("status"), text);
        assert_eq!(schema::<InvoiceFilter>("tags"), text);
        assert_eq!(schema::<OfferFilter>("deal_id"), text);
        assert_eq!(schema::<PurchaseFilter>("date"), text);
        assert_eq!(schema::<CompanyFilter>("type"), text);
        let id = json!({"type": "integer", "format": "int64"});
        assert_eq!(schema::<InvoiceFilter>("company_id"), id);
        assert_eq!(schema::<CustomerIdAlias>("customer_id"), id);
        let date = schema::<InvoiceFilter>("date_from");
        assert_eq!(
            (&date["type"], &date["format"]),
            (&json!("string"), &json!("date"))
        );
        assert_eq!(schema::<OfferFilter>("to"), date);
        assert_eq!(
            schema::<InvoiceFilter>("sort")["enum"],
            json!(INVOICE_SORTS)
        );
        assert_eq!(schema::<OfferFilter>("sort")["enum"], json!(OFFER_SORTS));
        assert_eq!(
            schema::<PurchaseFilter>("sort")["enum"],
            json!(PURCHASE_SORTS)
        );
        assert_eq!(
            schema::<PurchaseFilter>("order")["enum"],
            json!(["asc", "desc"])
        );
        assert_eq!(
            schema::<PurchaseFilter>("payment_method")["enum"],
            json!([
                "bank_transfer",
                "direct_debit",
                "credit_card",
                "paypal",
                "cash"
            ])
        );
        assert_eq!(
            schema::<CompanyFilter>("active"),
            json!({"type": "boolean"})
        );
        assert_eq!(schema::<OverdueFilter>("level")["minimum"], json!(1));
    }
}
