//! The Swiss QR-bill (issue 10): Kontor's payload equals, byte for byte, the one the
//! Python `qrbill` package (in `../shared/einvoice/setup.sh`'s environment) builds from
//! the same data; an invoice PDF of a Swiss account carries the payment part whose QR
//! code (rasterized with `pdftoppm`, decoded with `rqrr`) is that payload; a German
//! account's invoice has none.

mod common;

use common::einvoice::validate::python;
use common::qr::decode_qr_codes;
use common::{pdftotext, start, TestServer};
use kontor_model::qr_bill::{qr_bill, QrBillInput};
use kontor_model::Decimal;
use serde_json::{json, Value};
use std::str::FromStr;

/// Builds `qrbill.QRBill(**args)` and prints its `qr_data()` unchanged.
const QRBILL_SCRIPT: &str = r#"
import json, sys
from qrbill import QRBill
args = json.load(sys.stdin)
sys.stdout.buffer.write(QRBill(**args).qr_data().encode("utf-8"))
"#;

fn python_payload(args: &Value) -> String {
    use std::io::Write;
    let mut child = std::process::Command::new(python())
        .args(["-c", QRBILL_SCRIPT])
        .stdin(std::process::Stdio::piped())
        .stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped())
        .spawn()
        .expect("python runs");
    child
        .stdin
        .take()
        .unwrap()
        .write_all(args.to_string().as_bytes())
        .unwrap();
    let out = child.wait_with_output().unwrap();
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8(out.stdout).unwrap()
}

/// The `qrbill` arguments of the same data Kontor's payload was built from.
fn qrbill_args(bill: &kontor_model::qr_bill::QrBill) -> Value {
    let address = |a: &kontor_model::qr_bill::QrAddress| {
        json!({"name": a.name, "street": a.street, "house_num": a.building_number,
               "pcode": a.post_code, "city": a.town, "country": a.country})
    };
    json!({
        "account": bill.iban,
        "creditor": address(&bill.creditor),
        "debtor": bill.debtor.as_ref().map(address),
        "amount": bill.amount.map(|a| a.to_string()),
        "currency": bill.currency,
        "reference_number": match bill.reference.value() { "" => Value::Null, r => json!(r) },
        "additional_information": bill.message,
    })
}

fn input(iban: &'static str, currency: &'static str) -> QrBillInput<'static> {
    QrBillInput {
        iban,
        currency,
        amount: Decimal::from_str("1949.75").unwrap(),
        invoice_number: "R2611-001",
        creditor_name: "Robert Schneider AG",
        creditor_address: "Rue du Lac 1268\n2501 Biel",
        creditor_country: Some("CH"),
        debtor_name: "Pia-Maria Rutschmann-Schnyder",
        debtor_address: "Grosse Marktgasse 28\n9400 Rorschach",
        debtor_country: Some("CH"),
        message: "Rechnung R2611-001",
    }
}

#[test]
fn payloads_equal_the_python_qrbill_package_byte_for_byte() {
    let cases = [
        // QR-IBAN with a QR reference.
        input("CH44 3199 9123 0008 8901 2", "CHF"),
        // Ordinary IBAN with a creditor reference.
        input("CH93 0076 2011 6238 5295 7", "CHF"),
        // EUR, a German debtor, umlauts and a longer message.
        QrBillInput {
            debtor_name: "Müller & Söhne GmbH",
            debtor_address: "c/o Buchhaltung\nHauptstraße 5a\nD-10115 Berlin",
            debtor_country: Some("DE"),
            amount: Decimal::from_str("0.5").unwrap(),
            message: "Invoice R2611-001 – thank you for your order",
            ..input("CH93 0076 2011 6238 5295 7", "EUR")
        },
        // No debtor address and no reference (an invoice number without letters or
        // digits cannot happen in Kontor, but the payload must still agree).
        QrBillInput {
            debtor_address: "",
            invoice_number: "-",
            ..input("CH93 0076 2011 6238 5295 7", "CHF")
        },
    ];
    let mut codes = Vec::new();
    for case in &cases {
        let bill = qr_bill(case).unwrap();
        codes.push(bill.reference.code());
        let ours = bill.payload();
        let theirs = python_payload(&qrbill_args(&bill));
        assert_eq!(
            ours.as_bytes(),
            theirs.as_bytes(),
            "\nours:   {ours:?}\ntheirs: {theirs:?}"
        );
    }
    assert_eq!(codes, ["QRR", "SCOR", "SCOR", "NON"]);
}

async fn pdf(s: &TestServer, path: &str) -> Vec<u8> {
    let (status, _, bytes) = s.bytes(path).await;
    assert_eq!(status, 200);
    bytes
}

async fn swiss_account(s: &TestServer, iban: &str) {
    let r = s
        .put(
            "/account",
            json!({
                "name": "Robert Schneider AG",
                "address": "Rue du Lac 1268\n2501 Biel",
                "country_code": "CH",
                "account_holder": "Robert Schneider AG",
                "iban": iban,
            }),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

async fn swiss_customer(s: &TestServer, language: &str) -> i64 {
    let r = s
        .post(
            "/companies",
            json!({"name": "Pia Rutschmann AG", "type": "customer", "address": "Grosse Marktgasse 28\n9400 Rorschach",
                   "country_code": "CH", "email": "ap@example.com", "language": language}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

#[tokio::test]
async fn a_swiss_account_prints_a_qr_bill_whose_code_is_the_payload() {
    let s = start().await;
    swiss_account(&s, "CH44 3199 9123 0008 8901 2").await;
    let c = swiss_customer(&s, "de").await;
    let r = s.invoice(c, json!({"currency": "CHF", "recipient_address": "Pia Rutschmann AG\nGrosse Marktgasse 28\n9400 Rorschach"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let number = r.body["identifier"]
        .as_str()
        .expect("a numbered invoice")
        .to_string();
    let gross = Decimal::from_str(&r.body["gross_total"].to_string()).unwrap();
    let bytes = pdf(&s, &format!("/invoices/{id}.pdf")).await;
    if let Ok(dir) = std::env::var("KONTOR_PDF_SAMPLE_DIR") {
        std::fs::write(format!("{dir}/qr-bill-invoice.pdf"), &bytes).unwrap();
    }
    let text = pdftotext(&bytes);
    for expected in [
        "Empfangsschein",
        "Zahlteil",
        "Konto / Zahlbar an",
        "CH44 3199 9123 0008 8901 2",
        "Annahmestelle",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let message = format!("Rechnung {number}");
    let expected = qr_bill(&QrBillInput {
        iban: "CH4431999123000889012",
        currency: "CHF",
        amount: gross,
        invoice_number: &number,
        creditor_name: "Robert Schneider AG",
        creditor_address: "Rue du Lac 1268\n2501 Biel",
        creditor_country: Some("CH"),
        debtor_name: "Pia Rutschmann AG",
        debtor_address: "Grosse Marktgasse 28\n9400 Rorschach",
        debtor_country: Some("CH"),
        message: &message,
    })
    .unwrap();
    assert_eq!(expected.reference.code(), "QRR");
    assert!(text.contains(&expected.reference.printed()), "{text}");
    assert_eq!(decode_qr_codes(&bytes), [expected.payload()]);
    // … and the python package agrees with that payload.
    assert_eq!(python_payload(&qrbill_args(&expected)), expected.payload());
}

#[tokio::test]
async fn english_customers_get_payment_part_and_receipt_and_ordinary_ibans_a_creditor_reference() {
    let s = start().await;
    swiss_account(&s, "CH93 0076 2011 6238 5295 7").await;
    let c = swiss_customer(&s, "en").await;
    let r = s.invoice(c, json!({"currency": "EUR"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let id = r.body["id"].as_i64().unwrap();
    let bytes = pdf(&s, &format!("/invoices/{id}.pdf")).await;
    let text = pdftotext(&bytes);
    for expected in [
        "Receipt",
        "Payment part",
        "Account / Payable to",
        "Acceptance point",
        "EUR",
    ] {
        assert!(text.contains(expected), "missing {expected:?} in\n{text}");
    }
    let codes = decode_qr_codes(&bytes);
    assert_eq!(codes.len(), 1);
    let fields: Vec<&str> = codes[0].split("\r\n").collect();
    assert_eq!(&fields[..4], ["SPC", "0200", "1", "CH9300762011623852957"]);
    assert_eq!(fields[19], "EUR");
    assert_eq!(fields[27], "SCOR");
    assert!(kontor_model::qr_bill::is_valid_creditor_reference(
        fields[28]
    ));
}

#[tokio::test]
async fn german_ibans_and_other_currencies_get_no_qr_bill() {
    let s = start().await;
    swiss_account(&s, "DE02120300000000202051").await;
    let c = swiss_customer(&s, "de").await;
    let r = s.invoice(c, json!({"currency": "CHF"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let bytes = pdf(&s, &format!("/invoices/{}.pdf", r.body["id"])).await;
    let text = pdftotext(&bytes);
    assert!(text.contains("Rechnung"));
    assert!(
        !text.contains("Zahlteil") && !text.contains("Empfangsschein"),
        "{text}"
    );
    assert!(decode_qr_codes(&bytes).is_empty());

    swiss_account(&s, "CH93 0076 2011 6238 5295 7").await;
    let r = s.invoice(c, json!({"currency": "USD"})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let text = pdftotext(&pdf(&s, &format!("/invoices/{}.pdf", r.body["id"])).await);
    assert!(!text.contains("Zahlteil"), "{text}");
}
