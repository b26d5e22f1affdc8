//! The list's filter as it stands in the URL (`?term=…&active=false&tags=a,b&page=2`) and
//! the request it makes. `active` absent in the URL shows the active companies (what
//! people look for); `active=false` the archived ones, `active=all` both.

use kontor_model::party::CompanyType;
use kontor_model::query::{split_list, CompanyFilter, Paging};
use leptos_router::params::ParamsMap;

/// Which companies by their `active` flag.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Shown {
    /// Active only (the default).
    #[default]
    Active,
    /// Archived only.
    Archived,
    /// Both.
    All,
}

impl Shown {
    /// The URL value (`None` for the default).
    pub fn param(self) -> Option<&'static str> {
        match self {
            Shown::Active => None,
            Shown::Archived => Some("false"),
            Shown::All => Some("all"),
        }
    }

    /// Reads the URL value; anything unknown is the default.
    pub fn parse(text: Option<&str>) -> Self {
        match text {
            Some("false") => Shown::Archived,
            Some("all") => Shown::All,
            _ => Shown::Active,
        }
    }
}

/// The list page's filter.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct CompanyListFilter {
    /// Search term.
    pub term: String,
    /// Active, archived or all.
    pub shown: Shown,
    /// Must carry all of these tags.
    pub tags: Vec<String>,
    /// Page from 1.
    pub page: u32,
}

impl CompanyListFilter {
    /// Reads the URL query.
    pub fn from_params(params: &ParamsMap) -> Self {
        CompanyListFilter {
            term: params.get("term").unwrap_or_default(),
            shown: Shown::parse(params.get_str("active")),
            tags: params
                .get_str("tags")
                .map(|t| split_list(t).collect())
                .unwrap_or_default(),
            page: params
                .get_str("page")
                .and_then(|p| p.parse().ok())
                .unwrap_or(1)
                .max(1),
        }
    }

    /// The URL query (`?term=web`; empty when nothing is set).
    pub fn query_string(&self) -> String {
        let mut pairs = Vec::new();
        if !self.term.trim().is_empty() {
            pairs.push(("term".to_string(), self.term.trim().to_string()));
        }
        if let Some(a) = self.shown.param() {
            pairs.push(("active".into(), a.into()));
        }
        if !self.tags.is_empty() {
            pairs.push(("tags".into(), self.tags.join(",")));
        }
        if self.page > 1 {
            pairs.push(("page".into(), self.page.to_string()));
        }
        ParamsMap::from_iter(pairs).to_query_string()
    }

    /// True when a filter (not the page) differs from the default.
    pub fn is_filtered(&self) -> bool {
        CompanyListFilter {
            page: 1,
            ..self.clone()
        } != CompanyListFilter {
            page: 1,
            ..Default::default()
        }
    }

    /// The request for companies of `kind`, `per_page` a page, sorted by name.
    pub fn query(&self, kind: CompanyType, per_page: u32) -> CompanyFilter {
        CompanyFilter {
            kinds: vec![kind],
            term: Some(self.term.trim().to_string()).filter(|t| !t.is_empty()),
            active: match self.shown {
                Shown::Active => Some(true),
                Shown::Archived => Some(false),
                Shown::All => None,
            },
            tags: self.tags.clone(),
            paging: Paging {
                page: Some(self.page),
                per_page: Some(per_page),
                sort_by: Some("name asc".into()),
                cursor: None,
            },
            ..Default::default()
        }
    }
}
