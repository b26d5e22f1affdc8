//! Companies (customers, suppliers, organizations): list and get.

use super::client::{get_one, get_page};
use super::{ApiError, Page};
use kontor_model::party::{Company, CompanyType};

/// Query of GET /companies.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct CompanyQuery {
    /// Only companies of this role.
    pub kind: Option<CompanyType>,
    /// Search term (name).
    pub term: Option<String>,
    /// Only these ids.
    pub ids: Vec<i64>,
    /// Page from 1.
    pub page: Option<u32>,
    /// Page size (at most 100).
    pub per_page: Option<u32>,
}

impl CompanyQuery {
    /// All customers, as many as one page holds.
    pub fn customers() -> Self {
        CompanyQuery {
            kind: Some(CompanyType::Customer),
            per_page: Some(100),
            ..Default::default()
        }
    }

    /// The query pairs.
    pub fn to_pairs(&self) -> Vec<(String, String)> {
        let mut out = Vec::new();
        if let Some(k) = self.kind {
            out.push(("type".into(), k.as_str().into()));
        }
        if let Some(t) = &self.term {
            out.push(("term".into(), t.clone()));
        }
        if !self.ids.is_empty() {
            let ids: Vec<String> = self.ids.iter().map(i64::to_string).collect();
            out.push(("ids".into(), ids.join(",")));
        }
        if let Some(p) = self.page {
            out.push(("page".into(), p.to_string()));
        }
        if let Some(p) = self.per_page {
            out.push(("per_page".into(), p.to_string()));
        }
        out
    }
}

/// GET /companies.
pub async fn list_companies(query: &CompanyQuery) -> Result<Page<Company>, ApiError> {
    get_page("/companies", &query.to_pairs()).await
}

/// GET /companies/{id}.
pub async fn get_company(id: i64) -> Result<Company, ApiError> {
    get_one(&format!("/companies/{id}"), &[]).await
}
