//! Issue 10 contract § New fields for e-invoices: the company, account and invoice fields
//! e-invoices need — stored, returned, defaulted, checked (422 naming the field), and
//! copied to reversal invoices. A real server over a real SQLite file.

mod common;

use common::start;
use serde_json::{json, Value};

fn error_keys(body: &Value) -> Vec<String> {
    body["errors"]
        .as_object()
        .map(|o| o.keys().cloned().collect())
        .unwrap_or_default()
}

#[tokio::test]
async fn company_fields_round_trip_with_defaults() {
    let s = start().await;
    let plain = s.post("/companies", json!({"name": "Plain GmbH"})).await;
    assert_eq!(plain.status, 200, "{}", plain.body);
    assert_eq!(plain.body["einvoice_format"], "pdf");
    for field in [
        "buyer_reference",
        "electronic_address",
        "sepa_mandate_reference",
    ] {
        assert_eq!(plain.body[field], Value::Null, "{field}");
    }

    let r = s
        .post(
            "/companies",
            json!({
                "name": "Stadt Musterhausen",
                "buyer_reference": " 04011000-12345-67 ",
                "electronic_address": "rechnung@musterhausen.example",
                "einvoice_format": "xrechnung_cii",
                "sepa_mandate_reference": "KD-4711/2026",
                "iban": "DE89 3704 0044 0532 0130 00"
            }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(r.body["buyer_reference"], "04011000-12345-67", "trimmed");
    assert_eq!(
        r.body["electronic_address"],
        "rechnung@musterhausen.example"
    );
    assert_eq!(r.body["einvoice_format"], "xrechnung_cii");
    assert_eq!(r.body["sepa_mandate_reference"], "KD-4711/2026");

    // GET and the list show the same.
    let got = s.get(&format!("/companies/{id}")).await;
    assert_eq!(got.body["buyer_reference"], "04011000-12345-67");
    let list = s.get("/companies?term=Musterhausen").await;
    assert_eq!(
        list.body[0]["einvoice_format"], "xrechnung_cii",
        "{}",
        list.body
    );

    // PUT: a named field changes, the others stay; null clears a text, keeps the format.
    let put = s
        .put(
            &format!("/companies/{id}"),
            json!({"einvoice_format": "xrechnung_ubl", "electronic_address": null}),
        )
        .await;
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(put.body["einvoice_format"], "xrechnung_ubl");
    assert_eq!(put.body["electronic_address"], Value::Null);
    assert_eq!(put.body["buyer_reference"], "04011000-12345-67");
    let kept = s
        .put(
            &format!("/companies/{id}"),
            json!({"einvoice_format": null, "buyer_reference": ""}),
        )
        .await;
    assert_eq!(kept.status, 200, "{}", kept.body);
    assert_eq!(kept.body["einvoice_format"], "xrechnung_ubl");
    assert_eq!(kept.body["buyer_reference"], Value::Null, "blank clears");
    assert_eq!(kept.body["sepa_mandate_reference"], "KD-4711/2026");
}

#[tokio::test]
async fn bad_company_fields_are_422_naming_the_field() {
    let s = start().await;
    let long = "x".repeat(201);
    let r = s
        .post(
            "/companies",
            json!({
                "name": "Bad GmbH",
                "buyer_reference": long,
                "electronic_address": "rechnung@",
                "sepa_mandate_reference": "Müller/1"
            }),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        error_keys(&r.body),
        [
            "buyer_reference",
            "electronic_address",
            "sepa_mandate_reference"
        ]
    );
    let r = s
        .post(
            "/companies",
            json!({"name": "Bad GmbH", "einvoice_format": "zugferd"}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_keys(&r.body), ["einvoice_format"]);
    let r = s
        .post(
            "/companies",
            json!({"name": "Bad GmbH", "sepa_mandate_reference": "M".repeat(36)}),
        )
        .await;
    assert_eq!(error_keys(&r.body), ["sepa_mandate_reference"]);
    // A Leitweg-ID-like address without @ is free text.
    let ok = s
        .post(
            "/companies",
            json!({"name": "Amt", "electronic_address": "991-12345-67"}),
        )
        .await;
    assert_eq!(ok.status, 200, "{}", ok.body);
    let id = ok.body["id"].as_i64().unwrap();
    let put = s
        .put(
            &format!("/companies/{id}"),
            json!({"electronic_address": "a b@c"}),
        )
        .await;
    assert_eq!(put.status, 422, "{}", put.body);
    assert_eq!(error_keys(&put.body), ["electronic_address"]);
    assert_eq!(
        s.get(&format!("/companies/{id}")).await.body["electronic_address"],
        "991-12345-67",
        "nothing stored"
    );
}

#[tokio::test]
async fn account_fields_round_trip_and_are_checked() {
    let s = start().await;
    let a = s.get("/account").await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["factur_x"], true, "Factur-X on by default");
    assert_eq!(a.body["electronic_address"], Value::Null);
    assert_eq!(a.body["sepa_creditor_identifier"], Value::Null);

    let r = s
        .put(
            "/account",
            json!({
                "electronic_address": "rechnungen@kontor.example",
                "sepa_creditor_identifier": "de98 zzz 09999999999",
                "factur_x": false
            }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["sepa_creditor_identifier"], "DE98ZZZ09999999999");
    assert_eq!(r.body["electronic_address"], "rechnungen@kontor.example");
    assert_eq!(r.body["factur_x"], false);
    let again = s.get("/account").await;
    assert_eq!(again.body["sepa_creditor_identifier"], "DE98ZZZ09999999999");
    assert_eq!(again.body["factur_x"], false);

    let bad = s
        .put(
            "/account",
            json!({
                "sepa_creditor_identifier": "DE99ZZZ09999999999",
                "electronic_address": "x@"
            }),
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert_eq!(
        error_keys(&bad.body),
        ["electronic_address", "sepa_creditor_identifier"]
    );
    let wrong_type = s.put("/account", json!({"factur_x": "yes"})).await;
    assert_eq!(wrong_type.status, 422, "{}", wrong_type.body);
    assert_eq!(error_keys(&wrong_type.body), ["factur_x"]);
    let after = s.get("/account").await;
    assert_eq!(after.body["sepa_creditor_identifier"], "DE98ZZZ09999999999");

    // An empty text removes the value; factur_x back on.
    let cleared = s
        .put(
            "/account",
            json!({"sepa_creditor_identifier": "", "factur_x": true}),
        )
        .await;
    assert_eq!(cleared.status, 200, "{}", cleared.body);
    assert_eq!(cleared.body["sepa_creditor_identifier"], Value::Null);
    assert_eq!(cleared.body["factur_x"], true);
    assert_eq!(
        cleared.body["electronic_address"],
        "rechnungen@kontor.example"
    );
}

#[tokio::test]
async fn invoice_fields_round_trip_and_reach_the_reversal() {
    let s = start().await;
    let customer = s.customer("ACME GmbH").await;

    let plain = s.invoice(customer, json!({})).await;
    assert_eq!(plain.status, 200, "{}", plain.body);
    assert_eq!(plain.body["buyer_reference"], Value::Null);
    assert_eq!(plain.body["payment_means"], Value::Null, "default null");

    let r = s
        .invoice(
            customer,
            json!({"buyer_reference": " PO-2026-17 ", "payment_means": "direct_debit"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    assert_eq!(r.body["buyer_reference"], "PO-2026-17");
    assert_eq!(r.body["payment_means"], "direct_debit");
    let got = s.get(&format!("/invoices/{id}")).await;
    assert_eq!(got.body["buyer_reference"], "PO-2026-17");
    assert_eq!(got.body["payment_means"], "direct_debit");
    let list = s.get("/invoices").await;
    let row = list.body["items"]
        .as_array()
        .or_else(|| list.body.as_array())
        .and_then(|rows| rows.iter().find(|i| i["id"] == id))
        .cloned()
        .unwrap_or_else(|| panic!("invoice {id} listed: {}", list.body));
    assert_eq!(row["buyer_reference"], "PO-2026-17");
    assert_eq!(row["payment_means"], "direct_debit");

    // The reversal carries what the original has.
    let rev = s.post(&format!("/invoices/{id}/reverse"), json!({})).await;
    assert_eq!(rev.status, 200, "{}", rev.body);
    assert_eq!(rev.body["buyer_reference"], "PO-2026-17");
    assert_eq!(rev.body["payment_means"], "direct_debit");

    // A draft's PUT replaces them (absent → none).
    let draft = s
        .invoice(
            customer,
            json!({"status": "draft", "buyer_reference": "A-1", "payment_means": "credit_transfer"}),
        )
        .await;
    assert_eq!(draft.status, 200, "{}", draft.body);
    let draft_id = draft.body["id"].as_i64().unwrap();
    let mut body = common::invoice_body(customer);
    common::merge(
        &mut body,
        json!({"status": "draft", "buyer_reference": "B-2"}),
    );
    let put = s.put(&format!("/invoices/{draft_id}"), body).await;
    assert_eq!(put.status, 200, "{}", put.body);
    assert_eq!(put.body["buyer_reference"], "B-2");
    assert_eq!(put.body["payment_means"], Value::Null);
    // Finalizing through update_status keeps them.
    let fin = s.finalize(draft_id).await;
    assert_eq!(fin.status, 200, "{}", fin.body);
    assert_eq!(fin.body["buyer_reference"], "B-2");
}

#[tokio::test]
async fn bad_invoice_fields_are_422_naming_the_field() {
    let s = start().await;
    let customer = s.customer("ACME GmbH").await;
    let r = s
        .invoice(customer, json!({"buyer_reference": "x".repeat(201)}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_keys(&r.body), ["buyer_reference"]);
    let r = s.invoice(customer, json!({"payment_means": "cash"})).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(error_keys(&r.body), ["payment_means"]);
    let list = s.get("/invoices").await;
    let count = list.body["items"]
        .as_array()
        .or_else(|| list.body.as_array())
        .map(Vec::len);
    assert_eq!(count, Some(0), "nothing stored: {}", list.body);
}
