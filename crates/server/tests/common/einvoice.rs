//! E-invoice test support: the checker of `../shared/einvoice/` and a plain PDF (the
//! e-invoice crate's test support, shared), and the account and customer data every
//! e-invoice needs.

use super::{merge, TestServer};
use serde_json::{json, Value};

#[path = "../../../einvoice/tests/support/plain_pdf.rs"]
pub mod plain_pdf;
#[path = "../../../einvoice/tests/support/validate.rs"]
pub mod validate;

/// Sets the account data every e-invoice needs (a German GmbH, EUR, CHF, USD and JPY).
pub async fn complete_account(s: &TestServer) {
    let r = s
        .put(
            "/account",
            json!({
                "name": "Kontor Demo GmbH",
                "address": "Hafenstraße 1\n20457 Hamburg",
                "country_code": "DE",
                "vat_identifier": "DE136695976",
                "tax_number": "27/123/45678",
                "phone": "+49 40 1234567",
                "email": "rechnung@kontor.example",
                "iban": "DE02120300000000202051",
                "bic": "BYLADEM1001",
                "account_holder": "Kontor Demo GmbH",
                "currencies": ["EUR", "CHF", "USD", "JPY"],
                "sepa_creditor_identifier": "DE98ZZZ09999999999"
            }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

/// A customer in Berlin with the data an e-invoice needs (`extra` merged in); its id.
pub async fn customer(s: &TestServer, name: &str, extra: Value) -> i64 {
    let mut body = json!({
        "name": name,
        "address": "Kurfürstendamm 18\n10719 Berlin",
        "country_code": "DE",
        "email": "buchhaltung@kunde.example"
    });
    merge(&mut body, extra);
    let r = s.post("/companies", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}
