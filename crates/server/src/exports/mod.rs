//! `/exports`: what the accountant gets for a period (issue 11, "For the accountant";
//! `docs/decisions.md` § Exports (issue 11)): `invoices.csv` and `purchases.csv` (one row
//! per document and tax rate), `documents.zip` (every invoice PDF and purchase document)
//! and `datev.csv` (a DATEV EXTF Buchungsstapel). All four are reads: read-only keys may
//! download them.

mod csv;
mod datev;
mod documents;
mod load;

use crate::state::AppState;
use axum::routing::get;
use axum::Router;

/// Routes of the exports.
pub fn router() -> Router<AppState> {
    Router::new()
        .route("/exports/invoices.csv", get(csv::invoices_csv))
        .route("/exports/purchases.csv", get(csv::purchases_csv))
        .route("/exports/documents.zip", get(documents::documents_zip))
        .route("/exports/datev.csv", get(datev::datev_csv))
}
