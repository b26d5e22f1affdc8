//! Sortable column headers of the lists (issue 11 § Find and see): a `<th>` holding a
//! button, `aria-sort` on the column the list is sorted by, and a visible arrow. The sort
//! lives in the URL (`sort=<key>&order=asc|desc`, the keys of `kontor_model::query::
//! {INVOICE,OFFER,PURCHASE}_SORTS`); the page writes it, this file only says what a click
//! asks for.
//!
//! - [`ListSort`]: the sort in effect, read from a filter's `sort` / `order`.
//! - [`SortHeader`]: one sortable header cell; [`Column`] + [`ListHead`]: a whole header
//!   row of sortable and plain columns.

use kontor_model::query::SortOrder;
use leptos::prelude::*;

/// The sort a list is shown in: a `sort` key and its direction.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListSort {
    /// The `sort` key, e.g. `gross_total`.
    pub key: String,
    /// The direction in effect (the URL's `order`, else the server's default for the key).
    pub order: SortOrder,
}

impl ListSort {
    /// The sort in effect for a filter's `sort` and `order`: `None` without `sort` (the
    /// list's default order, newest first); an absent `order` is the server's default
    /// for the key ([`SortOrder::default_for`]: dates newest first, the rest ascending).
    pub fn of(sort: Option<&str>, order: Option<SortOrder>) -> Option<ListSort> {
        sort.map(|key| ListSort {
            key: key.to_string(),
            order: order.unwrap_or_else(|| SortOrder::default_for(key)),
        })
    }

    /// The sort a click on the header of `key` asks for: the other direction when the
    /// list is already sorted by `key`, else `key` in its default direction.
    pub fn after_click(current: Option<&ListSort>, key: &str) -> ListSort {
        match current {
            Some(c) if c.key == key => ListSort {
                key: key.to_string(),
                order: match c.order {
                    SortOrder::Asc => SortOrder::Desc,
                    SortOrder::Desc => SortOrder::Asc,
                },
            },
            _ => ListSort {
                key: key.to_string(),
                order: SortOrder::default_for(key),
            },
        }
    }
}

/// One column of a list's header row: its heading, its `sort` key (`None`: not
/// sortable), and whether it holds amounts (right-aligned).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Column {
    /// The heading, e.g. "Gross total".
    pub label: &'static str,
    /// The `sort` key, e.g. `gross_total`; `None` for a plain heading.
    pub sort: Option<&'static str>,
    /// Amount column (right-aligned, tabular figures).
    pub numeric: bool,
    /// CSS class of the column (its width), e.g. `col-date`.
    pub class: &'static str,
}

impl Column {
    /// A sortable column.
    pub const fn sorted(label: &'static str, key: &'static str, class: &'static str) -> Column {
        Column {
            label,
            sort: Some(key),
            numeric: false,
            class,
        }
    }

    /// A sortable amount column (right-aligned).
    pub const fn amount(label: &'static str, key: &'static str, class: &'static str) -> Column {
        Column {
            label,
            sort: Some(key),
            numeric: true,
            class,
        }
    }

    /// A column that cannot be sorted by.
    pub const fn plain(label: &'static str, class: &'static str) -> Column {
        Column {
            label,
            sort: None,
            numeric: false,
            class,
        }
    }
}

/// A sortable header cell: a keyboard-operable button in the `<th>`, `aria-sort` while
/// the list is sorted by this column, and an arrow (▲ ascending, ▼ descending, a faint ↕
/// on the other sortable columns).
#[component]
pub fn SortHeader(
    /// The heading, e.g. "Gross total".
    label: &'static str,
    /// The `sort` key of this column, e.g. `gross_total`.
    key: &'static str,
    /// The sort in effect (from the URL); `None`: the list's default order.
    #[prop(into)]
    current: Signal<Option<ListSort>>,
    /// Called with the sort a click asks for ([`ListSort::after_click`]).
    on_sort: Callback<ListSort>,
    /// Amount column: right-aligned.
    #[prop(optional)]
    numeric: bool,
    /// Extra CSS class of the cell (its width).
    #[prop(optional)]
    class: &'static str,
) -> impl IntoView {
    let order = move || current.with(|c| c.as_ref().filter(|c| c.key == key).map(|c| c.order));
    let aria_sort = move || {
        order().map(|o| match o {
            SortOrder::Asc => "ascending",
            SortOrder::Desc => "descending",
        })
    };
    let arrow = move || match order() {
        Some(SortOrder::Asc) => "▲",
        Some(SortOrder::Desc) => "▼",
        None => "↕",
    };
    let click = move |_| {
        let next = current.with_untracked(|c| ListSort::after_click(c.as_ref(), key));
        on_sort.run(next);
    };
    view! {
        <th scope="col" class=class class:num=numeric class:is-sorted=move || order().is_some()
            aria-sort=aria_sort data-sort=key>
            <button type="button" class="sort-button" on:click=click>
                <span class="sort-label">{label}</span>
                <span class="sort-arrow" aria-hidden="true">{arrow}</span>
            </button>
        </th>
    }
}

/// The header row of a list table: a [`SortHeader`] for each sortable column, a plain
/// `<th>` for the others.
#[component]
pub fn ListHead(
    /// The columns in order (a `&'static [Column]` or a `Vec` built in the user's language).
    #[prop(into)]
    columns: Vec<Column>,
    /// The sort in effect (from the URL).
    #[prop(into)]
    current: Signal<Option<ListSort>>,
    /// Called with the sort a header click asks for.
    on_sort: Callback<ListSort>,
) -> impl IntoView {
    view! {
        <thead>
            <tr>
                {columns
                    .iter()
                    .map(|c| match c.sort {
                        Some(key) => view! {
                            <SortHeader label=c.label key=key current=current on_sort=on_sort
                                numeric=c.numeric class=c.class />
                        }
                        .into_any(),
                        None => view! { <th scope="col" class=c.class class:num=c.numeric>{c.label}</th> }
                            .into_any(),
                    })
                    .collect_view()}
            </tr>
        </thead>
    }
}
