//! Deals (sales opportunities): list (optionally of one company) and create.

use super::client::{get_page, send_json};
use super::{ApiError, Page};
use gloo_net::http::Method;
use kontor_model::party::{Deal, NewDeal};

/// GET /deals, only the deals of `company_id` when given (up to 100).
pub async fn list_deals(company_id: Option<i64>) -> Result<Page<Deal>, ApiError> {
    let mut query = vec![("per_page".to_string(), "100".to_string())];
    if let Some(id) = company_id {
        query.push(("company_id".into(), id.to_string()));
    }
    get_page("/deals", &query).await
}

/// POST /deals.
pub async fn create_deal(body: &NewDeal) -> Result<Deal, ApiError> {
    send_json(Method::POST, "/deals", body).await
}
