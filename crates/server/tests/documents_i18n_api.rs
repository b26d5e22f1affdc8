//! Issue 9 § Documents show it, over real HTTP: the account's VAT ID, IBAN, logo and legal
//! footer (§ 14 UStG) in the invoice and offer PDFs, and the customer's correspondence
//! language picking German or English words, numbers and dates — text read back with
//! `pdftotext`, images listed with `pdfimages`.

mod common;

use common::{pdftotext, start, TestServer};
use serde_json::json;
use std::process::Command;

/// `pdfimages -list` of `pdf` (one line per embedded image after two header lines).
fn pdfimages_list(pdf: &[u8], dir: &std::path::Path) -> String {
    let file = dir.join("listed.pdf");
    std::fs::write(&file, pdf).unwrap();
    let out = Command::new("pdfimages")
        .arg("-list")
        .arg(&file)
        .output()
        .expect("pdfimages (poppler-utils)");
    String::from_utf8_lossy(&out.stdout).into_owned()
}

/// GET `path` with the key → (status, PDF bytes).
async fn pdf_bytes(s: &TestServer, path: &str) -> (u16, Vec<u8>) {
    let (status, _, bytes) = s.bytes(path).await;
    (status, bytes)
}

async fn pdf_text(s: &TestServer, path: &str) -> String {
    let (status, bytes) = pdf_bytes(s, path).await;
    assert_eq!(status, 200, "{path}: {}", String::from_utf8_lossy(&bytes));
    pdftotext(&bytes)
}

/// The account data a German GmbH prints (valid VAT ID and IBAN).
async fn set_account(s: &TestServer) {
    let r = s
        .put(
            "/account",
            json!({
                "name": "Nordlicht Software GmbH",
                "address": "Friedrichstraße 68\n10117 Berlin",
                "country_code": "DE",
                "vat_identifier": "DE136695976",
                "tax_number": "37/123/45678",
                "register_court": "Amtsgericht Charlottenburg",
                "register_number": "HRB 187654 B",
                "managing_directors": "Jana Weber",
                "phone": "+49 30 1234567",
                "website": "https://nordlicht.example",
                "account_holder": "Nordlicht Software GmbH",
                "iban": "DE02120300000000202051",
                "bic": "BYLADEM1001",
                "bank_name": "Deutsche Kreditbank"
            }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

async fn company(s: &TestServer, name: &str, language: &str) -> i64 {
    let r = s
        .post(
            "/companies",
            json!({"name": name, "type": "customer", "address": "1 High Street\nLondon", "email": "ap@example.com", "language": language}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

#[tokio::test]
async fn the_invoice_carries_vat_id_iban_and_the_legal_footer_blank_paper_only_the_payment_line() {
    let s = start().await;
    set_account(&s).await;
    let c = s.customer("Müller KG").await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    // Read as a person reads it: a line break (the payment line wraps beside the
    // GiroCode, issue 32) is a space.
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf"))
        .await
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    for expected in [
        "Nordlicht Software GmbH",
        "Friedrichstraße 68",
        "USt-IdNr. DE136695976",
        "Steuernummer 37/123/45678",
        "Amtsgericht Charlottenburg",
        "Handelsregister HRB 187654 B",
        "Geschäftsführung: Jana Weber",
        "Tel. +49 30 1234567",
        "https://nordlicht.example",
        "Deutsche Kreditbank",
        "Kontoinhaber: Nordlicht Software GmbH",
        "IBAN DE02 1203 0000 0000 2020 51",
        "BIC BYLADEM1001",
        "Bitte überweisen Sie 297,50 EUR bis zum 31.12.2099",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    let footer_ibans = text.matches("DE02 1203 0000 0000 2020 51").count();
    assert!(
        footer_ibans >= 2,
        "payment line and footer name the IBAN:\n{text}"
    );

    let blank = pdf_text(&s, &format!("/invoices/{id}.pdf?blank=true"))
        .await
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ");
    assert!(
        !blank.contains("DE136695976") && !blank.contains("Friedrichstraße"),
        "blank paper prints no sender and no legal footer:\n{blank}"
    );
    assert!(
        blank.contains("auf das Konto IBAN DE02 1203 0000 0000 2020 51"),
        "the payment line still names the IBAN:\n{blank}"
    );

    // Without an IBAN the payment line asks for payment without one.
    assert_eq!(s.put("/account", json!({"iban": ""})).await.status, 200);
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf")).await;
    assert!(
        text.contains("Bitte zahlen Sie 297,50 EUR bis zum 31.12.2099.")
            && !text.contains("IBAN DE02"),
        "{text}"
    );
}

#[tokio::test]
async fn an_english_customer_gets_an_english_invoice_and_a_german_one_a_german_invoice() {
    let s = start().await;
    set_account(&s).await;
    let en = company(&s, "Thames Digital Ltd", "en").await;
    let de = company(&s, "Bergmann GmbH", "de").await;
    let period = json!({"service_period_from": "2026-10-01", "service_period_to": "2026-10-31", "discount": 10});
    let en_id = s.invoice(en, period.clone()).await.body["id"]
        .as_i64()
        .unwrap();
    let de_id = s.invoice(de, period).await.body["id"].as_i64().unwrap();

    let text = pdf_text(&s, &format!("/invoices/{en_id}.pdf")).await;
    for expected in [
        "Invoice R2611-001",
        "Invoice number",
        "Invoice date",
        "3 Nov 2026",
        "Service period",
        "1 Oct 2026 – 31 Oct 2026",
        "Due date",
        "Quantity",
        "Unit price",
        "Subtotal",
        "Discount 10 %",
        "Net total",
        "VAT 19 %",
        "Gross total",
        "267.75 EUR",
        "Please transfer 267.75 EUR by 31 Dec 2099 to IBAN DE02 1203 0000 0000 2020 51",
        "VAT ID DE136695976",
        "Page 1 of 1",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    assert!(!text.contains("Rechnung"), "no German word:\n{text}");

    let text = pdf_text(&s, &format!("/invoices/{de_id}.pdf")).await;
    for expected in [
        "Rechnung R2611-002",
        "Rechnungsnummer",
        "Rechnungsdatum",
        "03.11.2026",
        "Leistungszeitraum",
        "01.10.2026 – 31.10.2026",
        "Fällig am",
        "Menge",
        "Einzelpreis",
        "Zwischensumme",
        "Rabatt 10 %",
        "Netto",
        "USt. 19 %",
        "Brutto",
        "267,75 EUR",
        "Seite 1 von 1",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    assert!(!text.contains("Invoice"), "no English word:\n{text}");

    // Switching the customer to English switches its next PDF.
    let r = s
        .put(&format!("/companies/{de}"), json!({"language": "en"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let text = pdf_text(&s, &format!("/invoices/{de_id}.pdf")).await;
    assert!(
        text.contains("Invoice R2611-002") && !text.contains("Rechnung"),
        "{text}"
    );
}

#[tokio::test]
async fn offers_and_reverse_charge_invoices_speak_the_customer_language() {
    let s = start().await;
    set_account(&s).await;
    let en = company(&s, "Amsterdam Design BV", "en").await;
    let offer = s
        .post(
            "/offers",
            json!({"company_id": en, "recipient_address": "Amsterdam Design BV", "title": "Relaunch",
                   "date": "2026-11-03", "due_date": "2026-12-03", "tax": 19, "currency": "EUR",
                   "items": [{"type": "item", "title": "Design", "quantity": 1, "unit_price": 1000},
                             {"type": "item", "title": "Extras", "quantity": 1, "unit_price": 500, "optional": true}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    let oid = offer.body["id"].as_i64().unwrap();
    let text = pdf_text(&s, &format!("/offers/{oid}.pdf")).await;
    for expected in [
        "Offer A2611-001",
        "Valid until",
        "3 Dec 2026",
        "This offer is valid until 3 Dec 2026.",
        "Extras (optional)",
        "1,190.00 EUR",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    assert!(!text.contains("Angebot"), "{text}");

    let inv = s
        .invoice(en, json!({"vat": {"reverse_charge": true}}))
        .await;
    assert_eq!(inv.status, 200, "{}", inv.body);
    let id = inv.body["id"].as_i64().unwrap();
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf")).await;
    assert!(
        text.contains("Reverse charge: VAT to be accounted for by the recipient."),
        "{text}"
    );
    let de = s.customer("Wien Consulting GmbH").await;
    let id = s
        .invoice(de, json!({"vat": {"reverse_charge": true}}))
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let text = pdf_text(&s, &format!("/invoices/{id}.pdf")).await;
    assert!(
        text.contains("Steuerschuldnerschaft des Leistungsempfängers"),
        "{text}"
    );
}

#[tokio::test]
async fn the_account_logo_is_in_the_invoice_pdf_png_and_svg() {
    let s = start().await;
    let c = s.customer("Logo AG").await;
    let id = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let path = format!("/invoices/{id}.pdf?letter_paper_id=2");
    let (_, before) = pdf_bytes(&s, &path).await;
    assert!(
        pdftotext(&before).contains("Kontor"),
        "without a logo the paper's wordmark is printed"
    );

    let png = include_bytes!("../../pdf/tests/fixtures/logo.png").to_vec();
    let r = s
        .upload(reqwest::Method::PUT, "/account/logo", "logo.png", &png)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let (_, with_png) = pdf_bytes(&s, &path).await;
    let images = pdfimages_list(&with_png, s.dir.path());
    assert!(
        images
            .lines()
            .any(|l| l.contains(" 48 ") && l.contains(" 16 ")),
        "the 48×16 PNG logo is embedded:\n{images}"
    );
    let (_, blank) = pdf_bytes(&s, &format!("/invoices/{id}.pdf?blank=true")).await;
    assert_eq!(
        pdfimages_list(&blank, s.dir.path()).lines().count(),
        2,
        "blank paper: no logo (only the two header lines of the listing)"
    );

    let svg = br##"<svg xmlns="http://www.w3.org/2000/svg" width="300" height="40" viewBox="0 0 300 40"><rect width="40" height="40" fill="#1f4e79"/><text x="50" y="30" font-size="26">Wortmarke</text></svg>"##.to_vec();
    let r = s
        .upload(reqwest::Method::PUT, "/account/logo", "logo.svg", &svg)
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let text = pdf_text(&s, &path).await;
    assert!(text.contains("Wortmarke"), "the SVG logo is drawn:\n{text}");
    let (_, with_svg) = pdf_bytes(&s, &path).await;
    assert_eq!(
        pdfimages_list(&with_svg, s.dir.path()).lines().count(),
        2,
        "the PNG is gone, the SVG is vector graphics"
    );
}

#[tokio::test]
async fn the_demo_account_prints_its_logo_vat_id_and_customers_in_their_language() {
    let s = common::start_demo().await;
    let get = |path: String| {
        s.client
            .get(s.url(&path))
            .header("Authorization", format!("Token token={}", s.key))
            .send()
    };
    let r = get("/account".into()).await.unwrap();
    assert_eq!(r.status(), 200, "GET /account with the demo's key");
    let account: serde_json::Value = r.json().await.unwrap();
    assert_eq!(account["vat_identifier"], "DE136695976", "{account}");
    assert_eq!(account["iban"], "DE02120300000000202051");
    assert_eq!(
        account["logo"]["content_type"], "image/svg+xml",
        "{account}"
    );
    let logo = reqwest::get(account["logo"]["file_url"].as_str().unwrap())
        .await
        .unwrap();
    assert_eq!(logo.status(), 200);

    let companies: serde_json::Value = get("/companies?type=customer&limit=100".into())
        .await
        .unwrap()
        .json()
        .await
        .unwrap();
    let companies = companies
        .as_array()
        .cloned()
        .unwrap_or_else(|| companies["data"].as_array().cloned().unwrap_or_default());
    let mut countries: Vec<&str> = companies
        .iter()
        .filter_map(|c| c["country_code"].as_str())
        .collect();
    countries.sort();
    countries.dedup();
    assert_eq!(countries, ["AT", "CH", "DE", "GB", "NL"], "{companies:?}");
    for c in &companies {
        assert!(
            c["billing_contact"].is_object(),
            "billing contact of {}",
            c["name"]
        );
    }
    let english = companies
        .iter()
        .find(|c| c["country_code"] == "GB")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    let german = companies
        .iter()
        .find(|c| c["country_code"] == "DE")
        .unwrap()["id"]
        .as_i64()
        .unwrap();
    for (customer, word, other) in [
        (english, "Invoice", "Rechnung"),
        (german, "Rechnung", "Invoice"),
    ] {
        let list: serde_json::Value = get(format!("/invoices?customer_id={customer}"))
            .await
            .unwrap()
            .json()
            .await
            .unwrap();
        let id = list[0]["id"].as_i64().unwrap();
        let bytes = get(format!("/invoices/{id}.pdf"))
            .await
            .unwrap()
            .bytes()
            .await
            .unwrap();
        let text = pdftotext(&bytes);
        assert!(text.contains(word) && !text.contains(other), "{text}");
        assert!(
            text.contains("DE136695976") && text.contains("DE02 1203 0000 0000 2020 51"),
            "{text}"
        );
    }
}

#[tokio::test]
async fn the_time_sheet_speaks_the_customer_language() {
    let s = start().await;
    let en = company(&s, "Thames Digital Ltd", "en").await;
    let project = s
        .create("/projects", json!({"name": "Relaunch", "customer_id": en}))
        .await;
    let a = s.create("/activities", json!({"date": "2026-11-02", "hours": 2.5, "description": "Wireframes", "project_id": project, "hourly_rate": 480})).await;
    let id = s
        .invoice(en, json!({"project_id": project, "items": [{"type": "item", "title": "Hours", "quantity": 2.5, "unit": "h", "unit_price": 480, "activity_ids": [a]}]}))
        .await
        .body["id"]
        .as_i64()
        .unwrap();
    let text = pdf_text(&s, &format!("/invoices/{id}/timesheet.pdf")).await;
    for expected in [
        "Time sheet for invoice R2611-001",
        "Hours",
        "Rate",
        "2 Nov",
        "Total hours",
        "2.5 h",
        "1,200.00 EUR",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
    assert!(!text.contains("Stunden"), "{text}");

    let r = s
        .put(&format!("/companies/{en}"), json!({"language": "de"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let text = pdf_text(&s, &format!("/invoices/{id}/timesheet.pdf")).await;
    for expected in [
        "Stundennachweis zur Rechnung R2611-001",
        "Stundensatz",
        "02.11.",
        "Stunden gesamt",
        "2,5 h",
        "1.200,00 EUR",
    ] {
        assert!(text.contains(expected), "{expected:?} missing:\n{text}");
    }
}
