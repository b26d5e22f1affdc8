//! Issue 32 § Payment references and the GiroCode: every finalized invoice answers an ISO
//! 11649 `payment_reference` (checked by python-stdnum, an independent implementation),
//! printed in the PDF's payment line, carried as the e-invoice's BT-83 and filled into the
//! e-mail's `{payment_reference}`; EUR invoices and reminders of an account with an IBAN
//! print a GiroCode whose payload — read by three decoders (rqrr, zbarimg, zxing-cpp) — is
//! EPC069-12 version 002 with the IBAN, the amount asked for and the reference. A switch
//! turns it off; other currencies and amounts beyond the limit print none.

mod common;

use common::qr::{decode_qr_codes, zbar_codes, zxing_codes};
use common::{pdftotext, start, TestServer};
use kontor_model::girocode::GiroCode;
use kontor_model::payment_reference::{payment_reference, printed};
use kontor_model::Decimal;
use serde_json::json;
use std::str::FromStr;

const IBAN: &str = "DE89370400440532013000";

async fn german_account(s: &TestServer) {
    let r = s
        .put(
            "/account",
            json!({"name": "Kontor Test GmbH", "address": "Musterstraße 1\n10115 Berlin", "country_code": "DE",
                "account_holder": "Kontor Test GmbH", "iban": "DE89 3704 0044 0532 0130 00", "bic": "COBADEFFXXX",
                "vat_identifier": "DE123456788", "phone": "+49 30 1234567", "email": "billing@kontor.example"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

async fn customer(s: &TestServer) -> i64 {
    let r = s
        .post(
            "/companies",
            json!({"name": "Hafen Logistik GmbH", "type": "customer", "address": "Hafenstraße 5\n20457 Hamburg",
                "country_code": "DE", "email": "ap@example.com", "language": "de"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

async fn pdf(s: &TestServer, path: &str) -> Vec<u8> {
    let (status, _, bytes) = s.bytes(path).await;
    assert_eq!(status, 200, "{}", String::from_utf8_lossy(&bytes));
    bytes
}

/// python-stdnum's ISO 11649 check of `reference`.
fn stdnum_valid(reference: &str) -> bool {
    let out = std::process::Command::new(common::tools::test_python())
        .args([
            "-c",
            "import sys\nfrom stdnum import iso11649\nprint(iso11649.is_valid(sys.argv[1]))",
        ])
        .arg(reference)
        .output()
        .expect("python with python-stdnum (scripts/setup.sh: KONTOR_TEST_PY)");
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).trim() == "True"
}

#[tokio::test]
async fn finalized_invoices_carry_their_payment_reference_on_the_wire_in_the_pdf_the_xml_and_the_mail(
) {
    let s = start().await;
    german_account(&s).await;
    let c = customer(&s).await;
    let r = s.invoice(c, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let number = r.body["identifier"].as_str().unwrap().to_string();
    let reference = r.body["payment_reference"]
        .as_str()
        .expect("a payment reference")
        .to_string();
    assert_eq!(Some(reference.clone()), payment_reference(&number));
    assert!(
        reference.starts_with("RF") && reference.len() <= 25,
        "{reference}"
    );
    assert!(
        stdnum_valid(&reference),
        "python-stdnum accepts {reference}"
    );
    assert!(
        !stdnum_valid(&reference.replacen("RF", "RF9", 1)),
        "the oracle can say no"
    );

    // Also in the list; drafts have none.
    let list = s.get("/invoices").await;
    assert_eq!(list.body[0]["payment_reference"], reference.as_str());
    let draft = s.invoice(c, json!({"status": "draft"})).await;
    assert_eq!(draft.body["payment_reference"], serde_json::Value::Null);

    // The PDF's payment line names it in groups of four.
    let text = pdftotext(&pdf(&s, &format!("/invoices/{id}.pdf")).await);
    let flat = text.split_whitespace().collect::<Vec<_>>().join(" ");
    assert!(
        flat.contains(&format!("Verwendungszweck: {}", printed(&reference))),
        "{flat}"
    );

    // BT-83 in both syntaxes.
    for (syntax, element) in [("cii", "PaymentReference>"), ("ubl", "PaymentID>")] {
        let (status, _, xml) = s
            .bytes(&format!("/invoices/{id}.xml?syntax={syntax}"))
            .await;
        assert_eq!(status, 200);
        let xml = String::from_utf8(xml).unwrap();
        assert!(
            xml.contains(&format!("{element}{reference}<")),
            "{syntax}: {xml}"
        );
    }

    // The e-mail's placeholder (no SMTP server: the outbox).
    let sent = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"emails_to": "ap@example.com", "subject": "Rechnung {payment_reference}",
                "text": "Bitte überweisen Sie mit dem Verwendungszweck {payment_reference}."}),
        )
        .await;
    assert_eq!(sent.status, 200, "{}", sent.body);
    assert_eq!(
        sent.body["subject"],
        format!("Rechnung {}", printed(&reference))
    );
    let mail = s.outbox(1).await.concat();
    assert!(!mail.contains("{payment_reference}"), "{mail}");
}

#[tokio::test]
async fn eur_invoices_and_reminders_print_a_girocode_that_three_decoders_read() {
    let s = start().await;
    german_account(&s).await;
    let c = customer(&s).await;
    let r = s.invoice(c, json!({"due_date": "2026-11-10"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let number = r.body["identifier"].as_str().unwrap().to_string();
    let gross = Decimal::from_str(&r.body["gross_total"].to_string()).unwrap();
    let expected = GiroCode::new(
        IBAN,
        Some("COBADEFFXXX"),
        "Kontor Test GmbH",
        gross,
        &number,
    )
    .unwrap()
    .payload();
    assert!(expected.starts_with(
        "BCD\n002\n1\nSCT\nCOBADEFFXXX\nKontor Test GmbH\nDE89370400440532013000\nEUR"
    ));
    let bytes = pdf(&s, &format!("/invoices/{id}.pdf")).await;
    if let Ok(dir) = std::env::var("KONTOR_PDF_SAMPLE_DIR") {
        std::fs::write(format!("{dir}/girocode-invoice.pdf"), &bytes).unwrap();
    }
    assert_eq!(
        decode_qr_codes(&bytes),
        std::slice::from_ref(&expected),
        "rqrr"
    );
    assert_eq!(zbar_codes(&bytes).trim_end(), expected, "zbarimg");
    assert_eq!(
        zxing_codes(&bytes),
        std::slice::from_ref(&expected),
        "zxing-cpp"
    );
    let fields: Vec<&str> = expected.split('\n').collect();
    assert_eq!(fields[7], format!("EUR{gross:.2}"));
    assert_eq!(fields[9], r.body["payment_reference"].as_str().unwrap());

    // A reminder asks for the amount due (open amount, fee, flat fee, interest): its code
    // carries that amount.
    let reminder = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": id, "date": "2026-11-20", "due_date": "2026-11-30", "fee": 5, "text": "<p>Bitte zahlen</p>"}),
        )
        .await;
    assert_eq!(reminder.status, 200, "{}", reminder.body);
    let reminder_id = reminder.body["id"].as_i64().unwrap();
    let reminder_pdf = pdf(&s, &format!("/invoice_reminders/{reminder_id}.pdf")).await;
    let codes = decode_qr_codes(&reminder_pdf);
    assert_eq!(codes.len(), 1, "one GiroCode on the reminder");
    let part = |k: &str| Decimal::from_str(&reminder.body[k].to_string()).unwrap();
    let claimed = part("open_amount") + part("fee") + part("flat_fee") + part("interest");
    assert!(claimed > gross, "the fee is claimed too");
    assert_eq!(
        codes[0].split('\n').nth(7).unwrap(),
        format!("EUR{claimed:.2}")
    );

    // Switched off: no code, the payment line stays.
    let off = s.put("/account", json!({"girocode": false})).await;
    assert_eq!(off.status, 200, "{}", off.body);
    assert_eq!(off.body["girocode"], false);
    let bytes = pdf(&s, &format!("/invoices/{id}.pdf")).await;
    assert!(decode_qr_codes(&bytes).is_empty());
    assert!(pdftotext(&bytes).contains("Verwendungszweck"));
}

#[tokio::test]
async fn other_currencies_and_amounts_beyond_the_limit_print_no_girocode() {
    let s = start().await;
    german_account(&s).await;
    let account = s.get("/account").await;
    assert_eq!(account.body["girocode"], true, "on by default");
    let c = customer(&s).await;
    let usd = s.invoice(c, json!({"currency": "USD"})).await;
    if usd.status == 200 {
        let bytes = pdf(&s, &format!("/invoices/{}.pdf", usd.body["id"])).await;
        assert!(decode_qr_codes(&bytes).is_empty(), "no GiroCode in USD");
    }
    let huge = s
        .invoice(
            c,
            json!({"items": [{"type": "item", "title": "Harbour", "quantity": 1, "unit_price": 900000000}]}),
        )
        .await;
    assert_eq!(huge.status, 200, "{}", huge.body);
    let bytes = pdf(&s, &format!("/invoices/{}.pdf", huge.body["id"])).await;
    assert!(
        decode_qr_codes(&bytes).is_empty(),
        "1,071,000,000.00 EUR is beyond the limit"
    );
}
