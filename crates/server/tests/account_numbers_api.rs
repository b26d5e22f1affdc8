//! Debtor and creditor numbers over real HTTP (issue 31): companies' `debit_number`
//! (10000–69999) and `credit_number` (70000–99999), typed in or drawn from the account's
//! counters (`datev.assign_account_numbers`, start numbers), unique per kind (422 in
//! English and German); invoices answer their customer's `debit_number`, purchase items
//! their supplier's `supplier_credit_number`; the DATEV export books on them (Konto) and
//! the CSV exports carry them.

mod common;

use common::{start, TestServer};
use serde_json::{json, Value};

const PERIOD: &str = "from=2026-11-01&to=2026-11-30";

/// POST /companies with `Accept-Language: de`.
async fn post_de(s: &TestServer, body: Value) -> common::Reply {
    common::requests::send(
        s.keyed(reqwest::Method::POST, "/companies")
            .header("Accept-Language", "de")
            .json(&body),
    )
    .await
}

async fn company(s: &TestServer, body: Value) -> Value {
    let r = s.post("/companies", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body
}

/// The file at `path` as text (UTF-8, or DATEV's Windows-1252 read byte by byte).
async fn text(s: &TestServer, path: &str) -> String {
    let (status, ty, bytes) = s.bytes(path).await;
    assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&bytes));
    if ty.contains("utf-8") {
        String::from_utf8(bytes).unwrap()
    } else {
        bytes.iter().map(|&b| b as char).collect()
    }
}

/// The rows of a `;`-separated text (the BOM of the CSV exports dropped).
fn rows(text: &str) -> Vec<Vec<String>> {
    csv::ReaderBuilder::new()
        .delimiter(b';')
        .has_headers(false)
        .flexible(true)
        .from_reader(text.trim_start_matches('\u{feff}').as_bytes())
        .records()
        .map(|r| r.unwrap().iter().map(str::to_string).collect())
        .collect()
}

#[tokio::test]
async fn numbers_are_typed_in_within_their_ranges_and_unique_per_kind() {
    let s = start().await;
    let alpha = company(&s, json!({"name": "Alpha GmbH", "debit_number": 12345})).await;
    assert_eq!(alpha["debit_number"], 12345);
    assert_eq!(alpha["credit_number"], Value::Null);
    let supplier = company(
        &s,
        json!({"name": "Beta AG", "type": "supplier", "credit_number": 70001}),
    )
    .await;
    assert_eq!(supplier["credit_number"], 70001);

    // Taken by another company: 422 naming the field and the company, nothing stored.
    let r = s
        .post(
            "/companies",
            json!({"name": "Gamma", "debit_number": 12345}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["errors"]["debit_number"],
        json!(["is already the number of Alpha GmbH"])
    );
    let de = post_de(&s, json!({"name": "Gamma", "credit_number": 70001})).await;
    assert_eq!(de.status, 422, "{}", de.body);
    assert_eq!(
        de.body["errors"]["credit_number"],
        json!(["ist bereits die Nummer von Beta AG"])
    );
    assert_eq!(s.get("/companies").await.body.as_array().unwrap().len(), 2);

    // Outside the ranges.
    let r = s
        .post(
            "/companies",
            json!({"name": "Delta", "debit_number": 70000, "credit_number": 69999}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["errors"]["debit_number"],
        json!(["must be between 10000 and 69999"])
    );
    assert_eq!(
        r.body["errors"]["credit_number"],
        json!(["must be between 70000 and 99999"])
    );
    let de = post_de(&s, json!({"name": "Delta", "debit_number": 9999})).await;
    assert_eq!(
        de.body["errors"]["debit_number"],
        json!(["muss zwischen 10000 und 69999 liegen"])
    );

    // PUT: a company keeps its own number; another's is refused; issue 11's name is read.
    let alpha_id = alpha["id"].as_i64().unwrap();
    let r = s
        .put(
            &format!("/companies/{alpha_id}"),
            json!({"debit_number": 12345, "name": "Alpha GmbH & Co. KG"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let other = company(&s, json!({"name": "Epsilon"})).await["id"]
        .as_i64()
        .unwrap();
    let r = s
        .put(
            &format!("/companies/{other}"),
            json!({"debit_number": 12345}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["errors"]["debit_number"],
        json!(["is already the number of Alpha GmbH & Co. KG"])
    );
    let r = s
        .put(
            &format!("/companies/{other}"),
            json!({"debtor_number": 12346}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["debit_number"], 12346);
    let r = s
        .put(
            &format!("/companies/{other}"),
            json!({"debit_number": null}),
        )
        .await;
    assert_eq!(r.body["debit_number"], Value::Null);
    // A freed number can be taken again.
    let r = s
        .put(
            &format!("/companies/{other}"),
            json!({"credit_number": 70002}),
        )
        .await;
    assert_eq!(r.body["credit_number"], 70002, "{}", r.body);
}

#[tokio::test]
async fn the_counters_number_new_customers_and_suppliers_when_on() {
    let s = start().await;
    // Off (the default): nothing is assigned.
    let off = company(&s, json!({"name": "Before"})).await;
    assert_eq!(off["debit_number"], Value::Null);
    let account = s.get("/account").await;
    assert_eq!(account.body["datev"]["assign_account_numbers"], false);
    assert_eq!(account.body["datev"]["debit_number_start"], 10000);
    assert_eq!(account.body["datev"]["credit_number_start"], 70000);

    let r = s
        .put(
            "/account",
            json!({"datev": {"debit_number_start": 70000, "credit_number_start": 10000}}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let keys: Vec<&String> = r.body["errors"].as_object().unwrap().keys().collect();
    assert_eq!(
        keys,
        ["datev.credit_number_start", "datev.debit_number_start"]
    );

    let r = s
        .put(
            "/account",
            json!({"datev": {"assign_account_numbers": true, "debit_number_start": 20000}}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["datev"]["assign_account_numbers"], true);
    assert_eq!(r.body["datev"]["debit_number_start"], 20000);
    assert_eq!(r.body["datev"]["credit_number_start"], 70000);

    let first = company(&s, json!({"name": "First"})).await;
    assert_eq!(first["debit_number"], 20000);
    assert_eq!(first["credit_number"], Value::Null);
    let second = company(&s, json!({"name": "Second", "type": "customer"})).await;
    assert_eq!(second["debit_number"], 20001);
    let supplier = company(&s, json!({"name": "Supplier", "type": "supplier"})).await;
    assert_eq!(supplier["credit_number"], 70000);
    assert_eq!(supplier["debit_number"], Value::Null);
    let org = company(&s, json!({"name": "Org", "type": "organization"})).await;
    assert_eq!(
        (&org["debit_number"], &org["credit_number"]),
        (&Value::Null, &Value::Null)
    );
    // A typed number is kept; the counter continues above the highest one.
    let typed = company(&s, json!({"name": "Typed", "debit_number": 20010})).await;
    assert_eq!(typed["debit_number"], 20010);
    let next = company(&s, json!({"name": "Next"})).await;
    assert_eq!(next["debit_number"], 20011);
    // Numbers below the start do not pull it back.
    company(&s, json!({"name": "Low", "debit_number": 15000})).await;
    let again = company(&s, json!({"name": "Again"})).await;
    assert_eq!(again["debit_number"], 20012);
    // Existing companies are not numbered by a change.
    let off_id = off["id"].as_i64().unwrap();
    let r = s
        .put(
            &format!("/companies/{off_id}"),
            json!({"info": "still none"}),
        )
        .await;
    assert_eq!(r.body["debit_number"], Value::Null, "{}", r.body);
    // A new start number above the numbers in use is where the counter goes on.
    s.put("/account", json!({"datev": {"credit_number_start": 85000}}))
        .await;
    let supplier = company(&s, json!({"name": "Supplier 2", "type": "supplier"})).await;
    assert_eq!(supplier["credit_number"], 85000);

    // Off again: nothing more is assigned.
    s.put(
        "/account",
        json!({"datev": {"assign_account_numbers": false}}),
    )
    .await;
    let after = company(&s, json!({"name": "After"})).await;
    assert_eq!(after["debit_number"], Value::Null);
}

/// A customer and a supplier with numbers, a finalized invoice and an approved purchase
/// in November 2026. Returns (customer, supplier).
async fn books(s: &TestServer) -> (i64, i64) {
    let customer = company(
        s,
        json!({"name": "Kunde GmbH", "address": "Kai 1\n20457 Hamburg", "email": "k@example.com",
               "debit_number": 23456}),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let supplier = company(
        s,
        json!({"name": "Lieferant AG", "type": "supplier", "credit_number": 87654}),
    )
    .await["id"]
        .as_i64()
        .unwrap();
    let invoice = s
        .invoice(
            customer,
            json!({"date": "2026-11-05", "due_date": "2099-11-19", "title": "Hosting"}),
        )
        .await;
    assert_eq!(invoice.status, 200, "{}", invoice.body);
    assert_eq!(invoice.body["status"], "created", "{}", invoice.body);
    let purchase = s
        .post(
            "/purchases",
            json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                   "company_id": supplier, "receipt_identifier": "L-1",
                   "items": [{"title": "Paper", "total": 100, "tax": 19}]}),
        )
        .await;
    assert_eq!(purchase.status, 200, "{}", purchase.body);
    let id = purchase.body["id"].as_i64().unwrap();
    s.set_purchase_status(&format!("/purchases/{id}"), "approved")
        .await;
    (customer, supplier)
}

#[tokio::test]
async fn invoices_and_purchase_items_answer_the_numbers() {
    let s = start().await;
    let (customer, _) = books(&s).await;
    let invoice = &s.get("/invoices").await.body[0];
    assert_eq!(invoice["debit_number"], 23456, "{invoice}");
    assert_eq!(invoice["credit_number"], Value::Null);
    let id = invoice["id"].as_i64().unwrap();
    assert_eq!(
        s.get(&format!("/invoices/{id}")).await.body["debit_number"],
        23456
    );
    let purchase = &s.get("/purchases").await.body[0];
    assert_eq!(
        purchase["items"][0]["supplier_credit_number"], 87654,
        "{purchase}"
    );
    let pid = purchase["id"].as_i64().unwrap();
    let one = s.get(&format!("/purchases/{pid}")).await.body;
    assert_eq!(one["items"][0]["supplier_credit_number"], 87654, "{one}");

    // The number as it is now: a change shows on the invoice.
    s.put(
        &format!("/companies/{customer}"),
        json!({"debit_number": 23457}),
    )
    .await;
    assert_eq!(
        s.get(&format!("/invoices/{id}")).await.body["debit_number"],
        23457
    );
    // A purchase without supplier: no number.
    let r = s
        .post(
            "/purchases",
            json!({"date": "2026-11-11", "currency": "EUR", "payment_method": "cash",
                   "items": [{"title": "Coffee", "total": 10, "tax": 7}]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let rid = r.body["id"].as_i64().unwrap();
    let r = s.get(&format!("/purchases/{rid}")).await;
    assert_eq!(r.body["items"][0]["supplier_credit_number"], Value::Null);
}

#[tokio::test]
async fn the_datev_export_books_on_them_and_the_csvs_carry_them() {
    let s = start().await;
    let (_, _) = books(&s).await;
    let datev = text(&s, &format!("/exports/datev.csv?{PERIOD}")).await;
    let lines: Vec<&str> = datev.split("\r\n").collect();
    let columns: Vec<&str> = lines[1].split(';').collect();
    let konto = columns.iter().position(|c| *c == "Konto").unwrap();
    let gegenkonto = columns
        .iter()
        .position(|c| c.starts_with("Gegenkonto"))
        .unwrap();
    let bookings = rows(&lines[2..].join("\r\n"));
    let invoice = bookings.iter().find(|b| b[10] == "R2611-001").unwrap();
    assert_eq!(
        (invoice[konto].as_str(), invoice[1].as_str()),
        ("23456", "S")
    );
    assert_eq!(invoice[gegenkonto], "8400");
    let purchase = bookings.iter().find(|b| b[10] == "E2611-0001").unwrap();
    assert_eq!(
        (purchase[konto].as_str(), purchase[1].as_str()),
        ("87654", "H")
    );

    let invoices = rows(&text(&s, &format!("/exports/invoices.csv?{PERIOD}")).await);
    assert_eq!(invoices[0][4], "debit_number");
    assert_eq!(invoices[1][4], "23456");
    let purchases = rows(&text(&s, &format!("/exports/purchases.csv?{PERIOD}")).await);
    assert_eq!(purchases[0][5], "credit_number");
    assert_eq!(purchases[1][5], "87654");
    let de = rows(&text(&s, &format!("/exports/invoices.csv?{PERIOD}&locale=de")).await);
    assert_eq!((de[0][4].as_str(), de[1][4].as_str()), ("Debitor", "23456"));
}

#[tokio::test]
async fn a_supplier_the_e_invoice_import_creates_is_numbered_too() {
    let s = start().await;
    company(
        &s,
        json!({"name": "Old", "type": "supplier", "credit_number": 70100}),
    )
    .await;
    s.put(
        "/account",
        json!({"datev": {"assign_account_numbers": true}}),
    )
    .await;
    let path = std::path::PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/einvoice/samples/01.01a-INVOICE_ubl.xml");
    let bytes = std::fs::read(&path).unwrap();
    let r = s
        .upload(reqwest::Method::POST, "/purchases/import", "a.xml", &bytes)
        .await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["company"]["id"].as_i64().unwrap();
    let c = s.get(&format!("/companies/{id}")).await.body;
    assert_eq!(c["credit_number"], 70101, "{c}");
    assert_eq!(r.body["items"][0]["supplier_credit_number"], 70101);
}
