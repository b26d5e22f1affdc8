//! One record of every kind and the path of every page of the app that shows them: what
//! the tours over every page (`german.rs`, the `/kontor/` walk in `walking_skeleton.rs`)
//! visit.

use crate::Server;
use serde_json::json;

/// The records [`Server::one_of_each`] creates.
pub struct OneOfEach {
    /// A customer ("Hafen Logistik GmbH").
    pub customer: i64,
    /// A supplier ("Papierhaus Nord GmbH").
    pub supplier: i64,
    /// A sent invoice of the customer.
    pub invoice: i64,
    /// A draft invoice of the customer.
    pub draft: i64,
    /// An offer to the customer.
    pub offer: i64,
    /// A purchase from the supplier.
    pub purchase: i64,
    /// A monthly recurring invoice for the customer.
    pub recurring: i64,
}

impl Server {
    /// Creates a customer, a supplier, an invoice, a draft, an offer, a purchase and a
    /// recurring invoice through the API.
    pub async fn one_of_each(&self) -> OneOfEach {
        let customer = self.customer("Hafen Logistik GmbH").await;
        let supplier = self
            .post(
                "/companies",
                json!({"name": "Papierhaus Nord GmbH", "kind": "supplier", "address": "Speicherstadt 1\n20457 Hamburg"}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        let invoice = self.invoice(customer, "Lagerung November").await["id"]
            .as_i64()
            .unwrap();
        let draft = self
            .post(
                "/invoices",
                json!({"customer_id": customer, "status": "draft", "title": "Wartung Entwurf",
                       "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                       "items": [{"type": "item", "title": "Wartung", "quantity": 2, "unit": "Std.", "unit_price": 95}]}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        let offer = self.offer(customer, "Gerüstbau Fassade").await["id"]
            .as_i64()
            .unwrap();
        let purchase = self
            .post(
                "/purchases",
                json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                       "supplier_id": supplier, "receipt_identifier": "RE-11", "title": "Druckerpapier",
                       "items": [{"title": "Papier", "total": 119, "tax": 19, "tax_included": true}]}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        let recurring = self
            .post(
                "/recurring_invoices",
                json!({"template": {"customer_id": customer, "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                        "title": "Wartung {month} {year}", "tax": 19, "currency": "EUR",
                        "items": [{"type": "item", "title": "Wartung", "quantity": 1, "unit": "Monat", "unit_price": 50}]},
                       "interval": "monthly", "next_date": "2027-01-01", "mode": "draft"}),
            )
            .await["id"]
            .as_i64()
            .unwrap();
        OneOfEach {
            customer,
            supplier,
            invoice,
            draft,
            offer,
            purchase,
            recurring,
        }
    }
}

/// Every page of the app behind the sign-in, as `(path, short name)`, showing the records
/// of `r` (every route of `src/app.rs`).
pub fn every_page(r: &OneOfEach) -> Vec<(String, &'static str)> {
    let OneOfEach {
        customer,
        supplier,
        invoice,
        draft,
        offer,
        purchase,
        recurring,
    } = r;
    vec![
        ("/dashboard".into(), "dashboard"),
        ("/invoices".into(), "invoices"),
        ("/invoices/new".into(), "invoice-new"),
        (format!("/invoices/{invoice}"), "invoice-detail"),
        (format!("/invoices/{invoice}/document"), "invoice-document"),
        (format!("/invoices/{invoice}/payments"), "invoice-payments"),
        (format!("/invoices/{invoice}/history"), "invoice-history"),
        (format!("/invoices/{draft}/edit"), "invoice-edit"),
        ("/dunning".into(), "dunning"),
        ("/recurring_invoices".into(), "recurring"),
        ("/recurring_invoices/new".into(), "recurring-new"),
        (
            format!("/recurring_invoices/{recurring}"),
            "recurring-detail",
        ),
        (
            format!("/recurring_invoices/{recurring}/edit"),
            "recurring-edit",
        ),
        ("/offers".into(), "offers"),
        ("/offers/new".into(), "offer-new"),
        (format!("/offers/{offer}"), "offer-detail"),
        (format!("/offers/{offer}/edit"), "offer-edit"),
        ("/purchases".into(), "purchases"),
        ("/purchases/new".into(), "purchase-new"),
        (format!("/purchases/{purchase}"), "purchase-detail"),
        (format!("/purchases/{purchase}/edit"), "purchase-edit"),
        ("/customers".into(), "customers"),
        ("/customers/new".into(), "customer-new"),
        (format!("/customers/{customer}"), "customer-detail"),
        (format!("/customers/{customer}/edit"), "customer-edit"),
        ("/suppliers".into(), "suppliers"),
        ("/suppliers/new".into(), "supplier-new"),
        (format!("/suppliers/{supplier}"), "supplier-detail"),
        (format!("/suppliers/{supplier}/edit"), "supplier-edit"),
        ("/exports".into(), "exports"),
        ("/settings".into(), "settings"),
        ("/settings/users".into(), "users"),
        ("/settings/api_keys".into(), "api-keys"),
    ]
}
