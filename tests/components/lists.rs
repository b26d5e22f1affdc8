//! Component tests of the lists' shared widgets (issue 11 § Find and see) in headless
//! Chromium: the sortable headers, the totals of a filter per currency, and the top bar's
//! search (its scope per page and the `/` key).
//! `CHROMEDRIVER=/usr/bin/chromedriver cargo test -p kontor-app --target wasm32-unknown-unknown --test components -- lists::`.
#![cfg(target_arch = "wasm32")]

use kontor_app::components::list_totals::ListTotals;
use kontor_app::components::sort_header::{Column, ListHead, ListSort};
use kontor_app::components::top_search::{search_scope, TopSearch};
use kontor_model::query::{CurrencyTotals, SortOrder};
use leptos::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, KeyboardEvent, KeyboardEventInit};

use crate::support::dom;

use dom::{container, d, find, settle, texts};

const COLUMNS: &[Column] = &[
    Column::sorted("Number", "identifier", "col-number"),
    Column::plain("Title", "col-title"),
    Column::sorted("Date", "date", "col-date"),
    Column::amount("Gross total", "gross_total", "col-amount"),
];

fn header(root: &HtmlElement, key: &str) -> HtmlElement {
    find(root, &format!("th[data-sort={key}]"))
}

#[wasm_bindgen_test]
fn a_click_sorts_by_the_column_then_turns_the_direction() {
    // Amounts and numbers start ascending, dates newest first (the server's defaults).
    let gross = ListSort::after_click(None, "gross_total");
    assert_eq!(
        (gross.key.as_str(), gross.order),
        ("gross_total", SortOrder::Asc)
    );
    let date = ListSort::after_click(Some(&gross), "date");
    assert_eq!((date.key.as_str(), date.order), ("date", SortOrder::Desc));
    let again = ListSort::after_click(Some(&date), "date");
    assert_eq!(again.order, SortOrder::Asc);
    // `sort` without `order` in the URL means the key's default direction.
    assert_eq!(
        ListSort::of(Some("due_date"), None).map(|s| s.order),
        Some(SortOrder::Desc)
    );
    assert_eq!(ListSort::of(None, Some(SortOrder::Asc)), None);
}

#[wasm_bindgen_test]
async fn sort_headers_are_buttons_with_aria_sort_and_an_arrow() {
    let current = RwSignal::new(None::<ListSort>);
    let asked = RwSignal::new(Vec::<ListSort>::new());
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        let on_sort = Callback::new(move |s: ListSort| {
            asked.update(|a| a.push(s.clone()));
            current.set(Some(s));
        });
        view! { <table><ListHead columns=COLUMNS current=current on_sort=on_sort /></table> }
    });
    settle().await;
    // Sortable columns hold a button (keyboard-operable); the plain one does not.
    assert_eq!(texts(&root, "th button").len(), 3);
    assert!(root
        .query_selector("th.col-title button")
        .unwrap()
        .is_none());
    let gross = header(&root, "gross_total");
    assert!(gross.class_list().contains("num"), "amounts right-aligned");
    let button = find(&gross, "button");
    assert_eq!(button.get_attribute("type").as_deref(), Some("button"));
    // Unsorted: no aria-sort anywhere, a faint ↕.
    assert!(root.query_selector("[aria-sort]").unwrap().is_none());
    assert_eq!(find(&gross, ".sort-arrow").text_content().unwrap(), "↕");

    button.click();
    settle().await;
    assert_eq!(
        asked.get_untracked().last().cloned(),
        Some(ListSort {
            key: "gross_total".into(),
            order: SortOrder::Asc
        })
    );
    assert_eq!(
        gross.get_attribute("aria-sort").as_deref(),
        Some("ascending")
    );
    assert_eq!(find(&gross, ".sort-arrow").text_content().unwrap(), "▲");
    // Only the sorted column carries aria-sort.
    assert_eq!(root.query_selector_all("[aria-sort]").unwrap().length(), 1);

    button.click();
    settle().await;
    assert_eq!(
        gross.get_attribute("aria-sort").as_deref(),
        Some("descending")
    );
    assert_eq!(find(&gross, ".sort-arrow").text_content().unwrap(), "▼");

    // Another column: it takes over, the first one is unmarked.
    find(&header(&root, "date"), "button").click();
    settle().await;
    assert_eq!(
        header(&root, "date").get_attribute("aria-sort").as_deref(),
        Some("descending")
    );
    assert_eq!(gross.get_attribute("aria-sort"), None);
    assert_eq!(asked.get_untracked().len(), 3);
}

fn totals(
    currency: &str,
    count: i64,
    net: &str,
    gross: &str,
    open: Option<&str>,
) -> CurrencyTotals {
    CurrencyTotals {
        currency: currency.into(),
        count,
        net_total: d(net),
        gross_total: d(gross),
        open_amount: open.map(d),
    }
}

#[wasm_bindgen_test]
async fn the_totals_row_shows_the_servers_sums_per_currency() {
    let root = container();
    let rows = vec![
        totals("CHF", 1, "100.00", "108.10", Some("0.00")),
        totals("EUR", 12, "1234567.80", "1469135.68", Some("595.00")),
    ];
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <ListTotals totals=rows.clone() show_open=true noun="invoices" /> }
    });
    settle().await;
    let cell = |currency: &str, what: &str| {
        find(
            &root,
            &format!("tr[data-currency={currency}] [data-total={what}]"),
        )
        .text_content()
        .unwrap()
    };
    assert_eq!(cell("EUR", "count"), "12 invoices");
    assert_eq!(cell("EUR", "net"), "1,234,567.80 EUR");
    assert_eq!(cell("EUR", "gross"), "1,469,135.68 EUR");
    assert_eq!(cell("EUR", "open"), "595.00 EUR");
    assert_eq!(cell("CHF", "gross"), "108.10 CHF");
    assert_eq!(cell("CHF", "count"), "1 invoice");
    // One row per currency, in the server's order, under a header naming the columns.
    let currencies = texts(&root, "tbody th");
    assert_eq!(currencies, vec!["CHF", "EUR"]);
    assert_eq!(
        texts(&root, "thead th"),
        vec!["Currency", "Count", "Net", "Gross", "Open"]
    );
}

#[wasm_bindgen_test]
async fn offer_totals_have_no_open_column_and_nothing_matches_shows_nothing() {
    let root = container();
    let rows = vec![totals("EUR", 2, "500.00", "595.00", None)];
    let _handle = leptos::mount::mount_to(root.clone(), move || {
        view! { <ListTotals totals=rows.clone() noun="offers" /> }
    });
    settle().await;
    assert_eq!(
        texts(&root, "thead th"),
        vec!["Currency", "Count", "Net", "Gross"]
    );
    assert!(root.query_selector("[data-total=open]").unwrap().is_none());

    let empty = container();
    let _empty = leptos::mount::mount_to(empty.clone(), || {
        view! { <ListTotals totals=Vec::new() noun="offers" /> }
    });
    settle().await;
    assert!(empty.query_selector("table").unwrap().is_none());
}

#[wasm_bindgen_test]
fn the_search_scope_follows_the_page() {
    let of = |path: &str| {
        let s = search_scope(path);
        (s.list, s.placeholder())
    };
    assert_eq!(of("/offers"), ("/offers", "Search offers…".to_string()));
    assert_eq!(of("/offers/9/edit").0, "/offers");
    assert_eq!(
        of("/purchases/new"),
        ("/purchases", "Search purchases…".to_string())
    );
    assert_eq!(of("/customers/3").0, "/customers");
    assert_eq!(of("/suppliers").0, "/suppliers");
    assert_eq!(
        of("/invoices/12/payments"),
        ("/invoices", "Search invoices…".to_string())
    );
    assert_eq!(of("/settings").0, "/invoices");
    assert_eq!(of("/offersx").0, "/invoices");
    assert_eq!(search_scope("/offers").label(), "Search offers");
}

fn press_slash(target: &web_sys::EventTarget) -> bool {
    let init = KeyboardEventInit::new();
    init.set_key("/");
    init.set_bubbles(true);
    init.set_cancelable(true);
    let ev = KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    target.dispatch_event(&ev).unwrap();
    ev.default_prevented()
}

#[wasm_bindgen_test]
async fn slash_focuses_the_search_except_while_typing_in_a_field() {
    use leptos_router::components::Router;
    let root = container();
    let _handle = leptos::mount::mount_to(root.clone(), || {
        view! {
            <Router>
                <TopSearch />
                <input id="other-field" type="text" />
                <button id="other-button" type="button">"x"</button>
            </Router>
        }
    });
    settle().await;
    let search = find(&root, "#global-search");
    // The test page is no list of its own: invoices are searched.
    assert_eq!(
        search.get_attribute("placeholder").as_deref(),
        Some("Search invoices…")
    );
    assert_eq!(
        find(&root, "label[for=global-search]")
            .text_content()
            .unwrap(),
        "Search invoices"
    );
    let active_id = || {
        document()
            .active_element()
            .map(|e| e.id())
            .unwrap_or_default()
    };

    // From a button (not a field), `/` goes to the search and is not typed.
    let button = find(&root, "#other-button");
    button.focus().unwrap();
    assert!(press_slash(button.unchecked_ref()));
    assert_eq!(active_id(), "global-search");

    // While typing in a field, `/` is the user's character.
    let other = find(&root, "#other-field");
    other.focus().unwrap();
    assert!(!press_slash(other.unchecked_ref()));
    assert_eq!(active_id(), "other-field");
}
