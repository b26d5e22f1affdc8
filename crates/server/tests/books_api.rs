//! Issue 29 § Books that stay whole (GoBD), on a real server: a reversal (Storno) and the
//! invoice it reverses cannot be deleted; a finalized invoice is deleted only by an admin
//! with a reason, and not at all when the account says `never`; the reversal reads in
//! the customer's language; the DATEV export leaves pending purchases out (see
//! `exports_api.rs`); a customer's discount, Skonto and payment term reach an invoice
//! whose body leaves them out, also one made from an offer.

mod common;

use common::people::{send_as, user_with_role};
use common::start;
use reqwest::Method;
use serde_json::json;

/// A JSON number as a decimal.
fn dec(v: &serde_json::Value) -> rust_decimal::Decimal {
    common::num(v).parse().unwrap()
}

#[tokio::test]
async fn a_reversal_and_its_original_cannot_be_deleted() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let original = s.invoice(c, json!({})).await;
    let id = original.body["id"].as_i64().unwrap();
    let reversal = s.post(&format!("/invoices/{id}/reverse"), json!({})).await;
    assert_eq!(reversal.status, 200, "{}", reversal.body);
    let rid = reversal.body["id"].as_i64().unwrap();
    for target in [rid, id] {
        let r = s
            .delete(
                &format!("/invoices/{target}"),
                Some(json!({"reason": "typo"})),
            )
            .await;
        assert_eq!(r.status, 422, "{}", r.body);
        assert!(
            r.body["message"]
                .as_str()
                .unwrap()
                .contains("belongs to the books"),
            "{}",
            r.body
        );
    }
    // Both are still there and still linked: the original reads reversed, not open.
    let original = s.get(&format!("/invoices/{id}")).await.body;
    assert_eq!(original["reversed"], true);
    assert_eq!(original["reversal_invoice_id"], rid);
    assert_eq!(s.get(&format!("/invoices/{rid}")).await.status, 200);
}

#[tokio::test]
async fn the_reversal_speaks_the_customers_language() {
    let s = start().await;
    let german = s.customer("Kranzler GmbH").await;
    let english = s
        .create(
            "/companies",
            json!({"name": "Harbour Ltd", "address": "1 Dock Road\nLondon", "language": "en"}),
        )
        .await;
    for (customer, title, salutation) in [
        (
            german,
            "Stornorechnung zu Rechnung",
            "Diese Rechnung storniert die Rechnung",
        ),
        (
            english,
            "Reversal of invoice",
            "This invoice reverses invoice",
        ),
    ] {
        let inv = s.invoice(customer, json!({"date": "2026-10-01"})).await;
        let id = inv.body["id"].as_i64().unwrap();
        let number = inv.body["identifier"].as_str().unwrap().to_string();
        let rev = s.post(&format!("/invoices/{id}/reverse"), json!({})).await;
        let rid = rev.body["id"].as_i64().unwrap();
        let full = s.get(&format!("/invoices/{rid}")).await.body;
        assert!(
            full["title"]
                .as_str()
                .unwrap()
                .starts_with(&format!("{title} {number}")),
            "{}",
            full["title"]
        );
        assert!(
            full["salutation"].as_str().unwrap().contains(salutation),
            "{}",
            full["salutation"]
        );
        if customer == german {
            assert!(full["salutation"].as_str().unwrap().contains("01.10.2026"));
            assert!(!full["salutation"].as_str().unwrap().contains("Reversal"));
        }
    }
}

#[tokio::test]
async fn only_admins_delete_finalized_invoices_and_never_when_the_account_says_so() {
    let s = start().await;
    let c = s.customer("Kranzler GmbH").await;
    let (_, staff) = user_with_role(&s, "staff@example.com", "staff").await;
    let finalized = s.invoice(c, json!({})).await.body["id"].as_i64().unwrap();
    let draft = s.invoice(c, json!({"status": "draft"})).await.body["id"]
        .as_i64()
        .unwrap();
    // Staff delete drafts, not finalized invoices.
    let refused = send_as(
        &s,
        Some(&staff),
        Method::DELETE,
        &format!("/invoices/{finalized}"),
        Some(json!({"reason": "typo"})),
    )
    .await;
    assert_eq!(refused.status, 403, "{}", refused.body);
    assert_eq!(
        refused.body["message"],
        "Only an admin may delete a finalized invoice."
    );
    let gone = send_as(
        &s,
        Some(&staff),
        Method::DELETE,
        &format!("/invoices/{draft}"),
        None,
    )
    .await;
    assert_eq!(gone.status, 204, "{}", gone.body);
    // The account forbids it: not even an admin.
    let r = s
        .put("/account", json!({"finalized_invoice_deletion": "never"}))
        .await;
    assert_eq!(r.status, 200, "{}", r.body);
    assert_eq!(r.body["finalized_invoice_deletion"], "never");
    let r = s
        .delete(
            &format!("/invoices/{finalized}"),
            Some(json!({"reason": "typo"})),
        )
        .await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["message"]
        .as_str()
        .unwrap()
        .contains("does not allow"));
    let bad = s
        .put(
            "/account",
            json!({"finalized_invoice_deletion": "sometimes"}),
        )
        .await;
    assert_eq!(bad.status, 422, "{}", bad.body);
    assert!(bad.body["errors"]["finalized_invoice_deletion"].is_array());
    // Back to admins: an admin deletes it with a reason, and only with one.
    s.put("/account", json!({"finalized_invoice_deletion": "admins"}))
        .await;
    let r = s.delete(&format!("/invoices/{finalized}"), None).await;
    assert_eq!(r.status, 422, "{}", r.body);
    assert!(r.body["errors"]["reason"].is_array());
    let r = s
        .delete(
            &format!("/invoices/{finalized}"),
            Some(json!({"reason": "created twice"})),
        )
        .await;
    assert_eq!(r.status, 204, "{}", r.body);
}

#[tokio::test]
async fn customer_defaults_reach_invoices_that_leave_them_out() {
    let s = start().await;
    let c = s
        .create(
            "/companies",
            json!({"name": "Kranzler GmbH", "address": "Kurfürstendamm 18\n10719 Berlin",
                   "default_invoice_due_days": 30, "default_discount": 5,
                   "default_cash_discount": 2, "default_cash_discount_days": 10}),
        )
        .await;
    // Made from an offer (as the app's "Create invoice" sends it): no terms in the body.
    let offer = s
        .post(
            "/offers",
            json!({"company_id": c, "recipient_address": "Kranzler GmbH", "date": "2026-11-02",
                   "due_date": "2026-11-30", "title": "Angebot", "tax": 19,
                   "items": [{"type": "item", "title": "Beratung", "quantity": 1, "unit_price": 1000}]}),
        )
        .await;
    assert_eq!(offer.status, 200, "{}", offer.body);
    let mut body = common::invoice_body(c);
    body["date"] = json!("2026-11-02");
    body.as_object_mut().unwrap().remove("due_date");
    body["offer_id"] = offer.body["id"].clone();
    let inv = s.post("/invoices", body).await;
    assert_eq!(inv.status, 200, "{}", inv.body);
    assert_eq!(
        inv.body["due_date"], "2026-12-02",
        "date + the customer's 30 days"
    );
    assert_eq!(dec(&inv.body["discount"]), rust_decimal::Decimal::from(5));
    assert_eq!(
        dec(&inv.body["cash_discount"]),
        rust_decimal::Decimal::from(2)
    );
    assert_eq!(inv.body["cash_discount_days"], 10);
    // What the body gives wins, an explicit 0 too.
    let mut given = common::invoice_body(c);
    given["cash_discount"] = json!(0);
    given["discount"] = json!(0);
    let inv = s.post("/invoices", given).await;
    assert_eq!(inv.status, 200, "{}", inv.body);
    assert_eq!(
        dec(&inv.body["cash_discount"]),
        rust_decimal::Decimal::from(0)
    );
    assert_eq!(dec(&inv.body["discount"]), rust_decimal::Decimal::from(0));
    assert_eq!(inv.body["due_date"], "2099-12-31");
}
