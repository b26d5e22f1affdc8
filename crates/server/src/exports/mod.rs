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
use utoipa_axum::router::OpenApiRouter;
use utoipa_axum::routes;

/// `locale` of every export (absent or empty: `en`), for the API description only: the
/// handlers read it with [`kontor_model::export::parse_period`].
#[derive(utoipa::ToSchema)]
#[schema(as = ExportLocale, rename_all = "lowercase")]
#[allow(dead_code)]
enum Locale {
    /// Decimal point, dates YYYY-MM-DD, English column names.
    En,
    /// Decimal comma, dates DD.MM.YYYY, German column names.
    De,
}

/// The period and language every export reads, for the API description only: the handlers
/// read them with [`kontor_model::export::parse_period`], whose 422 names `from`, `to` or
/// `locale`.
#[derive(utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[allow(dead_code)]
struct Period {
    /// First day of the period (YYYY-MM-DD), inclusive.
    from: chrono::NaiveDate,
    /// Last day of the period (YYYY-MM-DD), inclusive; not before `from`.
    to: chrono::NaiveDate,
    /// `de`: decimal commas, dates DD.MM.YYYY and German column names in the CSV lists;
    /// `en` (default, also when empty). Checked everywhere; the DATEV file and the ZIP are
    /// the same in both.
    #[param(inline)]
    locale: Option<Locale>,
}

/// Routes of the exports.
pub fn router() -> OpenApiRouter<AppState> {
    OpenApiRouter::new()
        .routes(routes!(csv::invoices_csv))
        .routes(routes!(csv::purchases_csv))
        .routes(routes!(documents::documents_zip))
        .routes(routes!(datev::datev_csv))
}
