//! Demo offers: deals, contact people and offers in every status, some with optional
//! positions; worded in German (the first customers correspond in German).

use crate::access::auth::Caller;
use crate::offers::create_offer;
use crate::state::AppState;
use chrono::{Duration, NaiveDate};
use kontor_model::offer::{NewOffer, NewOfferItem, OfferStatus};
use kontor_model::position::PositionType;
use rust_decimal::Decimal;

fn item(title: &str, quantity: i64, unit: &str, price: &str, optional: bool) -> NewOfferItem {
    NewOfferItem {
        kind: Some(PositionType::Item),
        title: Some(title.into()),
        quantity: Some(Decimal::from(quantity)),
        unit: Some(unit.into()),
        unit_price: price.parse().ok(),
        optional: Some(optional),
        ..Default::default()
    }
}

/// Adds 2 deals, 3 contact people and 8 offers for the first customers. Errors: a write fails.
pub async fn fill(
    state: &AppState,
    caller: &Caller,
    customers: &[(i64, String)],
    today: NaiveDate,
) -> Result<usize, String> {
    let pool = &state.pool;
    let t = crate::store::db::ts(crate::store::db::now());
    let e = |e: sqlx::Error| e.to_string();
    let mut people = Vec::new();
    for ((company, _), (first, last, mail)) in customers.iter().zip([
        ("Eva", "Berger", "eva.berger@mueller-soehne.de"),
        ("Marco", "Keller", "m.keller@alpenblick.ch"),
        ("Nina", "Hansen", "nina@nordlicht-design.de"),
    ]) {
        let id: i64 = crate::sql::query_scalar("INSERT INTO people (firstname, lastname, email, company_id, created_at, updated_at) VALUES ($1, $2, $3, $4, $5, $6) RETURNING id")
            .bind(first)
            .bind(last)
            .bind(mail)
            .bind(company)
            .bind(t)
            .bind(t)
            .fetch_one(pool)
            .await
            .map_err(e)?;
        people.push((*company, id));
    }
    let deal: i64 = crate::sql::query_scalar("INSERT INTO deals (name, company_id, currency, status, created_at, updated_at) VALUES ('Shop 2027', $1, 'EUR', 'open', $2, $3) RETURNING id")
        .bind(customers[0].0)
        .bind(t)
        .bind(t)
        .fetch_one(pool)
        .await
        .map_err(e)?;
    let statuses = [
        OfferStatus::Created,
        OfferStatus::Sent,
        OfferStatus::Accepted,
        OfferStatus::Sent,
        OfferStatus::PartiallyBilled,
        OfferStatus::Billed,
        OfferStatus::Archived,
        OfferStatus::Created,
    ];
    for (n, status) in statuses.iter().enumerate() {
        let (company, contact) = people[n % people.len()];
        let name = &customers
            .iter()
            .find(|(id, _)| *id == company)
            .map(|(_, name)| name.clone())
            .unwrap_or_default();
        let date = today - Duration::days(9 * (statuses.len() - n) as i64);
        let body = NewOffer {
            company_id: Some(company),
            deal_id: (n == 0).then_some(deal),
            contact_id: Some(contact),
            recipient_address: Some(name.clone()),
            date: Some(date),
            due_date: Some(date + Duration::days(30)),
            title: Some(["Website-Relaunch", "Onlineshop", "Markenworkshop", "Hosting und Support"][n % 4].into()),
            tax: Some(Decimal::from(19)),
            items: Some(vec![
                NewOfferItem { kind: Some(PositionType::Title), title: Some("Konzept und Design".into()), ..Default::default() },
                item("Workshop", 8, "h", "120", false),
                item("Screendesign", 24, "h", "95", false),
                NewOfferItem { kind: Some(PositionType::Subtotal), ..Default::default() },
                item("Animationen", 10, "h", "95", true),
            ]),
            salutation: Some("<p>Sehr geehrte Damen und Herren,</p><p>vielen Dank für Ihre Anfrage. Gerne bieten wir Ihnen an:</p>".into()),
            ..Default::default()
        };
        let id = create_offer(state, caller, body)
            .await
            .map_err(|e| format!("demo offer refused: {e:?}"))?;
        crate::sql::query("UPDATE offers SET status = $1 WHERE id = $2")
            .bind(status.as_str())
            .bind(id)
            .execute(pool)
            .await
            .map_err(e)?;
    }
    Ok(statuses.len())
}
