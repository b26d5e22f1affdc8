//! A document list's state in its URL (issue 30: one place for what the invoice, offer and
//! purchase lists did alike): the filter parsed from the query, the page, the sort of the
//! column headers, and changing any of them as a new history entry, so Back returns to
//! the previous view of the list.

use super::sort_header::ListSort;
use crate::api::ApiError;
use crate::i18n::{fill, t};
use kontor_model::query::{QueryError, SortedFilter};
use leptos::prelude::*;
use leptos_router::hooks::{use_navigate, use_query_map};
use leptos_router::params::ParamsMap;
use leptos_router::NavigateOptions;

/// The list's URL state for a filter `F` (Copy: handles).
pub struct ListUrl<F: Send + Sync + 'static> {
    /// The query as parsed; an error names the malformed parameter.
    pub parsed: Memo<Result<F, QueryError>>,
    /// The filter in effect (the default one while the query is malformed).
    pub filter: Signal<F>,
    /// The filter without paging and sort, for the list's totals.
    pub unpaged: Memo<F>,
    /// Goes to the list with this filter (a new history entry, no scroll).
    pub set_filter: Callback<F>,
    /// Goes to this page (from 1) of the same filter.
    pub go_to_page: Callback<u32>,
    /// The headers' sort in effect, if any.
    pub sort: Signal<Option<ListSort>>,
    /// Sorts by a header: back to page 1, and the headers' `sort` wins over `sort_by`.
    pub set_sort: Callback<ListSort>,
}

impl<F: Send + Sync + 'static> Clone for ListUrl<F> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<F: Send + Sync + 'static> Copy for ListUrl<F> {}

/// The query string of `filter` (`?status=sent&page=2`, empty without any parameter).
pub fn query_string<F: SortedFilter>(filter: &F) -> String {
    ParamsMap::from_iter(filter.to_pairs()).to_query_string()
}

impl<F> ListUrl<F>
where
    F: SortedFilter + Clone + PartialEq + Send + Sync + 'static,
{
    /// The state of the list at `path` (`/invoices`), read from the current URL.
    pub fn new(path: &'static str) -> Self {
        let query = use_query_map();
        let navigate = use_navigate();
        let parsed = Memo::new(move |_| {
            query.with(|q| F::from_query(q.to_query_string().trim_start_matches('?')))
        });
        let filter = Signal::derive(move || parsed.get().unwrap_or_default());
        let unpaged = Memo::new(move |_| filter.with(|f| f.unpaged()));
        let set_filter = Callback::new(move |f: F| {
            let options = NavigateOptions {
                replace: false,
                scroll: false,
                ..Default::default()
            };
            navigate(&format!("{path}{}", query_string(&f)), options);
        });
        let go_to_page = Callback::new(move |page: u32| {
            let mut f = filter.get_untracked();
            f.paging_mut().page = Some(page);
            set_filter.run(f);
        });
        let sort = Signal::derive(move || {
            filter.with(|f| {
                let (sort, order) = f.sorting();
                ListSort::of(sort, order)
            })
        });
        let set_sort = Callback::new(move |s: ListSort| {
            let mut f = filter.get_untracked();
            let (sort, order) = f.sorting_mut();
            *sort = Some(s.key);
            *order = Some(s.order);
            f.paging_mut().page = None;
            f.paging_mut().sort_by = None;
            set_filter.run(f);
        });
        ListUrl {
            parsed,
            filter,
            unpaged,
            set_filter,
            go_to_page,
            sort,
            set_sort,
        }
    }

    /// The filter of the page to load (read tracked): the URL's, with `per_page` rows when
    /// the URL gives no page size. Errors: a malformed query as a local [`ApiError`]
    /// naming the parameter (`list.bad_filter`).
    pub fn requested(&self, per_page: u32) -> Result<F, ApiError> {
        let mut filter = self.parsed.get().map_err(|e| {
            ApiError::local(fill(t().list().bad_filter, &[("error", &e.to_string())]))
        })?;
        filter.paging_mut().per_page.get_or_insert(per_page);
        Ok(filter)
    }
}
