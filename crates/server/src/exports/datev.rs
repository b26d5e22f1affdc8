//! GET /exports/datev.csv (`from`, `to`): the DATEV EXTF Buchungsstapel (format version
//! 700) of the period's finalized invoices and approved purchases, in Windows-1252
//! ([`kontor_model::datev`], [`kontor_model::export::invoice_bookings`],
//! [`kontor_model::export::purchase_bookings`]).

use super::load::{self, Companies};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::QueryPairs;
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use kontor_model::datev::{buchungsstapel, check_export, to_windows_1252};
use kontor_model::export::{file_name, invoice_bookings, purchase_bookings, purchase_is_bookable};

/// DATEV Buchungsstapel of a period.
///
/// GET /exports/datev.csv → 200 `text/csv; charset=windows-1252`, attachment
/// `EXTF_Buchungsstapel_<from>_<to>.csv`: header line, column line, one booking per document, tax rate
/// (and, for purchases, expense account). Pending purchases are left out: only approved
/// ones are booked ([`purchase_is_bookable`]).
/// Errors: 422 naming `from`/`to` (missing, invalid, from after to, the period leaves the
/// fiscal year of `from`) or `datev.consultant_number`/`datev.client_number` (not set in
/// the account's settings).
#[utoipa::path(
    get,
    path = "/exports/datev.csv",
    operation_id = "exports_datev",
    tag = "exports",
    params(
        super::Period,
    ),
    responses(
        (status = 200, description = "The DATEV EXTF Buchungsstapel (format version 700) of the period's finalized invoices and approved purchases, `text/csv; charset=windows-1252`; attachment `EXTF_Buchungsstapel_<from>_<to>.csv`.", content_type = "text/csv",
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"EXTF_Buchungsstapel_<from>_<to>.csv\"`"))),
    )
)]
pub async fn datev_csv(State(state): State<AppState>, query: QueryPairs) -> ApiResult<Response> {
    let period = load::period(&query)?;
    let settings = crate::account::repo::load(&state.pool).await?;
    let datev = settings.account.datev;
    ApiError::check(check_export(&datev, period.from, period.to))?;
    let companies = Companies::load(&state.pool).await?;
    let too_large = || ApiError::Internal("an export amount does not fit".into());
    let mut bookings = Vec::new();
    for invoice in load::invoices(&state.pool, &period).await? {
        let customer = companies.customer(&invoice);
        bookings.extend(invoice_bookings(&invoice, &customer, &datev).ok_or_else(too_large)?);
    }
    // Only approved purchases are booked (issue 29): a pending one was not checked yet.
    let purchases = load::purchases(&state, &period).await?;
    for purchase in purchases.iter().filter(|p| purchase_is_bookable(p)) {
        let supplier = companies.supplier(purchase);
        bookings.extend(purchase_bookings(purchase, &supplier).ok_or_else(too_large)?);
    }
    let text = buchungsstapel(
        &datev,
        chrono::Local::now().naive_local(),
        period.from,
        period.to,
        &settings.account.default_currency,
        &bookings,
    );
    Ok(load::download(
        to_windows_1252(&text),
        "text/csv; charset=windows-1252",
        &file_name(kontor_model::export::DATEV_FILE_STEM, &period, "csv"),
    ))
}
