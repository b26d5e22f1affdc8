//! `kontor-server demo`: realistic demo data — the account's own data and logo (a German
//! GmbH with VAT ID, tax number, register entry and bank), users, customers in DE, AT, CH,
//! NL and GB with VAT IDs, languages and a billing contact each, suppliers, projects, and
//! 72 invoices over the last 12 months in every status with varied positions (worded in
//! each customer's language). Runs only on a database without invoices.

mod offers;
mod purchases;

use crate::access::auth::Caller;
use crate::invoices::create_invoice;
use crate::state::AppState;
use crate::store::db::{now, ts};
use chrono::{Datelike, Duration, NaiveDate};
use kontor_model::account::{apply_account_update, validate_account_update, AccountUpdate};
use kontor_model::invoice_input::{NewInvoice, NewInvoiceItem};
use kontor_model::party::{CompanyType, CustomerVat, Gender, Language, NewCompany, NewProject};
use kontor_model::position::PositionType;
use kontor_model::status::InvoiceStatus;
use rust_decimal::Decimal;

mod data;
use data::*;

/// A small deterministic generator so the demo is the same every time.
struct Lcg(u64);

impl Lcg {
    fn next(&mut self, n: u64) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        (self.0 >> 33) % n
    }
}

/// Fills the demo data; returns a one-line report. Errors: the database already holds
/// invoices, or a write fails.
pub async fn fill(state: AppState) -> Result<String, String> {
    let pool = &state.pool;
    let e = |e: sqlx::Error| e.to_string();
    let existing: i64 = crate::sql::query_scalar("SELECT COUNT(*) FROM invoices")
        .fetch_one(pool)
        .await
        .map_err(e)?;
    if existing > 0 {
        return Ok(format!(
            "The database already holds {existing} invoices; demo data not added."
        ));
    }
    let t = ts(now());
    let mut user_ids = Vec::new();
    // Anna is the demo admin `scripts/run.sh` signs in as (issue 12).
    for (first, last, mail, role) in [
        ("Anna", "Schmidt", "anna@kontor.example", "admin"),
        ("Jonas", "Weber", "jonas@kontor.example", "staff"),
        ("Lea", "Fischer", "lea@kontor.example", "read_only"),
    ] {
        let id: i64 = crate::sql::query_scalar("INSERT INTO users (firstname, lastname, email, role, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
            .bind(first)
            .bind(last)
            .bind(mail)
            .bind(role)
            .bind(t)
            .bind(t)
            .fetch_one(pool)
            .await
            .map_err(e)?;
        user_ids.push(id);
    }
    // The demo's records are Anna's work: the change history names her, never the system
    // (issue 34). Writes in a transaction take the actor from `ACTOR`; the single
    // statements below read the actor row, set here once.
    let actor = crate::proof::audit::Actor {
        user_id: Some(user_ids[0]),
        key_id: None,
    };
    crate::sql::query("UPDATE audit_actor SET user_id = $1, key_id = NULL WHERE id = 1")
        .bind(user_ids[0])
        .execute(pool)
        .await
        .map_err(e)?;
    let filled = crate::proof::audit::ACTOR
        .scope(actor, fill_records(state.clone(), user_ids, t))
        .await;
    crate::sql::query("UPDATE audit_actor SET user_id = NULL, key_id = NULL WHERE id = 1")
        .execute(pool)
        .await
        .map_err(e)?;
    filled
}

/// The demo's records after its users (`user_ids`: Anna, Jonas, Lea), made at `t`.
async fn fill_records(
    state: AppState,
    user_ids: Vec<i64>,
    t: crate::store::db::Ts,
) -> Result<String, String> {
    let pool = &state.pool;
    let e = |e: sqlx::Error| e.to_string();
    fill_account(&state).await?;
    let mut customers = Vec::new();
    for (n, c) in CUSTOMERS.iter().enumerate() {
        let body = customer_body(n, c);
        let id = crate::master_data::companies::insert(pool, &body)
            .await
            .map_err(|e| format!("{e:?}"))?;
        let (gender, first, last, job, mail) = c.contact;
        crate::sql::query("INSERT INTO people (firstname, lastname, email, company_id, gender, job_position, phone, billing_contact, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6, $7, TRUE, $8, $9)")
            .bind(first)
            .bind(last)
            .bind(mail)
            .bind(id)
            .bind(gender.as_str())
            .bind(job)
            .bind(c.phone)
            .bind(t)
            .bind(t)
            .execute(pool)
            .await
            .map_err(e)?;
        customers.push((id, body));
    }
    let mut suppliers = Vec::new();
    for supplier in SUPPLIERS {
        suppliers.push(
            crate::master_data::companies::insert(pool, &supplier_body(supplier))
                .await
                .map_err(|e| format!("{e:?}"))?,
        );
    }
    let mut projects = Vec::new();
    for (name, customer) in [
        ("Website relaunch", 0),
        ("Booking system", 1),
        ("Brand refresh", 2),
        ("Data platform", 4),
    ] {
        let body = NewProject {
            name: Some(name.into()),
            customer_id: Some(customers[customer].0),
            billing_email_to: None,
            ..Default::default()
        };
        projects.push((
            crate::master_data::projects::insert(pool, &body)
                .await
                .map_err(|e| format!("{e:?}"))?,
            customers[customer].0,
        ));
    }

    let mut rng = Lcg(7);
    let today = now().date_naive();
    let statuses = [
        InvoiceStatus::Paid,
        InvoiceStatus::Paid,
        InvoiceStatus::Sent,
        InvoiceStatus::PartiallyPaid,
        InvoiceStatus::Created,
        InvoiceStatus::Overdue,
        InvoiceStatus::Ignored,
    ];
    let mut count = 0;
    for month_back in (0..12).rev() {
        for k in 0..6 {
            let first = first_of_month_back(today, month_back);
            let date = first + Duration::days((k * 4 + rng.next(3) as i64).min(27));
            let date = date.min(today);
            let (customer_id, customer) = &customers[rng.next(customers.len() as u64) as usize];
            let project_id = projects
                .iter()
                .find(|(_, c)| c == customer_id)
                .map(|(p, _)| *p)
                .filter(|_| rng.next(2) == 0);
            let term = customer.due_days().unwrap_or(14);
            let english = customer.language == Some(Language::En);
            let currency = customer.currency.clone().unwrap_or_else(|| "EUR".into());
            let mut items = Vec::new();
            if rng.next(3) == 0 {
                items.push(NewInvoiceItem {
                    kind: Some(PositionType::Title),
                    title: Some(if english { "Services" } else { "Leistungen" }.into()),
                    ..Default::default()
                });
            }
            for _ in 0..(1 + rng.next(5)) {
                let (de, en, unit, price) = POSITIONS[rng.next(POSITIONS.len() as u64) as usize];
                items.push(NewInvoiceItem {
                    kind: Some(PositionType::Item),
                    title: Some(if english { en } else { de }.into()),
                    quantity: Some(
                        Decimal::new(1 + rng.next(24) as i64, 0)
                            / Decimal::new(if unit == "h" { 2 } else { 4 }, 0),
                    ),
                    unit: Some(unit.into()),
                    unit_price: price.parse().ok(),
                    ..Default::default()
                });
            }
            if rng.next(4) == 0 {
                items.push(NewInvoiceItem {
                    kind: Some(PositionType::Item),
                    title: Some(
                        if english {
                            "Travel expenses (flat)"
                        } else {
                            "Reisekostenpauschale"
                        }
                        .into(),
                    ),
                    net_total: Some(Decimal::new(18000, 2)),
                    ..Default::default()
                });
            }
            let recent = month_back == 0;
            let status = if recent && k >= 4 {
                InvoiceStatus::Draft
            } else {
                statuses[rng.next(statuses.len() as u64) as usize]
            };
            let body = NewInvoice {
                customer_id: Some(*customer_id),
                project_id,
                recipient_address: Some(format!("{}\n{}", customer.name.clone().unwrap_or_default(), customer.address.clone().unwrap_or_default())),
                date: Some(date),
                due_date: Some(date + Duration::days(term)),
                title: Some(if english {
                    format!("{} {}", ["Services", "Development", "Design work", "Support"][rng.next(4) as usize], date.format("%B %Y"))
                } else {
                    format!("{} {}", ["Leistungen", "Entwicklung", "Designarbeiten", "Support"][rng.next(4) as usize], date.format("%m/%Y"))
                }),
                tax: Some(Decimal::new(19, 0)),
                currency: Some(currency),
                items: Some(items),
                service_period_from: Some(first),
                service_period_to: Some(last_of_month(first)),
                status: Some(if status == InvoiceStatus::Draft { InvoiceStatus::Draft } else { InvoiceStatus::Created }),
                salutation: Some(if english {
                    "<p>Dear Sir or Madam,</p><p>thank you for your order. We invoice the following services:</p>"
                } else {
                    "<p>Sehr geehrte Damen und Herren,</p><p>vielen Dank für Ihren Auftrag. Wir berechnen Ihnen folgende Leistungen:</p>"
                }.into()),
                footer: Some(if english {
                    "<p>Please pay within the payment term. <b>Thank you!</b></p>"
                } else {
                    "<p>Bitte zahlen Sie innerhalb der Zahlungsfrist. <b>Vielen Dank!</b></p>"
                }.into()),
                cash_discount: Some(Decimal::new(2, 0)),
                cash_discount_days: Some(7),
                internal_contact_id: Some(user_ids[rng.next(3) as usize]),
                tags: Some(if rng.next(3) == 0 { vec!["retainer".into()] } else { vec![] }),
                ..Default::default()
            };
            let caller = Caller::internal(user_ids[0], "demo");
            let invoice = create_invoice(&state, &caller, body)
                .await
                .map_err(|e| format!("demo invoice refused: {e:?}"))?;
            settle(pool, &invoice, status).await.map_err(e)?;
            count += 1;
        }
    }
    // Unbilled time and expenses on the first project, ready to be billed from the form.
    let (project, _) = projects[0];
    for (day, hours, what) in [
        (3, "2.5", "Kick-off workshop"),
        (4, "6", "Wireframes"),
        (5, "4.5", "Design review"),
        (6, "7", "Frontend templates"),
        (9, "3", "Content migration"),
        (10, "1.5", "Launch checklist"),
    ] {
        let date = first_of_month_back(today, 0) + Duration::days(day - 1);
        crate::sql::query("INSERT INTO activities (date, hours, description, project_id, user_id, hourly_rate, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, '95', $6, $7)")
            .bind(date.min(today))
            .bind(demo_decimal(hours)?)
            .bind(what)
            .bind(project)
            .bind(user_ids[1])
            .bind(t)
            .bind(t)
            .execute(pool)
            .await
            .map_err(e)?;
    }
    for (title, qty, price) in [
        ("Stock photos", "5", "19.00"),
        ("Web font licence", "1", "120.00"),
    ] {
        crate::sql::query("INSERT INTO expenses (project_id, date, title, quantity, unit, unit_price, unit_cost, currency, created_at, updated_at) VALUES ($1, $2, $3, $4, 'pcs', $5, $6, 'EUR', $7, $8)")
            .bind(project)
            .bind(today)
            .bind(title)
            .bind(demo_decimal(qty)?)
            .bind(demo_decimal(price)?)
            .bind(demo_decimal(price)?)
            .bind(t)
            .bind(t)
            .execute(pool)
            .await
            .map_err(e)?;
    }
    let caller = Caller::internal(user_ids[0], "demo");
    let named: Vec<(i64, String)> = customers
        .iter()
        .map(|(id, body)| (*id, body.name.clone().unwrap_or_default()))
        .collect();
    let offers = offers::fill(&state, &caller, &named, today).await?;
    let purchases = purchases::fill(&state, &caller, &suppliers, today).await?;
    Ok(format!(
        "Demo data added: the account's data and logo, 3 users, {} customers with billing contacts, {} suppliers, {} projects, {count} invoices, 6 unbilled activities, {offers} offers, {purchases} purchases.",
        customers.len(),
        suppliers.len(),
        projects.len()
    ))
}

/// Puts a freshly created invoice into `status`, with payments where the status needs them.
async fn settle(
    pool: &crate::sql::Db,
    invoice: &kontor_model::invoice::Invoice,
    status: InvoiceStatus,
) -> Result<(), sqlx::Error> {
    let t = ts(now());
    let paid = match status {
        InvoiceStatus::Paid => Some(invoice.gross_total),
        InvoiceStatus::PartiallyPaid => Some((invoice.gross_total / Decimal::TWO).round_dp(2)),
        _ => None,
    };
    if let Some(amount) = paid {
        crate::sql::query("INSERT INTO invoice_payments (invoice_id, date, paid_total, currency, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6)")
            .bind(invoice.id)
            .bind(invoice.date + Duration::days(10))
            .bind(amount)
            .bind(&invoice.currency)
            .bind(t)
            .bind(t)
            .execute(pool)
            .await?;
    }
    let locked = !matches!(status, InvoiceStatus::Draft | InvoiceStatus::Created);
    crate::sql::query("UPDATE invoices SET status = $1, status_before_payments = $2, locked = $3, ever_sent = $4 WHERE id = $5")
        .bind(status.as_str())
        .bind(paid.map(|_| "sent"))
        .bind(locked)
        .bind(locked)
        .bind(invoice.id)
        .execute(pool)
        .await?;
    Ok(())
}

fn first_of_month_back(today: NaiveDate, months: i32) -> NaiveDate {
    let total = today.year() * 12 + today.month0() as i32 - months;
    NaiveDate::from_ymd_opt(total.div_euclid(12), total.rem_euclid(12) as u32 + 1, 1)
        .unwrap_or(today)
}

fn last_of_month(first: NaiveDate) -> NaiveDate {
    first_of_month_back(first, -1) - Duration::days(1)
}

/// A decimal written in the demo's source. Errors: not a decimal (a defect of the demo).
fn demo_decimal(text: &str) -> Result<Decimal, String> {
    Decimal::from_str_exact(text).map_err(|e| format!("demo decimal {text:?}: {e}"))
}

#[cfg(test)]
mod tests;
