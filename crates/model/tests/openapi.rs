//! The OpenAPI schemas and query parameters of the wire types (feature `openapi`): every
//! `$ref` resolves, amounts are numbers, enum words are documented. The list parameters
//! are tested beside them (`query::openapi`).
#![cfg(feature = "openapi")]

use serde_json::Value;
use std::collections::BTreeMap;
use utoipa::openapi::{RefOr, Schema};
use utoipa::ToSchema;

type Schemas = BTreeMap<String, Value>;

/// `T`'s schema and every schema it refers to, by component name.
fn add<T: ToSchema>(all: &mut Schemas) {
    let mut nested: Vec<(String, RefOr<Schema>)> = Vec::new();
    T::schemas(&mut nested);
    nested.push((T::name().into_owned(), T::schema()));
    for (name, schema) in nested {
        all.insert(name, serde_json::to_value(schema).unwrap());
    }
}

fn all_schemas() -> Schemas {
    let mut all = Schemas::new();
    add::<kontor_model::account::LetterPaper>(&mut all);
    add::<kontor_model::account::DocumentText>(&mut all);
    add::<kontor_model::account::DocumentTexts>(&mut all);
    add::<kontor_model::account::Logo>(&mut all);
    add::<kontor_model::account::SmtpSecurity>(&mut all);
    add::<kontor_model::account::SmtpSettings>(&mut all);
    add::<kontor_model::account::AccountHead>(&mut all);
    add::<kontor_model::account::Account>(&mut all);
    add::<kontor_model::account::DocumentTextUpdate>(&mut all);
    add::<kontor_model::account::DocumentTextsUpdate>(&mut all);
    add::<kontor_model::account::SmtpUpdate>(&mut all);
    add::<kontor_model::account::AccountUpdate>(&mut all);
    add::<kontor_model::account::Session>(&mut all);
    add::<kontor_model::billing::BillableRef>(&mut all);
    add::<kontor_model::billing::Activity>(&mut all);
    add::<kontor_model::billing::NewActivity>(&mut all);
    add::<kontor_model::billing::Expense>(&mut all);
    add::<kontor_model::billing::NewExpense>(&mut all);
    add::<kontor_model::dashboard::MonthRevenue>(&mut all);
    add::<kontor_model::dashboard::CurrencyAmount>(&mut all);
    add::<kontor_model::dashboard::OpenInvoice>(&mut all);
    add::<kontor_model::dashboard::Receivables>(&mut all);
    add::<kontor_model::dashboard::Revenue>(&mut all);
    add::<kontor_model::dashboard::PendingPurchases>(&mut all);
    add::<kontor_model::dashboard::SentOffers>(&mut all);
    add::<kontor_model::dashboard::Dashboard>(&mut all);
    add::<kontor_model::datev::RevenueAccounts>(&mut all);
    add::<kontor_model::datev::DatevSettings>(&mut all);
    add::<kontor_model::datev::RevenueAccountsUpdate>(&mut all);
    add::<kontor_model::datev::DatevUpdate>(&mut all);
    add::<kontor_model::dunning::LevelTexts>(&mut all);
    add::<kontor_model::dunning::DunningLevel>(&mut all);
    add::<kontor_model::dunning::DunningLevels>(&mut all);
    add::<kontor_model::dunning::BaseRate>(&mut all);
    add::<kontor_model::dunning::BaseRates>(&mut all);
    add::<kontor_model::dunning::OverdueInvoice>(&mut all);
    add::<kontor_model::einvoice::Place>(&mut all);
    add::<kontor_model::einvoice::MissingField>(&mut all);
    add::<kontor_model::email::SendEmail>(&mut all);
    add::<kontor_model::email::SentEmail>(&mut all);
    add::<kontor_model::error::ErrorBody>(&mut all);
    add::<kontor_model::event::SubjectType>(&mut all);
    add::<kontor_model::event::EventKind>(&mut all);
    add::<kontor_model::event::Event>(&mut all);
    add::<kontor_model::event::CreatedData>(&mut all);
    add::<kontor_model::event::FinalizedData>(&mut all);
    add::<kontor_model::event::SentData>(&mut all);
    add::<kontor_model::event::PaymentData>(&mut all);
    add::<kontor_model::event::ReminderData>(&mut all);
    add::<kontor_model::event::StatusChangedData>(&mut all);
    add::<kontor_model::event::CopiedData>(&mut all);
    add::<kontor_model::event::ReversedData>(&mut all);
    add::<kontor_model::event::DocumentUploadedData>(&mut all);
    add::<kontor_model::invoice::Vat>(&mut all);
    add::<kontor_model::invoice::PaymentMeans>(&mut all);
    add::<kontor_model::invoice::InvoiceRow>(&mut all);
    add::<kontor_model::invoice::Invoice>(&mut all);
    add::<kontor_model::invoice::InvoiceItem>(&mut all);
    add::<kontor_model::invoice_input::VatInput>(&mut all);
    add::<kontor_model::invoice_input::NewInvoice>(&mut all);
    add::<kontor_model::invoice_input::NewInvoiceItem>(&mut all);
    add::<kontor_model::invoice_input::StatusChange>(&mut all);
    add::<kontor_model::invoice_input::DeleteReason>(&mut all);
    add::<kontor_model::offer::OfferStatus>(&mut all);
    add::<kontor_model::offer::OfferVat>(&mut all);
    add::<kontor_model::offer::OfferItem>(&mut all);
    add::<kontor_model::offer::OfferConfirmation>(&mut all);
    add::<kontor_model::confirmation::OfferConfirmationInput>(&mut all);
    add::<kontor_model::offer::CustomerApproval>(&mut all);
    add::<kontor_model::offer::InvoiceRef>(&mut all);
    add::<kontor_model::offer::Offer>(&mut all);
    add::<kontor_model::offer::NewOfferItem>(&mut all);
    add::<kontor_model::offer::NewOffer>(&mut all);
    add::<kontor_model::offer::Attachment>(&mut all);
    add::<kontor_model::offer::FileUpload>(&mut all);
    add::<kontor_model::offer::NewAttachment>(&mut all);
    add::<kontor_model::party::Language>(&mut all);
    add::<kontor_model::party::EinvoiceFormat>(&mut all);
    add::<kontor_model::party::Gender>(&mut all);
    add::<kontor_model::party::BillingContact>(&mut all);
    add::<kontor_model::party::IdName>(&mut all);
    add::<kontor_model::party::CompanyRef>(&mut all);
    add::<kontor_model::party::UserRef>(&mut all);
    add::<kontor_model::party::CompanyType>(&mut all);
    add::<kontor_model::party::CustomerVat>(&mut all);
    add::<kontor_model::party::Company>(&mut all);
    add::<kontor_model::party::NewCompany>(&mut all);
    add::<kontor_model::party::Project>(&mut all);
    add::<kontor_model::party::NewProject>(&mut all);
    add::<kontor_model::users::User>(&mut all);
    add::<kontor_model::users::NewUser>(&mut all);
    add::<kontor_model::party::Deal>(&mut all);
    add::<kontor_model::party::NewDeal>(&mut all);
    add::<kontor_model::article::Article>(&mut all);
    add::<kontor_model::article::NewArticle>(&mut all);
    add::<kontor_model::article::SnippetKind>(&mut all);
    add::<kontor_model::article::TextSnippet>(&mut all);
    add::<kontor_model::article::NewTextSnippet>(&mut all);
    add::<kontor_model::party::Person>(&mut all);
    add::<kontor_model::party::NewPerson>(&mut all);
    add::<kontor_model::payment::Payment>(&mut all);
    add::<kontor_model::dunning::Reminder>(&mut all);
    add::<kontor_model::payment::NewPayment>(&mut all);
    add::<kontor_model::dunning::NewReminder>(&mut all);
    add::<kontor_model::dunning::BulkReminders>(&mut all);
    add::<kontor_model::dunning::BulkReminderResult>(&mut all);
    add::<kontor_model::dunning::BulkRemindersResult>(&mut all);
    add::<kontor_model::users::Role>(&mut all);
    add::<kontor_model::users::Theme>(&mut all);
    add::<kontor_model::users::SignIn>(&mut all);
    add::<kontor_model::users::SignedIn>(&mut all);
    add::<kontor_model::users::AcceptInvitation>(&mut all);
    add::<kontor_model::users::Invitation>(&mut all);
    add::<kontor_model::users::InvitedUser>(&mut all);
    add::<kontor_model::users::UpdateUser>(&mut all);
    add::<kontor_model::users::UpdateMe>(&mut all);
    add::<kontor_model::users::ChangePassword>(&mut all);
    add::<kontor_model::users::KeyUser>(&mut all);
    add::<kontor_model::users::ApiKey>(&mut all);
    add::<kontor_model::users::NewApiKey>(&mut all);
    add::<kontor_model::position::PositionType>(&mut all);
    add::<kontor_model::position_vat::TaxCategory>(&mut all);
    add::<kontor_model::position_vat::TaxBreakdown>(&mut all);
    add::<kontor_model::purchase::PurchaseStatus>(&mut all);
    add::<kontor_model::purchase::PaymentMethod>(&mut all);
    add::<kontor_model::purchase::PurchaseCategory>(&mut all);
    add::<kontor_model::purchase::NewPurchaseCategory>(&mut all);
    add::<kontor_model::purchase::PurchaseVat>(&mut all);
    add::<kontor_model::purchase::PurchaseItem>(&mut all);
    add::<kontor_model::purchase::Supplier>(&mut all);
    add::<kontor_model::purchase::PurchaseUser>(&mut all);
    add::<kontor_model::purchase::PurchasePayment>(&mut all);
    add::<kontor_model::purchase::NewPurchasePayment>(&mut all);
    add::<kontor_model::purchase::PurchaseEInvoice>(&mut all);
    add::<kontor_model::purchase::Purchase>(&mut all);
    add::<kontor_model::purchase::NewPurchaseItem>(&mut all);
    add::<kontor_model::purchase::NewPurchase>(&mut all);
    add::<kontor_model::purchase::PurchaseTotal>(&mut all);
    add::<kontor_model::query::SortOrder>(&mut all);
    add::<kontor_model::query::MonthAmounts>(&mut all);
    add::<kontor_model::query::CurrencyMonths>(&mut all);
    add::<kontor_model::query::InvoiceMonths>(&mut all);
    add::<kontor_model::query::CurrencyTotals>(&mut all);
    add::<kontor_model::query::ListSummary>(&mut all);
    add::<kontor_model::recurring::Interval>(&mut all);
    add::<kontor_model::recurring::RecurringMode>(&mut all);
    add::<kontor_model::recurring::NewRecurringInvoice>(&mut all);
    add::<kontor_model::recurring::RecurringRun>(&mut all);
    add::<kontor_model::recurring::RecurringInvoice>(&mut all);
    add::<kontor_model::status::InvoiceStatus>(&mut all);
    add::<kontor_model::dashboard::YearMonth>(&mut all);
    all
}

fn refs(value: &Value, out: &mut Vec<String>) {
    match value {
        Value::Object(map) => {
            if let Some(Value::String(r)) = map.get("$ref") {
                out.push(r.trim_start_matches("#/components/schemas/").to_string());
            }
            map.values().for_each(|v| refs(v, out));
        }
        Value::Array(items) => items.iter().for_each(|v| refs(v, out)),
        _ => {}
    }
}

#[test]
fn every_reference_resolves() {
    let all = all_schemas();
    for (name, schema) in &all {
        let mut found = Vec::new();
        refs(schema, &mut found);
        for r in found {
            assert!(all.contains_key(&r), "{name} refers to missing schema {r}");
        }
    }
}

#[test]
fn amounts_are_numbers_and_words_are_enums() {
    let all = all_schemas();
    assert_eq!(
        all["Invoice"]["properties"]["gross_total"]["type"],
        "number"
    );
    assert_eq!(all["InvoiceStatus"]["enum"][3], "partially_paid");
    assert_eq!(all["PositionType"]["enum"][4], "page-break");
    assert_eq!(all["YearMonth"]["type"], "string");
    assert_eq!(all["ErrorBody"]["required"], serde_json::json!(["message"]));
}

/// The schema named by `$ref`, or `schema` itself.
fn resolve<'a>(all: &'a Schemas, schema: &'a Value) -> &'a Value {
    match schema.get("$ref").and_then(Value::as_str) {
        Some(r) => resolve(all, &all[r.trim_start_matches("#/components/schemas/")]),
        None => schema,
    }
}

#[derive(Clone, Copy, PartialEq)]
enum Fill {
    /// Every property, no `null`, one item per array and map.
    Full,
    /// Required properties only, empty arrays.
    Required,
    /// Every property, `null` wherever allowed.
    Nulls,
}

/// A value the schema describes.
fn sample(all: &Schemas, schema: &Value, fill: Fill) -> Value {
    let schema = resolve(all, schema);
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        let null = |o: &&Value| o.get("type") == Some(&Value::from("null"));
        if fill == Fill::Nulls && options.iter().any(|o| null(&o)) {
            return Value::Null;
        }
        let first = options.iter().find(|o| !null(o)).unwrap();
        return sample(all, first, fill);
    }
    if let Some(words) = schema.get("enum").and_then(Value::as_array) {
        return words[0].clone();
    }
    let ty = match schema.get("type") {
        Some(Value::Array(types)) if fill == Fill::Nulls && types.contains(&"null".into()) => {
            return Value::Null
        }
        Some(Value::Array(types)) => types.iter().find(|t| *t != "null").unwrap().clone(),
        Some(t) => t.clone(),
        None => return serde_json::json!({"any": 1}),
    };
    match ty.as_str().unwrap() {
        "string" => match schema.get("format").and_then(Value::as_str) {
            Some("date") => "2026-03-04".into(),
            Some("date-time") => "2026-03-04T05:06:07Z".into(),
            _ if schema.get("pattern").is_some() => "2026-11".into(),
            _ => "x".into(),
        },
        "integer" => 3.into(),
        "number" => serde_json::json!(12.5),
        "boolean" => true.into(),
        "array" if fill == Fill::Required => Value::Array(Vec::new()),
        "array" => Value::Array(vec![sample(all, &schema["items"], fill)]),
        "object" => {
            let required = required(schema);
            let mut out = serde_json::Map::new();
            for (key, property) in schema["properties"].as_object().into_iter().flatten() {
                if fill != Fill::Required || required.contains(key) {
                    out.insert(key.clone(), sample(all, property, fill));
                }
            }
            if let Some(extra) = schema.get("additionalProperties").filter(|a| a.is_object()) {
                if fill == Fill::Full {
                    out.insert("key".into(), sample(all, extra, fill));
                }
            }
            Value::Object(out)
        }
        other => panic!("no sample for type {other}"),
    }
}

fn required(schema: &Value) -> Vec<String> {
    schema["required"]
        .as_array()
        .into_iter()
        .flatten()
        .map(|r| r.as_str().unwrap().to_string())
        .collect()
}

/// Problems of `value` against `schema` (types, enum words, required and known properties).
fn check(all: &Schemas, schema: &Value, value: &Value, path: &str, problems: &mut Vec<String>) {
    let schema = resolve(all, schema);
    if let Some(options) = schema.get("oneOf").and_then(Value::as_array) {
        let fits = options.iter().any(|o| {
            let mut p = Vec::new();
            check(all, o, value, path, &mut p);
            p.is_empty()
        });
        if !fits {
            problems.push(format!("{path}: {value} fits no option"));
        }
        return;
    }
    if let Some(words) = schema.get("enum").and_then(Value::as_array) {
        if !words.contains(value) {
            problems.push(format!("{path}: {value} is no enum word"));
        }
        return;
    }
    let types: Vec<&str> = match schema.get("type") {
        Some(Value::Array(t)) => t.iter().filter_map(Value::as_str).collect(),
        Some(Value::String(t)) => vec![t.as_str()],
        _ => return,
    };
    let actual = match value {
        Value::Null => "null",
        Value::Bool(_) => "boolean",
        Value::Number(n) if n.is_i64() || n.is_u64() => "integer",
        Value::Number(_) => "number",
        Value::String(_) => "string",
        Value::Array(_) => "array",
        Value::Object(_) => "object",
    };
    if !(types.contains(&actual) || (actual == "integer" && types.contains(&"number"))) {
        problems.push(format!("{path}: {actual} where {types:?}"));
        return;
    }
    match value {
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                check(
                    all,
                    &schema["items"],
                    item,
                    &format!("{path}[{i}]"),
                    problems,
                );
            }
        }
        Value::Object(map) => {
            for key in required(schema) {
                if !map.contains_key(&key) {
                    problems.push(format!("{path}.{key}: required but absent"));
                }
            }
            let properties = schema.get("properties").and_then(Value::as_object);
            for (key, v) in map {
                let path = format!("{path}.{key}");
                match (
                    properties.and_then(|p| p.get(key)),
                    schema.get("additionalProperties"),
                ) {
                    (Some(property), _) => check(all, property, v, &path, problems),
                    (None, Some(extra)) if extra.is_object() => {
                        check(all, extra, v, &path, problems)
                    }
                    (None, _) if properties.is_some() => {
                        problems.push(format!("{path}: not in the schema"))
                    }
                    _ => {}
                }
            }
        }
        _ => {}
    }
}

/// Values built from `T`'s schema deserialize, and what `T` then serializes fits the schema.
fn round_trip<T: ToSchema + serde::Serialize + serde::de::DeserializeOwned>(all: &Schemas) {
    let name = T::name();
    let schema = &all[name.as_ref()];
    for fill in [Fill::Full, Fill::Required, Fill::Nulls] {
        let input = sample(all, schema, fill);
        let value: T = serde_json::from_str(&input.to_string())
            .unwrap_or_else(|e| panic!("{name}: {input} does not deserialize: {e}"));
        let output = serde_json::to_value(&value).unwrap();
        let mut problems = Vec::new();
        check(all, schema, &output, &name, &mut problems);
        assert!(
            problems.is_empty(),
            "{name}: {output} against its schema: {problems:?}"
        );
    }
}

#[test]
fn serde_output_fits_the_schemas() {
    let all = all_schemas();
    round_trip::<kontor_model::account::LetterPaper>(&all);
    round_trip::<kontor_model::account::DocumentText>(&all);
    round_trip::<kontor_model::account::DocumentTexts>(&all);
    round_trip::<kontor_model::account::Logo>(&all);
    round_trip::<kontor_model::account::SmtpSecurity>(&all);
    round_trip::<kontor_model::account::SmtpSettings>(&all);
    round_trip::<kontor_model::account::Account>(&all);
    round_trip::<kontor_model::account::DocumentTextUpdate>(&all);
    round_trip::<kontor_model::account::DocumentTextsUpdate>(&all);
    round_trip::<kontor_model::account::SmtpUpdate>(&all);
    round_trip::<kontor_model::account::AccountUpdate>(&all);
    round_trip::<kontor_model::account::Session>(&all);
    round_trip::<kontor_model::billing::BillableRef>(&all);
    round_trip::<kontor_model::billing::Activity>(&all);
    round_trip::<kontor_model::billing::NewActivity>(&all);
    round_trip::<kontor_model::billing::Expense>(&all);
    round_trip::<kontor_model::billing::NewExpense>(&all);
    round_trip::<kontor_model::dashboard::MonthRevenue>(&all);
    round_trip::<kontor_model::dashboard::CurrencyAmount>(&all);
    round_trip::<kontor_model::dashboard::OpenInvoice>(&all);
    round_trip::<kontor_model::dashboard::Receivables>(&all);
    round_trip::<kontor_model::dashboard::Revenue>(&all);
    round_trip::<kontor_model::dashboard::PendingPurchases>(&all);
    round_trip::<kontor_model::dashboard::SentOffers>(&all);
    round_trip::<kontor_model::dashboard::Dashboard>(&all);
    round_trip::<kontor_model::datev::RevenueAccounts>(&all);
    round_trip::<kontor_model::datev::DatevSettings>(&all);
    round_trip::<kontor_model::datev::RevenueAccountsUpdate>(&all);
    round_trip::<kontor_model::datev::DatevUpdate>(&all);
    round_trip::<kontor_model::dunning::LevelTexts>(&all);
    round_trip::<kontor_model::dunning::DunningLevel>(&all);
    round_trip::<kontor_model::dunning::DunningLevels>(&all);
    round_trip::<kontor_model::dunning::BaseRate>(&all);
    round_trip::<kontor_model::dunning::BaseRates>(&all);
    round_trip::<kontor_model::dunning::OverdueInvoice>(&all);
    round_trip::<kontor_model::einvoice::Place>(&all);
    round_trip::<kontor_model::einvoice::MissingField>(&all);
    round_trip::<kontor_model::email::SendEmail>(&all);
    round_trip::<kontor_model::email::SentEmail>(&all);
    round_trip::<kontor_model::error::ErrorBody>(&all);
    round_trip::<kontor_model::event::SubjectType>(&all);
    round_trip::<kontor_model::event::EventKind>(&all);
    round_trip::<kontor_model::event::Event>(&all);
    round_trip::<kontor_model::event::CreatedData>(&all);
    round_trip::<kontor_model::event::FinalizedData>(&all);
    round_trip::<kontor_model::event::SentData>(&all);
    round_trip::<kontor_model::event::PaymentData>(&all);
    round_trip::<kontor_model::event::ReminderData>(&all);
    round_trip::<kontor_model::event::StatusChangedData>(&all);
    round_trip::<kontor_model::event::CopiedData>(&all);
    round_trip::<kontor_model::event::ReversedData>(&all);
    round_trip::<kontor_model::event::DocumentUploadedData>(&all);
    round_trip::<kontor_model::invoice::Vat>(&all);
    round_trip::<kontor_model::invoice::PaymentMeans>(&all);
    round_trip::<kontor_model::invoice::Invoice>(&all);
    round_trip::<kontor_model::invoice::InvoiceItem>(&all);
    round_trip::<kontor_model::invoice_input::VatInput>(&all);
    round_trip::<kontor_model::invoice_input::NewInvoice>(&all);
    round_trip::<kontor_model::invoice_input::NewInvoiceItem>(&all);
    round_trip::<kontor_model::invoice_input::StatusChange>(&all);
    round_trip::<kontor_model::invoice_input::DeleteReason>(&all);
    round_trip::<kontor_model::offer::OfferStatus>(&all);
    round_trip::<kontor_model::offer::OfferVat>(&all);
    round_trip::<kontor_model::offer::OfferItem>(&all);
    round_trip::<kontor_model::offer::OfferConfirmation>(&all);
    round_trip::<kontor_model::offer::CustomerApproval>(&all);
    round_trip::<kontor_model::offer::InvoiceRef>(&all);
    round_trip::<kontor_model::offer::Offer>(&all);
    round_trip::<kontor_model::offer::NewOfferItem>(&all);
    round_trip::<kontor_model::offer::NewOffer>(&all);
    round_trip::<kontor_model::offer::Attachment>(&all);
    round_trip::<kontor_model::offer::FileUpload>(&all);
    round_trip::<kontor_model::offer::NewAttachment>(&all);
    round_trip::<kontor_model::party::Language>(&all);
    round_trip::<kontor_model::party::EinvoiceFormat>(&all);
    round_trip::<kontor_model::party::Gender>(&all);
    round_trip::<kontor_model::party::BillingContact>(&all);
    round_trip::<kontor_model::party::IdName>(&all);
    round_trip::<kontor_model::party::UserRef>(&all);
    round_trip::<kontor_model::party::CompanyType>(&all);
    round_trip::<kontor_model::party::CustomerVat>(&all);
    round_trip::<kontor_model::party::Company>(&all);
    round_trip::<kontor_model::party::NewCompany>(&all);
    round_trip::<kontor_model::party::Project>(&all);
    round_trip::<kontor_model::party::NewProject>(&all);
    round_trip::<kontor_model::users::User>(&all);
    round_trip::<kontor_model::users::NewUser>(&all);
    round_trip::<kontor_model::party::Deal>(&all);
    round_trip::<kontor_model::party::NewDeal>(&all);
    round_trip::<kontor_model::article::Article>(&all);
    round_trip::<kontor_model::article::NewArticle>(&all);
    round_trip::<kontor_model::article::TextSnippet>(&all);
    round_trip::<kontor_model::article::NewTextSnippet>(&all);
    round_trip::<kontor_model::party::Person>(&all);
    round_trip::<kontor_model::party::NewPerson>(&all);
    round_trip::<kontor_model::payment::Payment>(&all);
    round_trip::<kontor_model::dunning::Reminder>(&all);
    round_trip::<kontor_model::payment::NewPayment>(&all);
    round_trip::<kontor_model::dunning::NewReminder>(&all);
    round_trip::<kontor_model::dunning::BulkReminders>(&all);
    round_trip::<kontor_model::dunning::BulkReminderResult>(&all);
    round_trip::<kontor_model::dunning::BulkRemindersResult>(&all);
    round_trip::<kontor_model::users::Role>(&all);
    round_trip::<kontor_model::users::Theme>(&all);
    round_trip::<kontor_model::users::SignIn>(&all);
    round_trip::<kontor_model::users::SignedIn>(&all);
    round_trip::<kontor_model::users::AcceptInvitation>(&all);
    round_trip::<kontor_model::users::Invitation>(&all);
    round_trip::<kontor_model::users::InvitedUser>(&all);
    round_trip::<kontor_model::users::UpdateUser>(&all);
    round_trip::<kontor_model::users::UpdateMe>(&all);
    round_trip::<kontor_model::users::ChangePassword>(&all);
    round_trip::<kontor_model::users::KeyUser>(&all);
    round_trip::<kontor_model::users::ApiKey>(&all);
    round_trip::<kontor_model::users::NewApiKey>(&all);
    round_trip::<kontor_model::position::PositionType>(&all);
    round_trip::<kontor_model::position_vat::TaxCategory>(&all);
    round_trip::<kontor_model::position_vat::TaxBreakdown>(&all);
    round_trip::<kontor_model::purchase::PurchaseStatus>(&all);
    round_trip::<kontor_model::purchase::PaymentMethod>(&all);
    round_trip::<kontor_model::purchase::PurchaseCategory>(&all);
    round_trip::<kontor_model::purchase::NewPurchaseCategory>(&all);
    round_trip::<kontor_model::purchase::PurchaseVat>(&all);
    round_trip::<kontor_model::purchase::PurchaseItem>(&all);
    round_trip::<kontor_model::purchase::Supplier>(&all);
    round_trip::<kontor_model::purchase::PurchaseUser>(&all);
    round_trip::<kontor_model::purchase::PurchasePayment>(&all);
    round_trip::<kontor_model::purchase::NewPurchasePayment>(&all);
    round_trip::<kontor_model::purchase::PurchaseEInvoice>(&all);
    round_trip::<kontor_model::purchase::Purchase>(&all);
    round_trip::<kontor_model::purchase::NewPurchaseItem>(&all);
    round_trip::<kontor_model::purchase::NewPurchase>(&all);
    round_trip::<kontor_model::purchase::PurchaseTotal>(&all);
    round_trip::<kontor_model::query::SortOrder>(&all);
    round_trip::<kontor_model::query::MonthAmounts>(&all);
    round_trip::<kontor_model::query::CurrencyMonths>(&all);
    round_trip::<kontor_model::query::InvoiceMonths>(&all);
    round_trip::<kontor_model::query::CurrencyTotals>(&all);
    round_trip::<kontor_model::query::ListSummary>(&all);
    round_trip::<kontor_model::recurring::Interval>(&all);
    round_trip::<kontor_model::recurring::RecurringMode>(&all);
    round_trip::<kontor_model::recurring::NewRecurringInvoice>(&all);
    round_trip::<kontor_model::recurring::RecurringRun>(&all);
    round_trip::<kontor_model::recurring::RecurringInvoice>(&all);
    round_trip::<kontor_model::status::InvoiceStatus>(&all);
    round_trip::<kontor_model::dashboard::YearMonth>(&all);
}
