//! GET /dashboard (issue 11 § Find and see; contract § Dashboard): open and overdue
//! receivables with the oldest open invoices, revenue per month for twelve months,
//! purchases awaiting approval and offers awaiting an answer; since issue 33 the to-do
//! list (`todo`), each count taken over the same conditions as the list it links to.
//!
//! Every figure is computed over the same conditions as the list it links to: the open
//! invoices are GET /invoices?open=true (their amounts and the overdue split by the
//! model's rules, `kontor_model::dashboard`), the purchases GET /purchases?status=pending
//! and the offers GET /offers?status=sent, both through the lists' summaries.

use crate::http::error::{ApiError, ApiResult};
use crate::state::AppState;
use axum::extract::State;
use axum::Json;
use chrono::NaiveDate;
use kontor_model::dashboard::{
    last_twelve_months, offer_expiry_window, old_draft_cutoff, receivables, revenue_by_month,
    revenue_window_start, todo_list, Dashboard, PendingPurchases, Receivable, Revenue, SentOffers,
    TodoKind,
};
use kontor_model::offer::OfferStatus;
use kontor_model::party::IdName;
use kontor_model::purchase::PurchaseStatus;
use kontor_model::query::{GlobalFilter, InvoiceFilter, OfferFilter, PurchaseFilter};
use kontor_model::status::InvoiceStatus;
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// Route of the dashboard.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new().routes(routes!(dashboard))
}

/// GET /dashboard (any key) → 200 with the [`Dashboard`] for the server's date. Errors:
/// 500 when a stored amount is corrupt or a sum overflows.
#[utoipa::path(get, path = "/dashboard", operation_id = "dashboard_get", tag = "dashboard",
    responses((status = 200, description = "The dashboard for the server's date", body = Dashboard)))]
pub async fn dashboard(State(state): State<AppState>) -> ApiResult<Json<Dashboard>> {
    let pool = &state.pool;
    let today = crate::lists::summary::today();
    let overflow = |what: &str| ApiError::Internal(format!("dashboard {what} overflow"));

    let open = InvoiceFilter {
        open: Some(true),
        ..Default::default()
    };
    let invoices =
        crate::invoices::list::select(pool, &open, "i.due_date ASC, i.id ASC", i64::MAX).await?;
    let receivables = receivables(
        today,
        invoices
            .into_iter()
            .map(|i| Receivable {
                customer: i.customer.unwrap_or(IdName {
                    id: i.customer_id,
                    name: String::new(),
                }),
                id: i.id,
                identifier: i.identifier,
                due_date: i.due_date,
                currency: i.currency,
                open_amount: i.open_amount,
            })
            .collect(),
    )
    .ok_or_else(|| overflow("receivables"))?;

    let currency = crate::account::default_currency(pool).await?;
    let window_end = last_twelve_months(today)
        .last()
        .and_then(|m| m.last_day())
        .unwrap_or(today);
    // Finalized invoices (every status but draft; reversals with their negative net).
    let rows: Vec<(NaiveDate, crate::store::db::Dec)> = crate::sql::query_as(&format!(
        "SELECT i.date, i.net_total FROM invoices i WHERE i.deleted_at IS NULL \
         AND {} AND i.currency = $1 AND i.date >= $2 AND i.date <= $3",
        crate::sql::rules::issued()
    ))
    .bind(&currency)
    .bind(revenue_window_start(today))
    .bind(window_end)
    .fetch_all(pool)
    .await?;
    let months = revenue_by_month(today, rows.into_iter().map(|(d, n)| (d, n.0)), &currency)
        .ok_or_else(|| overflow("revenue"))?;

    let pending = PurchaseFilter {
        status: vec![PurchaseStatus::Pending],
        ..Default::default()
    };
    let purchases: Vec<PendingPurchases> =
        crate::purchases::list::summary_of(pool, &pending, &GlobalFilter::default())
            .await?
            .totals
            .into_iter()
            .map(|t| PendingPurchases {
                currency: t.currency,
                count: t.count,
                gross_total: t.gross_total,
            })
            .collect();
    let sent = OfferFilter {
        status: vec![OfferStatus::Sent],
        ..Default::default()
    };
    let offers = crate::offers::list::summary_of(pool, &sent, &GlobalFilter::default())
        .await?
        .totals
        .into_iter()
        .map(|t| SentOffers {
            currency: t.currency,
            count: t.count,
            net_total: t.net_total,
        })
        .collect();

    let todo = todo(pool, today, &purchases).await?;
    Ok(Json(Dashboard {
        today,
        receivables,
        revenue: Revenue { currency, months },
        purchases_awaiting_approval: purchases,
        offers_awaiting_answer: offers,
        todo,
    }))
}

/// The to-do list of `today` (issue 33): each count over the conditions of the list its
/// `href` opens (the model's `todo_href`). `pending` are the purchases awaiting approval
/// already summed per currency. Errors: the database's.
async fn todo(
    pool: &crate::sql::Db,
    today: NaiveDate,
    pending: &[PendingPurchases],
) -> ApiResult<Vec<kontor_model::dashboard::TodoItem>> {
    let global = GlobalFilter::default();
    let to_remind = crate::reminders::overdue::count_due(pool, today).await?;
    let drafts = InvoiceFilter {
        status: vec![InvoiceStatus::Draft],
        to: Some(old_draft_cutoff(today)),
        ..Default::default()
    };
    let old_drafts: i64 = crate::invoices::list::summary_of(pool, &drafts, &global)
        .await?
        .totals
        .iter()
        .map(|t| t.count)
        .sum();
    let (from, to) = offer_expiry_window(today);
    let expiring = OfferFilter {
        status: vec![OfferStatus::Sent],
        due_date_from: Some(from),
        due_date_to: Some(to),
        ..Default::default()
    };
    let offers_expiring: i64 = crate::offers::list::summary_of(pool, &expiring, &global)
        .await?
        .totals
        .iter()
        .map(|t| t.count)
        .sum();
    let to_approve: i64 = pending.iter().map(|p| p.count).sum();
    // A schedule whose latest run could not create or send its invoice.
    let recurring_failed: i64 = crate::sql::query_scalar(
        "SELECT COUNT(*) FROM recurring_invoices s WHERE (SELECT r.error FROM recurring_invoice_runs r \
         WHERE r.recurring_invoice_id = s.id ORDER BY r.id DESC LIMIT 1) IS NOT NULL",
    )
    .fetch_one(pool)
    .await?;
    let bank: i64 =
        crate::sql::query_scalar("SELECT COUNT(*) FROM bank_transactions WHERE state IN ($1, $2)")
            .bind(kontor_model::bank::TransactionState::Suggested.as_str())
            .bind(kontor_model::bank::TransactionState::Unmatched.as_str())
            .fetch_one(pool)
            .await?;
    let emails_failed = crate::sent_mail::count_failed(pool).await?;
    let smtp_missing = i64::from(crate::account::repo::load(pool).await?.smtp.is_none());
    Ok(todo_list(today, |kind| match kind {
        TodoKind::InvoicesToRemind => to_remind,
        TodoKind::OldDrafts => old_drafts,
        TodoKind::OffersExpiring => offers_expiring,
        TodoKind::PurchasesToApprove => to_approve,
        TodoKind::RecurringFailed => recurring_failed,
        TodoKind::BankTransactionsToReview => bank,
        TodoKind::EmailsFailed => emails_failed,
        TodoKind::SmtpNotSetUp => smtp_missing,
    }))
}
