//! `/exports` (issue 11, "For the accountant"; `docs/api.md` § Exports): the four
//! downloads of a period, fetched with the key as `Blob`s (a plain link could not carry
//! the key header) and saved through an object URL.

use super::client::request_blob;
use super::ApiError;
use chrono::NaiveDate;
use gloo_net::http::Method;
use kontor_model::export::{Locale, Period};
use web_sys::Blob;

/// One of the four exports.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Export {
    /// `invoices.csv`: finalized invoices, one row per document and tax rate.
    Invoices,
    /// `purchases.csv`: purchases, one row per document and tax rate.
    Purchases,
    /// `documents.zip`: every invoice PDF and purchase document.
    Documents,
    /// `datev.csv`: the DATEV EXTF Buchungsstapel.
    Datev,
}

impl Export {
    /// All four, in the page's order.
    pub const ALL: [Export; 4] = [
        Export::Invoices,
        Export::Purchases,
        Export::Documents,
        Export::Datev,
    ];

    /// The stem of the path and of the file name (`invoices`).
    pub fn stem(self) -> &'static str {
        match self {
            Export::Invoices => "invoices",
            Export::Purchases => "purchases",
            Export::Documents => "documents",
            Export::Datev => "datev",
        }
    }

    /// The file extension.
    pub fn ext(self) -> &'static str {
        match self {
            Export::Documents => "zip",
            _ => "csv",
        }
    }

    fn accept(self) -> &'static str {
        match self {
            Export::Documents => "application/zip",
            _ => "text/csv",
        }
    }

    /// The file name the server gives it (`invoices_2026-11-01_2026-11-30.csv`).
    pub fn file_name(self, from: NaiveDate, to: NaiveDate) -> String {
        let period = Period {
            from,
            to,
            locale: Locale::En,
        };
        let stem = match self {
            Export::Datev => kontor_model::export::DATEV_FILE_STEM,
            other => other.stem(),
        };
        kontor_model::export::file_name(stem, &period, self.ext())
    }
}

/// GET /exports/{export}?from=&to=[&locale=de]: the file as a `Blob`. `german` asks the
/// CSVs for decimal commas and German column names. Errors: 422 naming `from`/`to` (or,
/// for DATEV, the missing settings `datev.consultant_number`/`datev.client_number`).
pub async fn get_export(
    export: Export,
    from: NaiveDate,
    to: NaiveDate,
    german: bool,
) -> Result<Blob, ApiError> {
    let mut query = vec![
        ("from".to_string(), from.to_string()),
        ("to".to_string(), to.to_string()),
    ];
    if german && matches!(export, Export::Invoices | Export::Purchases) {
        query.push(("locale".into(), "de".into()));
    }
    request_blob(
        Method::GET,
        &format!("/exports/{}.{}", export.stem(), export.ext()),
        &query,
        None,
        export.accept(),
    )
    .await
}
