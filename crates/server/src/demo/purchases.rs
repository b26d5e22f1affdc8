//! Demo purchases: categories and supplier receipts, pending and approved, paid and unpaid.

use crate::access::auth::Caller;
use crate::purchases::create_purchase;
use crate::state::AppState;
use chrono::{Duration, NaiveDate};
use kontor_model::purchase::{NewPurchase, NewPurchaseItem, PaymentMethod, PurchaseStatus};

/// Adds 4 categories and 12 purchases from the demo suppliers. Errors: a write fails.
pub async fn fill(
    state: &AppState,
    caller: &Caller,
    suppliers: &[i64],
    today: NaiveDate,
) -> Result<usize, String> {
    let pool = &state.pool;
    let t = crate::store::db::ts(crate::store::db::now());
    let mut categories = Vec::new();
    for (name, account) in [
        ("Office supplies", "4930"),
        ("Hosting", "4806"),
        ("Travel", "4670"),
        ("Software", "4964"),
    ] {
        let id: i64 = crate::sql::query_scalar("INSERT INTO purchase_categories (name, credit_account, created_at, updated_at) VALUES ($1, $2, $3, $4) RETURNING id")
            .bind(name)
            .bind(account)
            .bind(t)
            .bind(t)
            .fetch_one(pool)
            .await
            .map_err(|e| e.to_string())?;
        categories.push(id);
    }
    let receipts: [(&str, &str, &str, bool, usize); 6] = [
        ("Printer paper and toner", "89.90", "19", true, 0),
        ("Cloud server (monthly)", "49.00", "19", false, 1),
        ("Train Berlin–Hamburg", "79.90", "7", true, 2),
        ("Design software licence", "59.49", "19", true, 3),
        ("Hotel Hamburg", "118.00", "7", true, 2),
        ("Backup storage", "12.00", "19", false, 1),
    ];
    let mut count = 0;
    for month in 0..2 {
        for (n, (title, total, tax, included, category)) in receipts.iter().enumerate() {
            let date = today - Duration::days(30 * month + 4 * n as i64);
            let body = NewPurchase {
                date: Some(date),
                due_date: Some(date + Duration::days(14)),
                currency: Some("EUR".into()),
                payment_method: Some(
                    [
                        PaymentMethod::BankTransfer,
                        PaymentMethod::DirectDebit,
                        PaymentMethod::CreditCard,
                    ][n % 3],
                ),
                company_id: (n % 3 != 2).then(|| suppliers[n % suppliers.len()]),
                category_id: Some(categories[*category]),
                receipt_identifier: Some(format!("RE-{}-{:03}", date.format("%Y%m"), n + 1)),
                status: Some(if month == 1 {
                    PurchaseStatus::Approved
                } else {
                    PurchaseStatus::Pending
                }),
                items: Some(vec![NewPurchaseItem {
                    title: Some(title.to_string()),
                    total: total.parse().ok(),
                    tax: tax.parse().ok(),
                    tax_included: Some(*included),
                    category_id: None,
                }]),
                ..Default::default()
            };
            let id = create_purchase(state, caller, body)
                .await
                .map_err(|e| format!("demo purchase refused: {e:?}"))?;
            if month == 1 {
                let gross: crate::store::db::Dec =
                    crate::sql::query_scalar("SELECT gross_total FROM purchases WHERE id = $1")
                        .bind(id)
                        .fetch_one(pool)
                        .await
                        .map_err(|e| e.to_string())?;
                crate::sql::query("INSERT INTO purchase_payments (purchase_id, date, total, created_at, updated_at) VALUES ($1, $2, $3, $4, $5)")
                    .bind(id)
                    .bind(date + Duration::days(7))
                    .bind(gross)
                    .bind(t)
                    .bind(t)
                    .execute(pool)
                    .await
                    .map_err(|e| e.to_string())?;
            }
            count += 1;
        }
    }
    Ok(count)
}
