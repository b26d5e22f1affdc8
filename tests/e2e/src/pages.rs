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
        let supplier = self.create("/companies",
                json!({"name": "Papierhaus Nord GmbH", "kind": "supplier", "address": "Speicherstadt 1\n20457 Hamburg"}),).await;
        let invoice = self.invoice(customer, "Lagerung November").await["id"]
            .as_i64()
            .unwrap();
        let draft = self.create("/invoices",
                json!({"customer_id": customer, "status": "draft", "title": "Wartung Entwurf",
                       "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                       "items": [{"type": "item", "title": "Wartung", "quantity": 2, "unit": "Std.", "unit_price": 95}]}),).await;
        let offer = self.offer(customer, "Gerüstbau Fassade").await["id"]
            .as_i64()
            .unwrap();
        let purchase = self.create("/purchases",
                json!({"date": "2026-11-10", "currency": "EUR", "payment_method": "bank_transfer",
                       "supplier_id": supplier, "receipt_identifier": "RE-11", "title": "Druckerpapier",
                       "items": [{"title": "Papier", "total": 119, "tax": 19, "tax_included": true}]}),).await;
        let recurring = self.create("/recurring_invoices",
                json!({"template": {"customer_id": customer, "recipient_address": "Hafen Logistik GmbH\nHafenstraße 5\n20457 Hamburg",
                        "title": "Wartung {month} {year}", "tax": 19, "currency": "EUR",
                        "items": [{"type": "item", "title": "Wartung", "quantity": 1, "unit": "Monat", "unit_price": 50}]},
                       "interval": "monthly", "next_date": "2027-01-01", "mode": "draft"}),).await;
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

/// The four pages of the records at `base`: the list, the new form, the record `id` and
/// its edit form, named `names` in that order.
fn record_pages(base: &str, id: i64, names: [&'static str; 4]) -> Vec<(String, &'static str)> {
    let [list, new, detail, edit] = names;
    vec![
        (base.to_string(), list),
        (format!("{base}/new"), new),
        (format!("{base}/{id}"), detail),
        (format!("{base}/{id}/edit"), edit),
    ]
}

/// Every page of the app behind the sign-in, as `(path, short name)`, showing the records
/// of `r` (every route of `src/app.rs`).
pub fn every_page(r: &OneOfEach) -> Vec<(String, &'static str)> {
    let (invoice, draft) = (r.invoice, r.draft);
    let mut pages: Vec<(String, &'static str)> = vec![
        ("/dashboard".into(), "dashboard"),
        ("/invoices".into(), "invoices"),
        ("/invoices/new".into(), "invoice-new"),
        (format!("/invoices/{invoice}"), "invoice-detail"),
        (format!("/invoices/{invoice}/document"), "invoice-document"),
        (format!("/invoices/{invoice}/payments"), "invoice-payments"),
        (format!("/invoices/{invoice}/history"), "invoice-history"),
        (format!("/invoices/{draft}/edit"), "invoice-edit"),
        ("/dunning".into(), "dunning"),
    ];
    for (base, id, names) in [
        (
            "/recurring_invoices",
            r.recurring,
            [
                "recurring",
                "recurring-new",
                "recurring-detail",
                "recurring-edit",
            ],
        ),
        (
            "/offers",
            r.offer,
            ["offers", "offer-new", "offer-detail", "offer-edit"],
        ),
        (
            "/purchases",
            r.purchase,
            [
                "purchases",
                "purchase-new",
                "purchase-detail",
                "purchase-edit",
            ],
        ),
        (
            "/customers",
            r.customer,
            [
                "customers",
                "customer-new",
                "customer-detail",
                "customer-edit",
            ],
        ),
        (
            "/suppliers",
            r.supplier,
            [
                "suppliers",
                "supplier-new",
                "supplier-detail",
                "supplier-edit",
            ],
        ),
    ] {
        pages.extend(record_pages(base, id, names));
    }
    pages.extend([
        ("/bank".into(), "bank"),
        ("/mail".into(), "mail"),
        ("/articles".into(), "articles"),
        ("/exports".into(), "exports"),
        ("/settings".into(), "settings"),
        ("/settings/users".into(), "users"),
        ("/settings/api_keys".into(), "api-keys"),
    ]);
    pages
}
