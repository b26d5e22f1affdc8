//! Issue 8, rules in the model: the server refuses what the app refuses (reminders for
//! paid, reversed and reversal invoices; purchase payments with too many places), resolves
//! recipients and VAT with the model's rules, and links an invoice to the offer it was
//! created from — over real HTTP on a fresh SQLite file.

mod common;

use common::{num, start, TestServer};
use serde_json::json;

async fn invoice_id(s: &TestServer, customer: i64) -> i64 {
    let r = s.invoice(customer, json!({})).await;
    assert_eq!(r.status, 200, "{}", r.body);
    r.body["id"].as_i64().unwrap()
}

fn reminder(id: i64) -> serde_json::Value {
    json!({"invoice_id": id, "date": "2100-01-04", "due_date": "2100-01-11", "fee": 0, "text": "<p>Please pay</p>"})
}

#[tokio::test]
async fn reminders_are_refused_for_paid_reversed_and_reversal_invoices() {
    let s = start().await;
    let c = s.customer("Dunning").await;

    let paid = invoice_id(&s, c).await;
    let r = s
        .post(
            "/invoices/payments",
            json!({"invoice_id": paid, "date": "2026-11-10", "paid_total": 297.50}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    let r = s.post("/invoice_reminders", reminder(paid)).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["errors"]["invoice_id"][0],
        "is paid; there is nothing to remind of"
    );

    let reversed = invoice_id(&s, c).await;
    let rev = s
        .post(&format!("/invoices/{reversed}/reverse"), json!({}))
        .await;
    assert_eq!(rev.status, 200, "{}", rev.body);
    let r = s.post("/invoice_reminders", reminder(reversed)).await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.body["errors"]["invoice_id"][0],
        "has been reversed; it cannot be reminded of"
    );
    let reversal = rev.body["id"].as_i64().unwrap();
    let r = s.post("/invoice_reminders", reminder(reversal)).await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.body["errors"]["invoice_id"][0],
        "is a reversal invoice; it cannot be reminded of"
    );

    let open = invoice_id(&s, c).await;
    let r = s.post("/invoice_reminders", reminder(open)).await;
    assert_eq!(r.status, 200, "an open invoice is reminded of: {}", r.body);
    let r = s
        .post(
            "/invoice_reminders",
            json!({"invoice_id": open, "date": "2100-01-04", "due_date": "2100-01-11", "fee": 1.005}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(
        r.body["errors"]["fee"][0],
        "must have at most 2 decimal places in EUR"
    );
}

#[tokio::test]
async fn reversal_refusals_use_the_models_messages() {
    let s = start().await;
    let c = s.customer("Twice").await;
    let id = invoice_id(&s, c).await;
    assert_eq!(
        s.post(&format!("/invoices/{id}/reverse"), json!({}))
            .await
            .status,
        200
    );
    let r = s.post(&format!("/invoices/{id}/reverse"), json!({})).await;
    assert_eq!(
        (r.status.as_u16(), r.body["message"].as_str()),
        (422, Some("This invoice has already been reversed."))
    );
}

#[tokio::test]
async fn purchase_payments_keep_to_the_currencys_places() {
    let s = start().await;
    let p = s
        .post(
            "/purchases",
            json!({"date": "2026-11-02", "currency": "EUR", "payment_method": "bank_transfer",
                   "items": [{"title": "Paper", "total": 119, "tax": 19, "tax_included": true}]}),
        )
        .await;
    assert_eq!(p.status, 200, "{}", p.body);
    let id = p.body["id"].as_i64().unwrap();
    let r = s
        .post(
            "/purchases/payments",
            json!({"purchase_id": id, "date": "2026-11-10", "total": 10.005}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert_eq!(
        r.body["errors"]["total"][0],
        "must have at most 2 decimal places in EUR"
    );
    let r = s
        .post(
            "/purchases/payments",
            json!({"purchase_id": id, "total": 0}),
        )
        .await;
    assert_eq!(r.status, 422);
    assert_eq!(r.body["errors"]["total"][0], "must be greater than 0");
    assert_eq!(r.body["errors"]["date"][0], "is required");
    let r = s
        .post(
            "/purchases/payments",
            json!({"purchase_id": id, "date": "2026-11-10", "total": 10.5}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(num(&r.body["total"]), "10.50");
}

#[tokio::test]
async fn an_empty_customer_email_is_no_default_recipient() {
    let s = start().await;
    let c = s
        .post(
            "/companies",
            json!({"name": "Silent GmbH", "address": "Kai 1", "email": "", "billing_email_cc": "boss@silent.example"}),
        )
        .await;
    assert_eq!(c.status, 200, "{}", c.body);
    let id = invoice_id(&s, c.body["id"].as_i64().unwrap()).await;
    let r = s
        .post(
            &format!("/invoices/{id}/send_email"),
            json!({"subject": "Invoice", "text": "Hello"}),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["emails_to"].is_array(), "{}", r.body);
    let inv = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(inv["status"], "created", "nothing was sent");
}

#[tokio::test]
async fn vat_defaults_come_from_the_customer_unless_given() {
    let s = start().await;
    let uk = s
        .create(
            "/companies",
            json!({"name": "Thames Ltd", "address": "London", "email": "ap@thames.example",
                   "customer_vat": {"tax": 20, "reverse_charge": true, "intra_eu": false}}),
        )
        .await;
    let inv = s.invoice(uk, json!({})).await;
    assert_eq!(inv.status, 200, "{}", inv.body);
    assert_eq!(inv.body["vat"]["reverse_charge"], true);
    assert_eq!(num(&inv.body["tax"]), "0");
    assert_eq!(num(&inv.body["gross_total"]), num(&inv.body["net_total"]));

    let given = s
        .invoice(uk, json!({"vat": {"reverse_charge": false}}))
        .await;
    assert_eq!(given.body["vat"]["reverse_charge"], false);
    assert_eq!(num(&given.body["tax"]), "19");

    let offer = s
        .post(
            "/offers",
            json!({"company_id": uk, "recipient_address": "Thames Ltd\nLondon", "date": "2026-11-05", "due_date": "2026-12-05", "title": "Site", "tax": 19,
                   "items": [{"type": "item", "title": "Design", "quantity": 1, "unit_price": 100}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    assert_eq!(offer.body["vat"]["reverse_charge"], true);
    assert_eq!(num(&offer.body["tax"]), "0");
}

async fn accepted_offer(s: &TestServer, company: i64) -> i64 {
    let offer = s
        .post(
            "/offers",
            json!({"company_id": company, "recipient_address": "ACME\nMain St 1", "date": "2026-11-05", "due_date": "2026-12-05", "title": "Site", "tax": 19,
                   "items": [
                       {"type": "item", "title": "Design", "quantity": 2, "unit_price": 100},
                       {"type": "item", "title": "Extra", "quantity": 1, "unit_price": 500, "optional": true}
                   ]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    let id = offer.body["id"].as_i64().unwrap();
    let r = s
        .put(
            &format!("/offers/{id}/update_status"),
            json!({"status": "accepted"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    id
}

fn invoice_from(customer: i64, offer: i64, unit_price: u32) -> serde_json::Value {
    json!({"customer_id": customer, "offer_id": offer, "recipient_address": "ACME\nMain St 1", "date": "2026-11-10", "due_date": "2026-11-24",
           "title": "Site", "tax": 19, "currency": "EUR",
           "items": [{"type": "item", "title": "Design", "quantity": 2, "unit_price": unit_price}]})
}

#[tokio::test]
async fn an_invoice_from_an_offer_links_both_and_bills_the_offer() {
    let s = start().await;
    let c = s.customer("Offeree").await;
    let offer = accepted_offer(&s, c).await;

    let part = s.post("/invoices", invoice_from(c, offer, 40)).await;
    assert_eq!(part.status, 200, "{}", part.body);
    assert_eq!(part.body["offer_id"], offer);
    let o = s.get(&format!("/offers/{offer}")).await.body;
    assert_eq!(o["status"], "partially_billed", "80 of 200 net billed");
    assert_eq!(o["invoices"][0]["id"], part.body["id"]);
    assert_eq!(o["invoices"][0]["identifier"], part.body["identifier"]);

    let rest = s.post("/invoices", invoice_from(c, offer, 60)).await;
    assert_eq!(rest.status, 200, "{}", rest.body);
    let o = s.get(&format!("/offers/{offer}")).await.body;
    assert_eq!(
        o["status"], "billed",
        "200 of 200 net billed (the optional one not counted)"
    );
    assert_eq!(o["invoices"].as_array().unwrap().len(), 2);
    let fetched = s.get(&format!("/invoices/{}", rest.body["id"])).await.body;
    assert_eq!(fetched["offer_id"], offer);

    let other = s.customer("Stranger").await;
    let r = s.post("/invoices", invoice_from(other, offer, 60)).await;
    assert_eq!(r.status, 422);
    assert!(r.body["errors"]["offer_id"].is_array(), "{}", r.body);
    let r = s.post("/invoices", invoice_from(c, 9999, 60)).await;
    assert_eq!(r.status, 422);
    assert_eq!(r.body["errors"]["offer_id"][0], "does not exist");
}

#[tokio::test]
async fn offers_go_to_the_company_without_its_billing_cc() {
    let s = start().await;
    let company = s
        .create(
            "/companies",
            json!({"name": "Quay AG", "address": "Kai 2", "email": "office@quay.example",
                   "billing_email_cc": "accounts@quay.example"}),
        )
        .await;
    let offer = s
        .post(
            "/offers",
            json!({"company_id": company, "recipient_address": "Quay AG\nKai 2", "date": "2026-11-05",
                   "due_date": "2026-12-05", "title": "Cranes", "tax": 19,
                   "items": [{"type": "item", "title": "Survey", "quantity": 1, "unit_price": 100}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    let id = offer.body["id"].as_i64().unwrap();
    let r = s
        .post(
            &format!("/offers/{id}/send_email"),
            json!({"subject": "Offer", "text": "Hello"}),
        )
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["emails_to"], "office@quay.example");
    assert_eq!(
        r.body["emails_cc"], "",
        "the billing CC is for invoices only"
    );
}
