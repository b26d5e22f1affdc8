//! The rules of articles and text snippets (issue 33).

use super::*;
use serde_json::json;

fn eur() -> Vec<String> {
    vec!["EUR".to_string(), "CHF".to_string(), "JPY".to_string()]
}

/// The body as a request carries it: JSON text (numbers keep their digits; a `json!`
/// float is never read as a binary float).
fn article(v: Value) -> NewArticle {
    serde_json::from_str(&v.to_string()).unwrap()
}

fn fields(e: &FieldErrors) -> Vec<&str> {
    e.keys().map(String::as_str).collect()
}

#[test]
fn an_article_needs_only_a_title() {
    assert!(validate_article(&article(json!({"title": "Beratung"})), &eur()).is_empty());
    let e = validate_article(&article(json!({})), &eur());
    assert_eq!(fields(&e), ["title"]);
    assert_eq!(e["title"][0], "is required");
    let e = validate_article(&article(json!({"title": "   "})), &eur());
    assert_eq!(fields(&e), ["title"]);
}

#[test]
fn article_texts_have_their_lengths() {
    let ok = json!({
        "title": "t".repeat(MAX_ARTICLE_TITLE),
        "number": "n".repeat(MAX_ARTICLE_NUMBER),
        "unit": "u".repeat(MAX_ARTICLE_UNIT),
        "description": "d".repeat(MAX_ARTICLE_DESCRIPTION),
    });
    assert!(validate_article(&article(ok), &eur()).is_empty());
    // Surrounding spaces do not count (they are trimmed before storing).
    let padded = json!({"title": format!("  {}  ", "t".repeat(200)), "unit": " Std. "});
    assert!(validate_article(&article(padded), &eur()).is_empty());
    let long = json!({
        "title": "t".repeat(201),
        "number": "n".repeat(51),
        "unit": "ü".repeat(21),
        "description": "d".repeat(MAX_ARTICLE_DESCRIPTION + 1),
    });
    let e = validate_article(&article(long), &eur());
    assert_eq!(fields(&e), ["description", "number", "title", "unit"]);
    assert_eq!(e["unit"][0], "must be at most 20 characters");
    assert_eq!(e["number"][0], "must be at most 50 characters");
    assert_eq!(e["title"][0], "must be at most 200 characters");
}

#[test]
fn an_article_unit_price_follows_the_position_rule_of_its_currency() {
    let check = |price: Value, currency: Option<&str>| {
        let mut body = json!({"title": "A", "unit_price": price});
        if let Some(c) = currency {
            body["currency"] = json!(c);
        }
        validate_article(&article(body), &eur())
    };
    assert!(check(json!(95.5), None).is_empty());
    assert!(check(json!(-12.123456), None).is_empty());
    assert!(check(json!(0.000001), Some("EUR")).is_empty());
    // EUR: 2 + 4 places; JPY: 0 + 4.
    assert_eq!(fields(&check(json!(0.0000001), None)), ["unit_price"]);
    assert_eq!(fields(&check(json!(1.00001), Some("JPY"))), ["unit_price"]);
    assert_eq!(
        fields(&check(json!(1000000000000000u64), None)),
        ["unit_price"]
    );
    let e = check(json!(1e15), None);
    assert_eq!(
        e["unit_price"][0],
        "must be between -1000000000000000 and 1000000000000000 (exclusive) with at most 6 decimal places"
    );
    // A numeric string is no amount: the body does not read.
    assert!(serde_json::from_value::<NewArticle>(json!({"unit_price": "12.5"})).is_err());
}

#[test]
fn an_article_currency_is_one_of_the_accounts_and_defaults_to_its_first() {
    let e = validate_article(&article(json!({"title": "A", "currency": "USD"})), &eur());
    assert_eq!(fields(&e), ["currency"]);
    assert_eq!(
        e["currency"][0],
        "must be one of the account's currencies (EUR, CHF, JPY)"
    );
    assert_eq!(article_currency(&article(json!({})), &eur()), "EUR");
    assert_eq!(
        article_currency(&article(json!({"currency": " CHF "})), &eur()),
        "CHF"
    );
    assert_eq!(
        article_currency(&article(json!({"currency": ""})), &["CHF".into()]),
        "CHF"
    );
    assert_eq!(
        article_currency(&article(json!({})), &[]),
        FALLBACK_CURRENCY
    );
}

#[test]
fn an_article_tax_is_a_position_tax() {
    let check = |body: Value| fields(&validate_article(&article(body), &eur())).join(",");
    assert_eq!(check(json!({"title": "A", "tax": 19})), "");
    assert_eq!(check(json!({"title": "A", "tax": 7.25})), "");
    assert_eq!(check(json!({"title": "A", "tax": 0})), "");
    assert_eq!(check(json!({"title": "A", "tax": 101})), "tax");
    assert_eq!(check(json!({"title": "A", "tax": -1})), "tax");
    assert_eq!(check(json!({"title": "A", "tax": 7.12345})), "tax");
    // With a category, as for a position: a rate where the category charges none, none
    // where it charges one.
    assert_eq!(
        check(json!({"title": "A", "tax": 7, "tax_category": "reduced"})),
        ""
    );
    assert_eq!(
        check(json!({"title": "A", "tax": 0, "tax_category": "exempt"})),
        ""
    );
    assert_eq!(
        check(json!({"title": "A", "tax_category": "reverse_charge"})),
        ""
    );
    let e = validate_article(
        &article(json!({"title": "A", "tax": 19, "tax_category": "export"})),
        &eur(),
    );
    assert_eq!(e["tax"][0], "must be 0 for a export position");
    let e = validate_article(
        &article(json!({"title": "A", "tax": 0, "tax_category": "standard"})),
        &eur(),
    );
    assert_eq!(
        e["tax"][0],
        "must be greater than 0 for a standard position"
    );
}

#[test]
fn an_article_tax_category_takes_the_words_of_positions() {
    for c in TaxCategory::ALL {
        let body: NewArticle = serde_json::from_value(json!({"tax_category": c.as_str()})).unwrap();
        assert_eq!(body.tax_category, Some(c));
    }
    let err = serde_json::from_value::<NewArticle>(json!({"tax_category": "luxury"}))
        .unwrap_err()
        .to_string();
    assert!(err.contains("unknown variant `luxury`"), "{err}");
}

#[test]
fn an_article_is_stored_trimmed_with_blank_texts_absent() {
    let mut body = article(json!({
        "title": "  Beratung ", "number": "  ", "unit": " h ", "description": "",
        "currency": " EUR "
    }));
    normalize_article(&mut body);
    assert_eq!(body.title.as_deref(), Some("Beratung"));
    assert_eq!(body.number, None);
    assert_eq!(body.unit.as_deref(), Some("h"));
    assert_eq!(body.description, None);
    assert_eq!(body.currency.as_deref(), Some("EUR"));
}

#[test]
fn article_numbers_are_one_regardless_of_case_and_spaces() {
    assert_eq!(
        article_number_key(Some(" B-100 ")).as_deref(),
        Some("b-100")
    );
    assert_eq!(
        article_number_key(Some("b-100")),
        article_number_key(Some("B-100"))
    );
    assert_eq!(
        article_number_key(Some("ÄRZTE-1")).as_deref(),
        Some("ärzte-1")
    );
    assert_eq!(article_number_key(Some("   ")), None);
    assert_eq!(article_number_key(None), None);
}

#[test]
fn an_article_patch_answers_for_its_own_fields_and_what_they_change() {
    let mut errors = FieldErrors::new();
    push_error(&mut errors, "unit_price", messages::IS_REQUIRED);
    push_error(&mut errors, "tax", messages::IS_REQUIRED);
    push_error(&mut errors, "unit", messages::IS_REQUIRED);
    let keys = |patch: Value| {
        errors_of_article_patch(errors.clone(), &patch)
            .into_keys()
            .collect::<Vec<_>>()
            .join(",")
    };
    assert_eq!(keys(json!({"active": false})), "");
    assert_eq!(keys(json!({"unit": "h"})), "unit");
    assert_eq!(keys(json!({"currency": "JPY"})), "unit_price");
    assert_eq!(keys(json!({"tax_category": "zero"})), "tax");
}

#[test]
fn a_stored_article_is_the_base_of_its_partial_update() {
    let stored = Article {
        id: 3,
        number: Some("B-1".into()),
        title: "Beratung".into(),
        description: None,
        unit: Some("h".into()),
        unit_price: Some(Decimal::new(9550, 2)),
        currency: "EUR".into(),
        tax_category: Some(TaxCategory::Standard),
        tax: Some(Decimal::new(19, 0)),
        active: true,
        created_at: DateTime::UNIX_EPOCH,
        updated_at: DateTime::UNIX_EPOCH,
    };
    let merged: NewArticle = crate::master_data::merge_patch(
        &NewArticle::from(&stored),
        &json!({"unit_price": 100, "number": null, "title": null}),
        ARTICLE_KEEP_ON_NULL,
    )
    .unwrap();
    assert_eq!(merged.unit_price, Some(Decimal::new(100, 0)));
    assert_eq!(merged.number, None);
    assert_eq!(merged.title.as_deref(), Some("Beratung"));
    assert_eq!(merged.tax, Some(Decimal::new(19, 0)));
    let wire = serde_json::to_value(&stored).unwrap();
    assert_eq!(wire["unit_price"].to_string(), "95.50");
    assert_eq!(wire["tax_category"], "standard");
    assert_eq!(wire["created_at"], "1970-01-01T00:00:00Z");
}

#[test]
fn a_text_snippet_needs_every_field() {
    let ok: NewTextSnippet = serde_json::from_value(
        json!({"name": "Gruß", "kind": "salutation", "language": "de", "text": "<p>Hallo</p>"}),
    )
    .unwrap();
    assert!(validate_text_snippet(&ok).is_empty());
    let e = validate_text_snippet(&NewTextSnippet::default());
    assert_eq!(fields(&e), ["kind", "language", "name", "text"]);
    let blank: NewTextSnippet = serde_json::from_value(
        json!({"name": " ", "kind": "email", "language": "en", "text": "\n"}),
    )
    .unwrap();
    assert_eq!(fields(&validate_text_snippet(&blank)), ["name", "text"]);
}

#[test]
fn a_text_snippet_has_its_lengths() {
    let snippet = |name: String, text: String| NewTextSnippet {
        name: Some(name),
        kind: Some(SnippetKind::Footer),
        language: Some(Language::En),
        text: Some(text),
    };
    assert!(validate_text_snippet(&snippet("n".repeat(100), "t".repeat(10_000))).is_empty());
    let e = validate_text_snippet(&snippet("n".repeat(101), "t".repeat(10_001)));
    assert_eq!(e["name"][0], "must be at most 100 characters");
    assert_eq!(e["text"][0], "must be at most 10000 characters");
}

#[test]
fn a_text_snippet_kind_and_language_are_words() {
    for k in SnippetKind::ALL {
        assert_eq!(SnippetKind::parse(k.as_str()), Some(k));
        assert_eq!(serde_json::to_value(k).unwrap(), json!(k.as_str()));
    }
    assert_eq!(SnippetKind::parse("Footer"), None);
    for (field, value) in [("kind", "letter"), ("language", "fr")] {
        let err = serde_json::from_value::<NewTextSnippet>(json!({ field: value }))
            .unwrap_err()
            .to_string();
        assert!(err.contains("unknown variant"), "{field}: {err}");
    }
    let mut body = NewTextSnippet {
        name: Some("  Standard  ".into()),
        text: Some("  as written ".into()),
        ..Default::default()
    };
    normalize_text_snippet(&mut body);
    assert_eq!(body.name.as_deref(), Some("Standard"));
    assert_eq!(body.text.as_deref(), Some("  as written "));
}

#[test]
fn a_snippet_fills_an_empty_field_and_goes_below_typed_text() {
    assert_eq!(
        insert_snippet("", "Sehr geehrte Damen und Herren,"),
        "Sehr geehrte Damen und Herren,"
    );
    assert_eq!(insert_snippet("  \n", "Hallo"), "Hallo");
    assert_eq!(
        insert_snippet("Vielen Dank.\n", "Mit freundlichen Grüßen"),
        "Vielen Dank.\n\nMit freundlichen Grüßen"
    );
}
