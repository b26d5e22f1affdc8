//! GET /exports/invoices.csv and /exports/purchases.csv (`from`, `to`, `locale`): UTF-8
//! with BOM, `;`-separated, CRLF, a header row, one row per document and tax rate
//! ([`kontor_model::export`]); `locale=de` writes decimal commas, dates `DD.MM.YYYY` and
//! German column names.

use super::load::{self, Companies};
use crate::http::error::{ApiError, ApiResult};
use crate::http::extract::QueryPairs;
use crate::state::AppState;
use axum::extract::State;
use axum::response::Response;
use kontor_model::export::{
    file_name, invoice_header, invoice_rows, purchase_header, purchase_rows, BOM,
};

/// The CSV content type of both exports.
const CSV: &str = "text/csv; charset=utf-8";

/// `header` and `rows` as the exports write them. Errors: 500 when writing fails.
fn write(header: &[&str], rows: Vec<Vec<String>>) -> ApiResult<Vec<u8>> {
    let mut out = BOM.as_bytes().to_vec();
    {
        let mut w = ::csv::WriterBuilder::new()
            .delimiter(b';')
            .terminator(::csv::Terminator::CRLF)
            .from_writer(&mut out);
        let fail = |e: ::csv::Error| ApiError::Internal(format!("csv: {e}"));
        w.write_record(header).map_err(fail)?;
        for row in rows {
            w.write_record(&row).map_err(fail)?;
        }
        w.flush()
            .map_err(|e| ApiError::Internal(format!("csv: {e}")))?;
    }
    Ok(out)
}

fn too_large() -> ApiError {
    ApiError::Internal("an export amount does not fit".into())
}

/// Invoices of a period as CSV.
///
/// GET /exports/invoices.csv → 200 `text/csv; charset=utf-8`, attachment
/// `invoices_<from>_<to>.csv`: the finalized invoices of the period.
/// Errors: 422 naming `from`, `to` or `locale`.
#[utoipa::path(
    get,
    path = "/exports/invoices.csv",
    operation_id = "exports_invoices_csv",
    tag = "exports",
    params(
        super::Period,
    ),
    responses(
        (status = 200, description = "`text/csv; charset=utf-8` with BOM, `;`-separated, CRLF: a header row, then one row per finalized invoice of the period and tax rate; attachment `invoices_<from>_<to>.csv`.", content_type = "text/csv",
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"invoices_<from>_<to>.csv\"`"))),
    )
)]
pub async fn invoices_csv(State(state): State<AppState>, query: QueryPairs) -> ApiResult<Response> {
    let period = load::period(&query)?;
    let companies = Companies::load(&state.pool).await?;
    let mut rows = Vec::new();
    for invoice in load::invoices(&state.pool, &period).await? {
        let customer = companies.customer(&invoice);
        rows.extend(invoice_rows(&invoice, &customer, period.locale).ok_or_else(too_large)?);
    }
    let bytes = write(&invoice_header(period.locale), rows)?;
    Ok(load::download(
        bytes,
        CSV,
        &file_name("invoices", &period, "csv"),
    ))
}

/// Purchases of a period as CSV.
///
/// GET /exports/purchases.csv → 200 `text/csv; charset=utf-8`, attachment
/// `purchases_<from>_<to>.csv`: every purchase of the period.
/// Errors: 422 naming `from`, `to` or `locale`.
#[utoipa::path(
    get,
    path = "/exports/purchases.csv",
    operation_id = "exports_purchases_csv",
    tag = "exports",
    params(
        super::Period,
    ),
    responses(
        (status = 200, description = "`text/csv; charset=utf-8` with BOM, `;`-separated, CRLF: a header row, then one row per purchase of the period and tax rate; attachment `purchases_<from>_<to>.csv`.", content_type = "text/csv",
            headers(("Content-Disposition" = String, description = "`attachment; filename=\"purchases_<from>_<to>.csv\"`"))),
    )
)]
pub async fn purchases_csv(
    State(state): State<AppState>,
    query: QueryPairs,
) -> ApiResult<Response> {
    let period = load::period(&query)?;
    let companies = Companies::load(&state.pool).await?;
    let mut rows = Vec::new();
    for purchase in load::purchases(&state, &period).await? {
        let supplier = companies.supplier(&purchase);
        rows.extend(purchase_rows(&purchase, &supplier, period.locale).ok_or_else(too_large)?);
    }
    let bytes = write(&purchase_header(period.locale), rows)?;
    Ok(load::download(
        bytes,
        CSV,
        &file_name("purchases", &period, "csv"),
    ))
}
