//! `kontor-server demo`: realistic demo data — users, customers with addresses and
//! e-mails, suppliers, projects, and 72 invoices over the last 12 months in every status
//! with varied positions. Runs only on a database without invoices.

mod offers;
mod purchases;

use crate::auth::Caller;
use crate::db::{now, ts};
use crate::invoices::create_invoice;
use crate::state::AppState;
use chrono::{Datelike, Duration, NaiveDate};
use kontor_model::invoice_input::{NewInvoice, NewInvoiceItem};
use kontor_model::party::{CompanyType, CustomerVat, NewCompany, NewProject};
use kontor_model::position::PositionType;
use kontor_model::status::InvoiceStatus;
use rust_decimal::Decimal;

const CUSTOMERS: &[(&str, &str, &str, i64)] = &[
    (
        "Müller & Söhne GmbH",
        "Lindenstraße 12\n80331 München",
        "buchhaltung@mueller-soehne.de",
        14,
    ),
    (
        "Alpenblick Hotel AG",
        "Seestrasse 4\n6006 Luzern\nSwitzerland",
        "office@alpenblick.ch",
        30,
    ),
    (
        "Nordlicht Design KG",
        "Speicherstadt 7\n20457 Hamburg",
        "rechnung@nordlicht-design.de",
        14,
    ),
    (
        "Bäckerei Sonnenschein",
        "Marktplatz 3\n50667 Köln",
        "info@baeckerei-sonnenschein.de",
        7,
    ),
    (
        "Greenfield Analytics Ltd",
        "221 Baker Street\nLondon NW1 6XE\nUnited Kingdom",
        "accounts@greenfield-analytics.co.uk",
        30,
    ),
    (
        "Stadtwerke Ahrensburg",
        "Am Alten Markt 1\n22926 Ahrensburg",
        "kreditoren@stadtwerke-ahrensburg.de",
        30,
    ),
    (
        "Café Kranzler Betriebs GmbH",
        "Kurfürstendamm 18\n10719 Berlin",
        "verwaltung@kranzler-cafe.de",
        14,
    ),
    (
        "Van der Berg B.V.",
        "Keizersgracht 101\n1015 CJ Amsterdam\nNetherlands",
        "finance@vanderberg.nl",
        30,
    ),
];

const POSITIONS: &[(&str, &str, &str)] = &[
    ("Concept workshop", "h", "120"),
    ("UX design", "h", "95"),
    ("Frontend development", "h", "105"),
    ("Backend development", "h", "110"),
    ("Project management", "h", "90"),
    ("Hosting (monthly)", "month", "49.90"),
    ("Photo shoot", "day", "850"),
    ("Copywriting", "page", "65"),
    ("Domain renewal", "pcs", "14.99"),
    ("Support package", "month", "290"),
];

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
    let existing: i64 = sqlx::query_scalar("SELECT COUNT(*) FROM invoices")
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
    for (first, last, mail) in [
        ("Anna", "Schmidt", "anna@kontor.example"),
        ("Jonas", "Weber", "jonas@kontor.example"),
        ("Lea", "Fischer", "lea@kontor.example"),
    ] {
        let id: i64 = sqlx::query_scalar("INSERT INTO users (firstname, lastname, email, created_at, updated_at) VALUES (?, ?, ?, ?, ?) RETURNING id")
            .bind(first)
            .bind(last)
            .bind(mail)
            .bind(&t)
            .bind(&t)
            .fetch_one(pool)
            .await
            .map_err(e)?;
        user_ids.push(id);
    }
    let mut customers = Vec::new();
    for (n, (name, address, email, term)) in CUSTOMERS.iter().enumerate() {
        let foreign = address.contains("United Kingdom") || address.contains("Netherlands");
        let body = NewCompany {
            kind: Some(CompanyType::Customer),
            name: Some(name.to_string()),
            address: Some(address.to_string()),
            email: Some(email.to_string()),
            currency: Some(
                if address.contains("Switzerland") {
                    "CHF"
                } else {
                    "EUR"
                }
                .to_string(),
            ),
            payment_term_days: Some(*term),
            tags: Some(if n % 3 == 0 {
                vec!["key account".to_string()]
            } else {
                vec![]
            }),
            customer_vat: Some(CustomerVat {
                tax: Some(Decimal::new(19, 0)),
                reverse_charge: foreign,
                intra_eu: address.contains("Netherlands"),
            }),
            ..Default::default()
        };
        customers.push((
            crate::companies::insert(pool, &body)
                .await
                .map_err(|e| format!("{e:?}"))?,
            body,
        ));
    }
    let mut suppliers = Vec::new();
    for (name, address) in [
        ("Papier & Co. KG", "Industriestraße 9\n70565 Stuttgart"),
        ("CloudHost GmbH", "Rechenzentrum 1\n60311 Frankfurt"),
    ] {
        let body = NewCompany {
            kind: Some(CompanyType::Supplier),
            name: Some(name.into()),
            address: Some(address.into()),
            iban: Some("DE89370400440532013000".into()),
            ..Default::default()
        };
        suppliers.push(
            crate::companies::insert(pool, &body)
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
            crate::projects::insert(pool, &body)
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
            let term = customer.payment_term_days.unwrap_or(14);
            let currency = customer.currency.clone().unwrap_or_else(|| "EUR".into());
            let mut items = Vec::new();
            if rng.next(3) == 0 {
                items.push(NewInvoiceItem {
                    kind: Some(PositionType::Title),
                    title: Some("Services".into()),
                    ..Default::default()
                });
            }
            for _ in 0..(1 + rng.next(5)) {
                let (title, unit, price) = POSITIONS[rng.next(POSITIONS.len() as u64) as usize];
                items.push(NewInvoiceItem {
                    kind: Some(PositionType::Item),
                    title: Some(title.into()),
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
                    title: Some("Travel expenses (flat)".into()),
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
                title: Some(format!("{} {}", ["Services", "Development", "Design work", "Support"][rng.next(4) as usize], date.format("%B %Y"))),
                tax: Some(Decimal::new(19, 0)),
                currency: Some(currency),
                items: Some(items),
                service_period_from: Some(first),
                service_period_to: Some(last_of_month(first)),
                status: Some(if status == InvoiceStatus::Draft { InvoiceStatus::Draft } else { InvoiceStatus::Created }),
                salutation: Some("<p>Dear Sir or Madam,</p><p>thank you for your order. We invoice the following services:</p>".into()),
                footer: Some("<p>Please pay within the payment term. <b>Thank you!</b></p>".into()),
                cash_discount: Some(Decimal::new(2, 0)),
                cash_discount_days: Some(7),
                internal_contact_id: Some(user_ids[rng.next(3) as usize]),
                tags: Some(if rng.next(3) == 0 { vec!["retainer".into()] } else { vec![] }),
                ..Default::default()
            };
            let caller = Caller {
                key_id: 0,
                user_id: user_ids[0],
                uuid: String::new(),
                name: "demo".into(),
                read_only: false,
            };
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
        sqlx::query("INSERT INTO activities (date, hours, description, project_id, user_id, hourly_rate, created_at, updated_at) VALUES (?, ?, ?, ?, ?, '95', ?, ?)")
            .bind(crate::db::date_text(date.min(today)))
            .bind(hours)
            .bind(what)
            .bind(project)
            .bind(user_ids[1])
            .bind(&t)
            .bind(&t)
            .execute(pool)
            .await
            .map_err(e)?;
    }
    for (title, qty, price) in [
        ("Stock photos", "5", "19.00"),
        ("Web font licence", "1", "120.00"),
    ] {
        sqlx::query("INSERT INTO expenses (project_id, date, title, quantity, unit, unit_price, unit_cost, currency, created_at, updated_at) VALUES (?, ?, ?, ?, 'pcs', ?, ?, 'EUR', ?, ?)")
            .bind(project)
            .bind(crate::db::date_text(today))
            .bind(title)
            .bind(qty)
            .bind(price)
            .bind(price)
            .bind(&t)
            .bind(&t)
            .execute(pool)
            .await
            .map_err(e)?;
    }
    let caller = Caller {
        key_id: 0,
        user_id: user_ids[0],
        uuid: String::new(),
        name: "demo".into(),
        read_only: false,
    };
    let named: Vec<(i64, String)> = customers
        .iter()
        .map(|(id, body)| (*id, body.name.clone().unwrap_or_default()))
        .collect();
    let offers = offers::fill(&state, &caller, &named, today).await?;
    let purchases = purchases::fill(&state, &caller, &suppliers, today).await?;
    Ok(format!(
        "Demo data added: 3 users, {} customers, 2 suppliers, {} projects, {count} invoices, 6 unbilled activities, {offers} offers, {purchases} purchases.",
        customers.len(),
        projects.len()
    ))
}

/// Puts a freshly created invoice into `status`, with payments where the status needs them.
async fn settle(
    pool: &sqlx::SqlitePool,
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
        sqlx::query("INSERT INTO invoice_payments (invoice_id, date, paid_total, currency, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?)")
            .bind(invoice.id)
            .bind(crate::db::date_text(invoice.date + Duration::days(10)))
            .bind(amount.to_string())
            .bind(&invoice.currency)
            .bind(&t)
            .bind(&t)
            .execute(pool)
            .await?;
    }
    let locked = !matches!(status, InvoiceStatus::Draft | InvoiceStatus::Created);
    sqlx::query("UPDATE invoices SET status = ?, status_before_payments = ?, locked = ?, ever_sent = ? WHERE id = ?")
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
