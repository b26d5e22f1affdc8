//! Issue 33 § Down-payment and final invoices, on a real server: `POST /invoices` with
//! `kind: "down_payment"` bills a down payment; `kind: "final"` with
//! `down_payment_invoice_ids` bills the full service and deducts each down payment with
//! its own net, VAT per rate and gross, so `amount_due` (and the open amount, the PDF's
//! payment line) is the rest; a down payment is deducted once — also when two final
//! invoices arrive at once; reversing the final invoice frees its down payments. (The
//! e-invoice of a final invoice is checked with the official rules in `einvoice_api.rs`.)

mod common;

use common::{pdftotext, start, TestServer};
use serde_json::{json, Value};

fn dec(v: &Value) -> rust_decimal::Decimal {
    common::num(v).parse().unwrap()
}

fn d(s: &str) -> rust_decimal::Decimal {
    s.parse().unwrap()
}

/// A finalized down payment of `net` (19 %) for `customer`; returns it.
async fn down_payment(s: &TestServer, customer: i64, net: &str) -> Value {
    let net: f64 = net.parse().unwrap();
    let r = s
        .invoice(
            customer,
            json!({"kind": "down_payment", "title": "Abschlagsrechnung",
                   "items": [{"type": "item", "title": "Abschlag", "net_total": net}]}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["kind"], "down_payment");
    r.body
}

/// The final invoice body: 10,000.00 net at 19 % deducting `ids`.
fn final_body(ids: &[&Value]) -> Value {
    json!({"kind": "final", "title": "Schlussrechnung",
           "items": [{"type": "item", "title": "Website, complete", "net_total": 10000}],
           "down_payment_invoice_ids": ids.iter().map(|v| v["id"].clone()).collect::<Vec<_>>()})
}

async fn pay(s: &TestServer, invoice: &Value, amount: f64) {
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": invoice["id"], "date": "2026-11-20", "paid_total": amount, "currency": "EUR"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn the_worked_example_two_paid_down_payments_leave_9520_due() {
    let s = start().await;
    let c = s.customer("Baumeister GmbH").await;
    let first = down_payment(&s, c, "1000").await;
    let second = down_payment(&s, c, "1000").await;
    assert_eq!(dec(&first["gross_total"]), d("1190.00"));
    assert_eq!(dec(&first["amount_due"]), d("1190.00"));
    pay(&s, &first, 1190.0).await;
    pay(&s, &second, 1190.0).await;

    let r = s.invoice(c, final_body(&[&first, &second])).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let fin = r.body;
    assert_eq!(fin["kind"], "final");
    assert_eq!(dec(&fin["net_total"]), d("10000.00"));
    assert_eq!(dec(&fin["gross_total"]), d("11900.00"));
    assert_eq!(dec(&fin["amount_due"]), d("9520.00"));
    assert_eq!(dec(&fin["open_amount"]), d("9520.00"));
    let deducted = fin["deducted_down_payments"].as_array().unwrap();
    assert_eq!(deducted.len(), 2);
    for (entry, dp) in deducted.iter().zip([&first, &second]) {
        assert_eq!(entry["invoice_id"], dp["id"]);
        assert_eq!(entry["identifier"], dp["identifier"]);
        assert_eq!(dec(&entry["net_total"]), d("1000.00"));
        assert_eq!(dec(&entry["tax_total"]), d("190.00"));
        assert_eq!(dec(&entry["gross_total"]), d("1190.00"));
    }
    // The down payments know their final invoice; the list says what the detail says.
    let dp = s.get(&format!("/invoices/{}", first["id"])).await.body;
    assert_eq!(dp["final_invoice_id"], fin["id"]);
    let rows = s
        .get(&format!("/invoices?customer_id={c}&per_page=100"))
        .await
        .body;
    let row = rows
        .as_array()
        .unwrap()
        .iter()
        .find(|r| r["id"] == fin["id"])
        .unwrap()
        .clone();
    assert_eq!(dec(&row["amount_due"]), d("9520.00"));
    assert_eq!(row["deducted_down_payments"], fin["deducted_down_payments"]);

    // The PDF: its heading, each deduction with its VAT, the remainder and what to pay.
    let (status, _, pdf) = s.bytes(&format!("/invoices/{}.pdf", fin["id"])).await;
    assert_eq!(status, 200);
    let text = pdftotext(&pdf);
    let number = fin["identifier"].as_str().unwrap();
    assert!(
        text.contains(&format!("Schlussrechnung {number}")),
        "{text}"
    );
    let dp_number = first["identifier"].as_str().unwrap();
    assert!(text.contains("Abzüglich Abschlagsrechnung"), "{text}");
    assert!(
        text.contains(&format!("{dp_number} vom 03.11.2026")),
        "{text}"
    );
    assert!(text.contains("-190,00"), "{text}");
    assert!(
        text.contains("8.000,00") && text.contains("1.520,00"),
        "{text}"
    );
    assert!(text.contains("9.520,00"), "{text}");
    // The down payment's own PDF.
    let (_, _, pdf) = s.bytes(&format!("/invoices/{}.pdf", first["id"])).await;
    assert!(pdftotext(&pdf).contains(&format!("Abschlagsrechnung {dp_number}")));

    // Paying the amount due settles it.
    pay(&s, &fin, 9520.0).await;
    let after = s.get(&format!("/invoices/{}", fin["id"])).await.body;
    assert_eq!(after["status"], "paid");
    assert_eq!(dec(&after["open_amount"]), d("0"));
}

#[tokio::test]
async fn a_down_payment_is_deducted_once_and_only_what_may_be_deducted_is() {
    let s = start().await;
    let c = s.customer("Baumeister GmbH").await;
    let other = s.customer("Fremd AG").await;
    let dp = down_payment(&s, c, "1000").await;
    let r = s.invoice(c, final_body(&[&dp])).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let fin = r.body;
    // Deducted already.
    let r = s.invoice(c, final_body(&[&dp])).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(
        r.body["errors"]["down_payment_invoice_ids[0]"].is_array(),
        "{}",
        r.body
    );
    // Not a down payment; another customer's; named twice; a draft; unknown.
    let plain = s.invoice(c, json!({})).await.body;
    let foreign = down_payment(&s, other, "100").await;
    let fresh = down_payment(&s, c, "100").await;
    let draft = s
        .invoice(c, json!({"kind": "down_payment", "status": "draft"}))
        .await
        .body;
    for (ids, field) in [
        (vec![&plain], "down_payment_invoice_ids[0]"),
        (vec![&foreign], "down_payment_invoice_ids[0]"),
        (vec![&fresh, &fresh], "down_payment_invoice_ids[1]"),
        (vec![&draft], "down_payment_invoice_ids[0]"),
    ] {
        let r = s.invoice(c, final_body(&ids)).await;
        assert_eq!(r.status, 422, "{ids:?}: {}", r.body);
        assert!(r.body["errors"][field].is_array(), "{field}: {}", r.body);
    }
    let r = s
        .invoice(
            c,
            json!({"kind": "final", "down_payment_invoice_ids": [999999]}),
        )
        .await;
    assert!(
        r.body["errors"]["down_payment_invoice_ids[0]"].is_array(),
        "{}",
        r.body
    );
    // Only a final invoice deducts; a final invoice deducts something.
    let r = s
        .invoice(c, json!({"down_payment_invoice_ids": [fresh["id"]]}))
        .await;
    assert!(
        r.body["errors"]["down_payment_invoice_ids"].is_array(),
        "{}",
        r.body
    );
    let r = s.invoice(c, json!({"kind": "final"})).await;
    assert!(
        r.body["errors"]["down_payment_invoice_ids"].is_array(),
        "{}",
        r.body
    );
    let r = s.invoice(c, json!({"kind": "partial"})).await;
    assert!(r.status == 400 || r.status == 422, "{}", r.body);
    // More than the final invoice bills at 19 %.
    let big = down_payment(&s, c, "20000").await;
    let r = s.invoice(c, final_body(&[&big])).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["items"].is_array(), "{}", r.body);
    // A deducted down payment is neither reversed, credited nor deleted.
    let r = s
        .post(&format!("/invoices/{}/reverse", dp["id"]), json!({}))
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    let r = s
        .post(
            &format!("/invoices/{}/credit_note", dp["id"]),
            json!({"items": [{"type": "item", "title": "x", "quantity": 1, "unit_price": 10}]}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);

    // Reversing the final invoice negates its deductions and frees the down payment.
    let r = s
        .post(&format!("/invoices/{}/reverse", fin["id"]), json!({}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let reversal = r.body;
    assert_eq!(reversal["kind"], "final");
    assert_eq!(dec(&reversal["gross_total"]), d("-11900.00"));
    assert_eq!(dec(&reversal["amount_due"]), d("-10710.00"));
    assert_eq!(
        dec(&reversal["deducted_down_payments"][0]["gross_total"]),
        d("-1190.00")
    );
    let freed = s.get(&format!("/invoices/{}", dp["id"])).await.body;
    assert!(freed["final_invoice_id"].is_null(), "{freed}");
    let r = s.invoice(c, final_body(&[&dp])).await;
    assert_eq!(r.status, 200, "{}", r.body);
}

#[tokio::test]
async fn a_draft_final_invoice_holds_its_down_payments_until_edited_or_deleted() {
    let s = start().await;
    let c = s.customer("Baumeister GmbH").await;
    let a = down_payment(&s, c, "1000").await;
    let b = down_payment(&s, c, "500").await;
    let mut body = final_body(&[&a]);
    body["status"] = json!("draft");
    let r = s.invoice(c, body).await;
    assert_eq!(r.status, 200, "{}", r.body);
    let draft = r.body;
    assert_eq!(dec(&draft["amount_due"]), d("10710.00"));
    assert_eq!(
        s.get(&format!("/invoices/{}", a["id"])).await.body["final_invoice_id"],
        draft["id"]
    );
    // Edited to deduct b instead: a is free again.
    let mut edit = common::invoice_body(c);
    common::merge(&mut edit, final_body(&[&b]));
    edit["status"] = json!("draft");
    let r = s
        .put(&format!("/invoices/{}", draft["id"]), edit.clone())
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(dec(&r.body["amount_due"]), d("11305.00"));
    assert!(s.get(&format!("/invoices/{}", a["id"])).await.body["final_invoice_id"].is_null());
    // Finalized through update_status: numbered, the deduction kept.
    let r = s
        .put(
            &format!("/invoices/{}/update_status", draft["id"]),
            json!({"status": "created"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(dec(&r.body["open_amount"]), d("11305.00"));
    // A second draft deducting a, deleted: a is free again.
    let mut body = final_body(&[&a]);
    body["status"] = json!("draft");
    let second = s.invoice(c, body).await.body;
    let r = s.delete(&format!("/invoices/{}", second["id"]), None).await;
    assert_eq!(r.status, 204, "{}", r.body);
    assert!(s.get(&format!("/invoices/{}", a["id"])).await.body["final_invoice_id"].is_null());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 4)]
async fn final_invoices_arriving_at_once_deduct_a_down_payment_once() {
    let s = start().await;
    let c = s.customer("Baumeister GmbH").await;
    let dp = down_payment(&s, c, "1000").await;
    let mut body = common::invoice_body(c);
    common::merge(&mut body, final_body(&[&dp]));
    let mut statuses = common::requests::statuses_at_once(
        (0..6).map(|_| s.keyed(reqwest::Method::POST, "/invoices").json(&body)),
    )
    .await;
    statuses.sort();
    assert_eq!(statuses, [200, 422, 422, 422, 422, 422]);
    let rows = s
        .get(&format!("/invoices?customer_id={c}&per_page=100"))
        .await
        .body;
    let finals = rows
        .as_array()
        .unwrap()
        .iter()
        .filter(|r| r["kind"] == "final")
        .count();
    assert_eq!(finals, 1);
}
