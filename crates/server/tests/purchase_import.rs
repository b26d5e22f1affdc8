//! POST /purchases/import and GET /purchases/{id}/e_invoice.html on a real server: every
//! sample of `../shared/einvoice/samples/` imports (multipart and JSON) to a pending
//! purchase with the document's totals; suppliers are matched by VAT ID, IBAN and name or
//! created; a second import is a 409; bad files leave nothing behind.

mod common;

use base64::Engine;
use common::einvoice::plain_pdf::plain_pdf;
use common::einvoice::{complete_account, customer};
use common::requests::send_json;
use common::{num, start, Reply, TestServer};
use rust_decimal::Decimal;
use serde_json::{json, Value};
use std::path::PathBuf;
use std::str::FromStr;

fn sample(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/einvoice/samples")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn dec(v: &Value) -> Decimal {
    Decimal::from_str(&num(v)).unwrap()
}

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

async fn multipart(s: &TestServer, name: &str, bytes: &[u8]) -> Reply {
    s.upload(reqwest::Method::POST, "/purchases/import", name, bytes)
        .await
}

async fn json_import(s: &TestServer, name: &str, bytes: &[u8]) -> Reply {
    let b64 = base64::engine::general_purpose::STANDARD.encode(bytes);
    s.post(
        "/purchases/import",
        json!({"file": {"filename": name, "base64": b64}}),
    )
    .await
}

/// What each sample says (read off the files): BT-1, BT-2, BT-109, BT-110, BT-112,
/// syntax, format, number of purchase positions (lines + non-zero allowances/charges).
struct Expected {
    file: &'static str,
    number: &'static str,
    date: &'static str,
    net: &'static str,
    tax: &'static str,
    gross: &'static str,
    syntax: &'static str,
    format: &'static str,
    positions: usize,
}

const SAMPLES: [Expected; 6] = [
    Expected {
        file: "01.01a-INVOICE_ubl.xml",
        number: "123456XX",
        date: "2016-04-04",
        net: "314.86",
        tax: "22.04",
        gross: "336.90",
        syntax: "ubl",
        format: "xrechnung",
        positions: 2,
    },
    Expected {
        file: "01.01a-INVOICE_uncefact.xml",
        number: "123456XX",
        date: "2016-04-04",
        net: "314.86",
        tax: "22.04",
        gross: "336.90",
        syntax: "cii",
        format: "xrechnung",
        positions: 2,
    },
    Expected {
        file: "02.01a-INVOICE_ubl.xml",
        number: "1234567",
        date: "2018-04-13",
        net: "10781.25",
        tax: "2048.44",
        gross: "12829.69",
        syntax: "ubl",
        format: "xrechnung",
        positions: 2,
    },
    Expected {
        file: "03.01a-INVOICE_uncefact.xml",
        number: "123456789",
        date: "2019-02-28",
        net: "687.28",
        tax: "117.58",
        gross: "804.86",
        syntax: "cii",
        format: "xrechnung",
        positions: 14,
    },
    Expected {
        file: "zugferd-en16931-einfach.pdf",
        number: "471102",
        date: "2018-03-05",
        net: "473.00",
        tax: "56.87",
        gross: "529.87",
        syntax: "cii",
        format: "factur-x",
        positions: 2,
    },
    Expected {
        file: "zugferd-en16931-rabatte.pdf",
        number: "471102",
        date: "2018-06-05",
        net: "193.77",
        tax: "21.30",
        gross: "215.07",
        syntax: "cii",
        format: "factur-x",
        positions: 7,
    },
];

fn check_purchase(p: &Value, e: &Expected) {
    assert_eq!(p["receipt_identifier"], e.number, "{}", e.file);
    assert_eq!(p["date"], e.date, "{}", e.file);
    assert_eq!(p["status"], "pending", "{}", e.file);
    assert_eq!(p["currency"], "EUR", "{}", e.file);
    assert_eq!(dec(&p["net_total"]), d(e.net), "{}", e.file);
    assert_eq!(dec(&p["gross_total"]), d(e.gross), "{}", e.file);
    let items = p["items"].as_array().unwrap();
    assert_eq!(items.len(), e.positions, "{}", e.file);
    let sum = |k: &str| items.iter().map(|i| dec(&i[k])).sum::<Decimal>();
    assert_eq!(sum("net_total"), d(e.net), "{}", e.file);
    assert_eq!(sum("tax_total"), d(e.tax), "{}", e.file);
    assert_eq!(sum("gross_total"), d(e.gross), "{}", e.file);
    assert_eq!(p["e_invoice"]["syntax"], e.syntax, "{}", e.file);
    assert_eq!(p["e_invoice"]["format"], e.format, "{}", e.file);
    // The seller's name as written (issue 34), the supplier's name when it was new.
    assert_eq!(
        p["e_invoice"]["seller_name"], p["company"]["name"],
        "{}",
        e.file
    );
    assert!(p["file_url"].is_string(), "{}", e.file);
    assert!(p["company"]["id"].is_i64(), "{}", e.file);
}

#[tokio::test]
async fn every_sample_imports_by_multipart_and_by_json() {
    for e in &SAMPLES {
        let bytes = sample(e.file);
        for json in [false, true] {
            let s = start().await;
            let r = if json {
                json_import(&s, e.file, &bytes).await
            } else {
                multipart(&s, e.file, &bytes).await
            };
            assert_eq!(r.status, 201, "{} (json {json}): {}", e.file, r.body);
            check_purchase(&r.body, e);
            // The stored original is the uploaded file, byte for byte.
            let original = reqwest::get(r.body["file_url"].as_str().unwrap())
                .await
                .unwrap();
            assert_eq!(original.status(), 200);
            assert_eq!(original.bytes().await.unwrap().as_ref(), bytes.as_slice());
            let again = s.get(&format!("/purchases/{}", r.body["id"])).await;
            check_purchase(&again.body, e);
        }
    }
}

#[tokio::test]
async fn payment_data_dates_and_period_come_from_the_document() {
    let s = start().await;
    let r = multipart(&s, "b.xml", &sample("02.01a-INVOICE_ubl.xml")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["due_date"], "2018-04-13");
    assert_eq!(r.body["service_period_from"], "2016-01-01");
    assert_eq!(r.body["service_period_to"], "2016-12-31");
    assert_eq!(r.body["iban"], "DE79000000001234567890");
    assert_eq!(r.body["reference"], "Deb. 12345 / Fact. 9876543");
    assert_eq!(r.body["payment_method"], "bank_transfer");
    let r = multipart(&s, "c.xml", &sample("03.01a-INVOICE_uncefact.xml")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["due_date"], "2019-03-14");
    assert_eq!(r.body["payment_method"], "direct_debit");
    // Two rates: the positions carry 19 and 7.
    let rates: std::collections::BTreeSet<String> = r.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| dec(&i["tax"]).normalize().to_string())
        .collect();
    assert_eq!(rates, ["19", "7"].map(String::from).into_iter().collect());
    // Allowances are negative positions.
    let r = multipart(&s, "r.pdf", &sample("zugferd-en16931-rabatte.pdf")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let negative: Decimal = r.body["items"]
        .as_array()
        .unwrap()
        .iter()
        .map(|i| dec(&i["net_total"]))
        .filter(|n| n.is_sign_negative())
        .sum();
    assert_eq!(negative, d("-14.73"));
}

async fn company(s: &TestServer, body: Value) -> i64 {
    let r = s.post("/companies", body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

async fn count(s: &TestServer, table: &str) -> i64 {
    let pool = s.db().await;
    kontor_server::sql::query_scalar(&format!("SELECT COUNT(*) FROM {table}"))
        .fetch_one(&pool)
        .await
        .unwrap()
}

fn stored_files(s: &TestServer) -> usize {
    std::fs::read_dir(s.data_path().join("files").join("purchase_documents"))
        .map(|d| d.count())
        .unwrap_or(0)
}

#[tokio::test]
async fn the_supplier_is_matched_by_vat_id_then_iban_then_name() {
    // The sample's VAT ID has a wrong check digit (Kontor refuses it on companies), so the
    // document is given a valid one, written with spaces as sellers do.
    let ubl = String::from_utf8(sample("01.01a-INVOICE_ubl.xml"))
        .unwrap()
        .replacen("DE 123456789", "de 136 308 783", 1)
        .into_bytes();
    // VAT ID, although name and IBAN differ; a company with the IBAN exists too and loses.
    let s = start().await;
    let _by_iban = company(
        &s,
        json!({"name": "Other GmbH", "type": "supplier", "iban": "DE79 0000 0000 1234 5678 90"}),
    )
    .await;
    let by_vat = company(
        &s,
        json!({"name": "Seller under another name", "type": "supplier", "vat_identifier": "DE136308783"}),
    )
    .await;
    let r = multipart(&s, "a.xml", &ubl).await;
    assert_eq!(r.status, 201, "{}", r.body);
    assert_eq!(r.body["company"]["id"], by_vat);
    assert_eq!(count(&s, "companies").await, 2);
    // Issue 34: the purchase keeps the seller's name as the document writes it, so the
    // app can say the supplier goes by another name there and offer to take it; the
    // supplier itself is not renamed by the import.
    assert_eq!(r.body["e_invoice"]["seller_name"], "[Seller name]");
    assert_eq!(r.body["company"]["name"], "Seller under another name");
    let id = r.body["id"].as_i64().unwrap();
    let again = s.get(&format!("/purchases/{id}")).await.body;
    assert_eq!(again["e_invoice"]["seller_name"], "[Seller name]");
    let renamed = s
        .put(
            &format!("/companies/{by_vat}"),
            json!({"name": "[Seller name]"}),
        )
        .await;
    assert_eq!(renamed.status, 200, "{}", renamed.body);
    assert_eq!(renamed.body["vat_identifier"], "DE136308783");
    let again = s.get(&format!("/purchases/{id}")).await.body;
    assert_eq!(again["company"]["name"], "[Seller name]");

    // IBAN, then name.
    let s = start().await;
    let _by_name = company(&s, json!({"name": "[Seller name]", "type": "supplier"})).await;
    let by_iban = company(
        &s,
        json!({"name": "Other GmbH", "type": "supplier", "iban": "DE79000000001234567890"}),
    )
    .await;
    let r = multipart(&s, "a.xml", &ubl).await;
    assert_eq!(r.body["company"]["id"], by_iban, "{}", r.body);

    // Exact name.
    let s = start().await;
    let _similar = company(&s, json!({"name": "[seller name]", "type": "supplier"})).await;
    let by_name = company(&s, json!({"name": "[Seller name]", "type": "supplier"})).await;
    let r = multipart(&s, "a.xml", &ubl).await;
    assert_eq!(r.body["company"]["id"], by_name, "{}", r.body);
    assert_eq!(count(&s, "companies").await, 2);
}

#[tokio::test]
async fn a_new_supplier_is_created_with_the_sellers_data() {
    let s = start().await;
    let r = multipart(&s, "a.xml", &sample("01.01a-INVOICE_ubl.xml")).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["company"]["id"].as_i64().unwrap();
    let c = s.get(&format!("/companies/{id}")).await.body;
    assert_eq!(c["name"], "[Seller name]");
    assert_eq!(c["type"], "supplier");
    assert_eq!(c["vat_identifier"], "DE123456789");
    assert_eq!(c["iban"], "DE79000000001234567890");
    assert_eq!(c["country_code"], "DE");
    let address = c["address"].as_str().unwrap();
    assert!(address.contains("[Seller address line 1]"), "{address}");
    assert!(address.contains("12345 [Seller city]"), "{address}");
}

#[tokio::test]
async fn a_second_import_is_a_conflict_naming_the_first_purchase() {
    let s = start().await;
    let bytes = sample("zugferd-en16931-einfach.pdf");
    let first = multipart(&s, "r.pdf", &bytes).await;
    assert_eq!(first.status, 201, "{}", first.body);
    let before = (
        count(&s, "purchases").await,
        count(&s, "purchase_items").await,
        count(&s, "companies").await,
        stored_files(&s),
    );
    for json in [false, true] {
        let again = if json {
            json_import(&s, "again.pdf", &bytes).await
        } else {
            multipart(&s, "again.pdf", &bytes).await
        };
        assert_eq!(again.status, 409, "{}", again.body);
        assert_eq!(again.body["id"], first.body["id"]);
        assert!(again.body["errors"]["file"].is_array(), "{}", again.body);
        assert!(again.body["message"].is_string());
    }
    let after = (
        count(&s, "purchases").await,
        count(&s, "purchase_items").await,
        count(&s, "companies").await,
        stored_files(&s),
    );
    assert_eq!(before, after);
    assert_eq!(before.3, 1);
}

#[tokio::test]
async fn bad_files_are_refused_and_leave_nothing_behind() {
    let s = start().await;
    let mut too_large = sample("01.01a-INVOICE_ubl.xml");
    too_large.extend(std::iter::repeat_n(b' ', 11 * 1024 * 1024));
    let cases: Vec<(&str, Vec<u8>, &str)> = vec![
        (
            "notes.txt",
            b"Dear supplier, thanks.".to_vec(),
            "not well-formed",
        ),
        (
            "broken.xml",
            b"<?xml version=\"1.0\"?><Invoice><ID>1</Invoice>".to_vec(),
            "not well-formed",
        ),
        (
            "page.html",
            b"<html><body>Invoice</body></html>".to_vec(),
            "root element",
        ),
        (
            "other.xml",
            b"<?xml version=\"1.0\"?><order xmlns=\"urn:example\"><id>1</id></order>".to_vec(),
            "root element",
        ),
        ("plain.pdf", plain_pdf(), "no embedded e-invoice"),
        ("empty.xml", Vec::new(), "empty"),
        ("big.xml", too_large, "larger"),
    ];
    for (name, bytes, why) in &cases {
        for json in [false, true] {
            let r = if json {
                json_import(&s, name, bytes).await
            } else {
                multipart(&s, name, bytes).await
            };
            assert!(
                r.status.is_client_error(),
                "{name} (json {json}): {} {}",
                r.status,
                r.body
            );
            if r.status == 422 {
                let message = r.body["errors"]["file"][0].as_str().unwrap_or_default();
                assert!(message.contains(why), "{name} (json {json}): {}", r.body);
            }
        }
    }
    // Over the 16 MiB body limit: 413.
    let huge = vec![b'<'; 17 * 1024 * 1024];
    assert_eq!(multipart(&s, "huge.xml", &huge).await.status, 413);
    assert_eq!(count(&s, "purchases").await, 0);
    assert_eq!(count(&s, "purchase_items").await, 0);
    assert_eq!(count(&s, "companies").await, 0);
    assert_eq!(stored_files(&s), 0);
    // No part at all, and a JSON body without a file.
    let r = s.post("/purchases/import", json!({})).await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["file"].is_array());
}

#[tokio::test]
async fn the_html_view_shows_the_invoice_and_escapes_markup() {
    let s = start().await;
    let ubl = String::from_utf8(sample("01.01a-INVOICE_ubl.xml")).unwrap();
    let crafted = ubl.replacen(
        "<cbc:Name>Porto + Versandkosten</cbc:Name>",
        "<cbc:Name>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;</cbc:Name>",
        1,
    );
    assert_ne!(crafted, ubl);
    let r = multipart(&s, "crafted.xml", crafted.as_bytes()).await;
    assert_eq!(r.status, 201, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let page = s
        .client
        .get(s.url(&format!("/purchases/{id}/e_invoice.html")))
        .header("Authorization", format!("Token token={}", s.key))
        .send()
        .await
        .unwrap();
    assert_eq!(page.status(), 200);
    assert!(page.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/html"));
    let csp = page.headers()["content-security-policy"].to_str().unwrap();
    assert!(
        csp.contains("default-src 'none'") && csp.contains("sandbox"),
        "{csp}"
    );
    let html = page.text().await.unwrap();
    assert!(html.contains("123456XX"));
    assert!(html.contains("[Seller name]"));
    // Issue 34: in German for a German caller — labels, amounts, dates, units and VAT
    // categories in words.
    let german = s
        .client
        .get(s.url(&format!("/purchases/{id}/e_invoice.html")))
        .header("Authorization", format!("Token token={}", s.key))
        .header("Accept-Language", "de-DE,de;q=0.9")
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    for expected in [
        "<html lang=\"de\">",
        "Rechnungsdatum",
        "Verkäufer",
        "Zu zahlender Betrag",
        "Regelsteuersatz (S)",
        "336,90",
    ] {
        assert!(german.contains(expected), "{expected} missing:\n{german}");
    }
    assert!(!german.contains("Issue date"), "{german}");
    assert!(!german.contains(">Seller<"), "{german}");
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.to_ascii_lowercase().contains("<script"));
    assert!(!html.contains("<img"));
    // The stored XML itself is served with the same policy.
    let original = reqwest::get(r.body["file_url"].as_str().unwrap())
        .await
        .unwrap();
    assert!(original.headers()["content-security-policy"]
        .to_str()
        .unwrap()
        .contains("sandbox"));

    // A PDF import renders from its embedded XML; a purchase entered by hand has no view.
    let pdf = multipart(&s, "e.pdf", &sample("zugferd-en16931-einfach.pdf")).await;
    let page = s
        .get(&format!("/purchases/{}/e_invoice.html", pdf.body["id"]))
        .await;
    assert_eq!(page.status, 200);
    assert!(page.body.as_str().unwrap().contains("471102"));
    let manual = s
        .post(
            "/purchases",
            json!({"currency": "EUR", "date": "2026-01-05", "payment_method": "bank_transfer",
                "items": [{"title": "Paper", "total": 10, "tax": 19}]}),
        )
        .await;
    assert_eq!(manual.status, 200, "{}", manual.body);
    assert_eq!(manual.body["e_invoice"], Value::Null);
    let none = s
        .get(&format!("/purchases/{}/e_invoice.html", manual.body["id"]))
        .await;
    assert_eq!(none.status, 404);
}

#[tokio::test]
async fn a_read_only_key_cannot_import() {
    let s = start().await;
    let ro = s.read_only_key().await;
    let b64 = base64::engine::general_purpose::STANDARD.encode(sample("01.01a-INVOICE_ubl.xml"));
    let r = send_json(
        s.keyed_as(&ro, reqwest::Method::POST, "/purchases/import"),
        &json!({"file": {"filename": "a.xml", "base64": b64}}),
    )
    .await;
    assert_eq!(r.status, 403);
    assert_eq!(count(&s, "purchases").await, 0);
}

/// Kontor's own e-invoices (GET /invoices/{id}.xml in both syntaxes and the Factur-X PDF)
/// import on the buyer's side to purchases with the invoice's totals; the same invoice in
/// the other syntax or as PDF is the same document (409).
#[tokio::test]
async fn kontors_own_e_invoices_import_to_their_totals() {
    let seller = start().await;
    complete_account(&seller).await;
    let customer = customer(
        &seller,
        "Kranzler AG",
        json!({"vat_identifier": "DE811907980"}),
    )
    .await;
    // Mixed rates, odd prices and a discount: rounding per rate matters.
    let items = json!({"discount": 10, "items": [
        {"type": "item", "title": "Book", "quantity": 3, "unit": "pcs", "unit_price": 12.99, "tax": 7},
        {"type": "item", "title": "Consulting", "quantity": 1.5, "unit": "h", "unit_price": 95.33},
        {"type": "item", "title": "Licence", "quantity": 7, "unit": "pcs", "unit_price": 0.35},
        {"type": "item", "title": "Flat fee", "net_total": 100}
    ]});
    let mut documents = Vec::new();
    for _ in 0..2 {
        let inv = seller.invoice(customer, items.clone()).await;
        assert_eq!(inv.status, 200, "{}", inv.body);
        let id = inv.body["id"].as_i64().unwrap();
        let mut files = Vec::new();
        for suffix in [".xml?syntax=cii", ".xml?syntax=ubl", ".pdf"] {
            let (status, _, bytes) = seller.bytes(&format!("/invoices/{id}{suffix}")).await;
            assert_eq!(status, 200, "{suffix}");
            files.push(bytes);
        }
        documents.push((inv.body, files));
    }

    let buyer = start().await;
    let (invoice, files) = &documents[0];
    let first = multipart(&buyer, "invoice.xml", &files[0]).await;
    assert_eq!(first.status, 201, "{}", first.body);
    assert_eq!(first.body["receipt_identifier"], invoice["identifier"]);
    assert_eq!(dec(&first.body["net_total"]), dec(&invoice["net_total"]));
    assert_eq!(
        dec(&first.body["gross_total"]),
        dec(&invoice["gross_total"])
    );
    assert_eq!(first.body["iban"], "DE02120300000000202051");
    assert_eq!(first.body["company"]["name"], "Kontor Demo GmbH");
    for again in &files[1..] {
        let r = multipart(&buyer, "again", again).await;
        assert_eq!(r.status, 409, "{}", r.body);
        assert_eq!(r.body["id"], first.body["id"]);
    }
    // The second invoice as Factur-X PDF: the same supplier, a new purchase.
    let (invoice, files) = &documents[1];
    let pdf = multipart(&buyer, "invoice.pdf", &files[2]).await;
    assert_eq!(pdf.status, 201, "{}", pdf.body);
    assert_eq!(pdf.body["e_invoice"]["format"], "factur-x");
    assert_eq!(pdf.body["company"]["id"], first.body["company"]["id"]);
    assert_eq!(dec(&pdf.body["net_total"]), dec(&invoice["net_total"]));
    assert_eq!(dec(&pdf.body["gross_total"]), dec(&invoice["gross_total"]));
    assert_eq!(count(&buyer, "companies").await, 1);
}
