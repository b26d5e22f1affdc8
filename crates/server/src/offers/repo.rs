//! Reading offers: rows → [`Offer`] representations (list and detail forms).

use crate::http::error::{ApiError, ApiResult};
use crate::master_data::id_name;
use crate::state::AppState;
use crate::store::db::{json_list, json_map, now, ts, Dec, Ts, Word};
use chrono::NaiveDate;
use kontor_model::effects::offer_status_after_billing;
use kontor_model::offer::{InvoiceRef, Offer, OfferItem, OfferStatus, OfferVat};
use kontor_model::party::UserRef;
use kontor_model::position::PositionType;
use kontor_model::position_vat::{TaxBreakdown, TaxCategory};
use kontor_model::vat::VatChoice;

/// Columns of an offer row with its references' names.
pub const COLUMNS: &str = "o.*, c.name AS company_name, p.name AS project_name, d.name AS deal_name,
    pe.firstname || ' ' || pe.lastname AS contact_name, u.firstname AS u_firstname, u.lastname AS u_lastname";
/// The joins of the offer columns (after the `offers o` table).
macro_rules! offer_joins {
    () => {
        " LEFT JOIN companies c ON c.id = o.company_id LEFT JOIN projects p ON p.id = o.project_id
    LEFT JOIN deals d ON d.id = o.deal_id LEFT JOIN people pe ON pe.id = o.contact_id LEFT JOIN users u ON u.id = o.user_id"
    };
}

/// The table and joins of the columns.
pub const FROM: &str = concat!("FROM offers o", offer_joins!());

/// The offer list's table for [`crate::lists::fetch_page`]; the unfiltered list
/// is counted by the `offers` counter.
pub const LIST_TABLE: crate::lists::ListTable = crate::lists::ListTable {
    table: "offers o",
    id: "o.id",
    joins: offer_joins!(),
    counter: ("offers", " WHERE TRUE"),
};

/// One `offers` row with its references.
#[derive(sqlx_macros::FromRow)]
pub struct OfferRow {
    id: i64,
    identifier: String,
    status: Word<OfferStatus>,
    company_id: Option<i64>,
    project_id: Option<i64>,
    deal_id: Option<i64>,
    contact_id: Option<i64>,
    user_id: Option<i64>,
    date: NaiveDate,
    due_date: NaiveDate,
    title: String,
    recipient_address: String,
    currency: String,
    net_total: Dec,
    gross_total: Dec,
    tax: Dec,
    reverse_charge: bool,
    intra_eu: bool,
    discount: Dec,
    salutation: String,
    footer: String,
    print_detail_columns: bool,
    custom_properties: String,
    tags: String,
    tax_breakdown: Option<String>,
    created_at: Ts,
    updated_at: Ts,
    company_name: Option<String>,
    project_name: Option<String>,
    deal_name: Option<String>,
    contact_name: Option<String>,
    u_firstname: Option<String>,
    u_lastname: Option<String>,
}

impl From<OfferRow> for Offer {
    fn from(r: OfferRow) -> Self {
        let tax = r.tax.0;
        let (net_total, gross_total) = (r.net_total.0, r.gross_total.0);
        let tax_breakdown = TaxBreakdown::from_stored(
            r.tax_breakdown.as_deref(),
            &VatChoice {
                tax,
                reverse_charge: r.reverse_charge,
                intra_eu: r.intra_eu,
            },
            net_total,
            gross_total,
        );
        Offer {
            tax_breakdown,
            id: r.id,
            identifier: r.identifier,
            status: r.status.0,
            date: r.date,
            due_date: r.due_date,
            title: r.title,
            recipient_address: r.recipient_address,
            currency: r.currency,
            net_total,
            gross_total,
            tax,
            vat: OfferVat {
                tax,
                reverse_charge: r.reverse_charge,
                intra_eu: r.intra_eu,
                active: !r.reverse_charge,
                print_gross_total: true,
                notice_tax_exemption: if r.reverse_charge {
                    "Steuerschuldnerschaft des Leistungsempfängers".into()
                } else {
                    String::new()
                },
                notice_tax_exemption_en: if r.reverse_charge {
                    "Reverse charge: the recipient is liable for the VAT".into()
                } else {
                    String::new()
                },
            },
            discount: r.discount.0,
            salutation: Some(r.salutation),
            footer: Some(r.footer),
            tags: json_list(&r.tags),
            custom_properties: json_map(&r.custom_properties),
            print_detail_columns: r.print_detail_columns,
            company: id_name(r.company_id, r.company_name),
            project: id_name(r.project_id, r.project_name),
            deal: id_name(r.deal_id, r.deal_name),
            contact: id_name(r.contact_id, r.contact_name),
            invoices: Vec::new(),
            user: match (r.user_id, r.u_firstname, r.u_lastname) {
                (Some(id), Some(firstname), Some(lastname)) => Some(UserRef {
                    id,
                    firstname,
                    lastname,
                }),
                _ => None,
            },
            offer_confirmation: None,
            customer_approval: None,
            items: None,
            file_url: None,
            created_at: r.created_at.0,
            updated_at: r.updated_at.0,
        }
    }
}

impl OfferRow {
    /// The list representation (no salutation, footer, items).
    pub fn into_list_offer(self) -> Offer {
        let mut offer = Offer::from(self);
        offer.salutation = None;
        offer.footer = None;
        offer
    }
}

#[derive(sqlx_macros::FromRow)]
struct ItemRow {
    id: i64,
    kind: Word<PositionType>,
    title: Option<String>,
    description: Option<String>,
    quantity: Option<Dec>,
    unit: Option<String>,
    unit_price: Option<Dec>,
    net_total: Dec,
    optional: bool,
    tax: Option<Dec>,
    tax_category: Option<Word<TaxCategory>>,
    tax_exemption_reason: Option<String>,
}

/// The live invoices created from offer `offer_id`, oldest first.
pub async fn invoices_of(pool: &crate::sql::Db, offer_id: i64) -> ApiResult<Vec<InvoiceRef>> {
    let rows: Vec<(i64, Option<String>, Word<kontor_model::down_payment::InvoiceKind>)> =
        crate::sql::query_as(
            "SELECT id, identifier, kind FROM invoices WHERE offer_id = $1 AND deleted_at IS NULL ORDER BY id",
        )
        .bind(offer_id)
        .fetch_all(pool)
        .await?;
    Ok(rows
        .into_iter()
        .map(|(id, identifier, Word(kind))| InvoiceRef {
            id,
            identifier,
            kind,
        })
        .collect())
}

/// Loads the full representation of offer `id` (with items). Errors: 404.
pub async fn load(pool: &crate::sql::Db, id: i64) -> ApiResult<Offer> {
    let row: OfferRow = crate::sql::query_as(&format!("SELECT {COLUMNS} {FROM} WHERE o.id = $1"))
        .bind(id)
        .fetch_optional(pool)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("offer {id}")))?;
    let mut offer = Offer::from(row);
    offer.invoices = invoices_of(pool, id).await?;
    offer.offer_confirmation = crate::confirmations::repo::of_offer(pool, id).await?;
    let items: Vec<ItemRow> = crate::sql::query_as("SELECT id, kind, title, description, quantity, unit, unit_price, net_total, optional, tax, tax_category, tax_exemption_reason FROM offer_items WHERE offer_id = $1 ORDER BY position")
        .bind(id)
        .fetch_all(pool)
        .await?;
    offer.items = Some(
        items
            .into_iter()
            .map(|r| OfferItem {
                id: r.id,
                kind: r.kind.0,
                title: r.title,
                description: r.description,
                quantity: r.quantity.map(|d| d.0),
                unit: r.unit,
                unit_price: r.unit_price.map(|d| d.0),
                net_total: r.net_total.0,
                optional: r.optional,
                tax: r.tax.map(|d| d.0),
                tax_category: r.tax_category.map(|c| c.0),
                tax_exemption_reason: r.tax_exemption_reason,
            })
            .collect(),
    );
    Ok(offer)
}

/// Sets `file_url` to a fresh signed link (15 minutes) to the offer's PDF.
pub fn sign(state: &AppState, base: &str, offer: &mut Offer) {
    offer.file_url = Some(
        state
            .signer
            .link(base, &format!("/files/offers/{}.pdf", offer.id)),
    );
}

/// Loads offer `id` with a fresh signed link and its `customer_approval` (`{id, active,
/// url}`, the link under `KONTOR_PUBLIC_URL` or `base`). Errors: 404.
pub async fn load_signed(state: &AppState, base: &str, id: i64) -> ApiResult<Offer> {
    let mut offer = load(&state.pool, id).await?;
    sign(state, base, &mut offer);
    let origin = state
        .links
        .for_email(None)
        .unwrap_or_else(|| base.to_string());
    crate::approvals::staff::fill_summaries(&state.pool, &origin, std::slice::from_mut(&mut offer))
        .await?;
    Ok(offer)
}

/// The company of offer `offer_id`, `Ok(None)` for an unknown offer (to check an invoice's
/// `offer_id`): `Some(None)` when the offer names no company.
pub async fn company_of(pool: &crate::sql::Db, offer_id: i64) -> ApiResult<Option<Option<i64>>> {
    Ok(
        crate::sql::query_scalar::<Option<i64>>("SELECT company_id FROM offers WHERE id = $1")
            .bind(offer_id)
            .fetch_optional(pool)
            .await?,
    )
}

/// Moves offer `offer_id` to the status its invoices decide (inside `tx`): billed when
/// their net totals reach the offer's, else partially billed (the model's
/// [`offer_status_after_billing`]).
pub async fn apply_billing(tx: &mut crate::sql::Tx, offer_id: i64) -> ApiResult<()> {
    let Dec(net) = crate::sql::query_scalar("SELECT net_total FROM offers WHERE id = $1")
        .bind(offer_id)
        .fetch_one(&mut *tx)
        .await?;
    let invoiced: Vec<Dec> = crate::sql::query_scalar(
        "SELECT net_total FROM invoices WHERE offer_id = $1 AND deleted_at IS NULL",
    )
    .bind(offer_id)
    .fetch_all(&mut *tx)
    .await?;
    let invoiced: Vec<_> = invoiced.into_iter().map(|n| n.0).collect();
    if let Some(status) = offer_status_after_billing(net, &invoiced) {
        crate::sql::query("UPDATE offers SET status = $1, updated_at = $2 WHERE id = $3")
            .bind(status.as_str())
            .bind(ts(now()))
            .bind(offer_id)
            .execute(&mut *tx)
            .await?;
    }
    Ok(())
}
