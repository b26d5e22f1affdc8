//! The position editor (UI.md § Forms and the position editor): a table of positions of
//! all six types with a drag handle, type, title/description, quantity, unit, unit price,
//! net total and a row menu, and a totals box that follows every keystroke.
//!
//! Built for long documents (hundreds of positions): rows are keyed by a client-side key
//! in a `<For>`, every field is its own signal holding the typed text, and the totals are
//! one memo over the rows, so typing never rebuilds the table.
//!
//! Keyboard: Tab moves across cells; Alt+↑/↓ moves the row; Enter in the last cell of the
//! last row adds an item row; Alt+Shift+I/T/D/S/P/L adds an item, title, description,
//! subtotal, page break or separator after the focused row.
//!
//! The row model [`PositionRow`] serves invoices and offers (offers set `allow_optional`).

mod errors;
mod ops;
mod row;
mod row_billing;
pub mod row_menu;
mod row_view;
mod totals;
mod vat;

pub use errors::split_row_errors;
pub use ops::{add_row, duplicate_row, move_row, move_to, remove_row};
pub use row::{next_key, PositionRow, TypedRow};
pub use totals::{
    group_label, tax_line_label, use_subtotals, use_totals, StoredTaxLines, TotalsBox,
};
pub use vat::{vat_note, PositionVat};

use crate::i18n::{fill, t};
use kontor_model::article::Article;
use kontor_model::error::FieldErrors;
use kontor_model::position::PositionType;
use kontor_model::vat::VatChoice;
use kontor_model::Decimal;
use leptos::prelude::*;
use ops::{focus_row_later, focused_element};
use row_view::{EditorState, PositionRowView};
use std::collections::HashMap;
use wasm_bindgen::JsCast;

/// The shortcut letter (with Alt+Shift) that adds each position type.
pub fn shortcut(kind: PositionType) -> &'static str {
    match kind {
        PositionType::Item => "I",
        PositionType::Title => "T",
        PositionType::Description => "D",
        PositionType::Subtotal => "S",
        PositionType::PageBreak => "P",
        PositionType::Separator => "L",
    }
}

/// The names of the position types in a catalogue group (`item`, `title`, …), in the
/// order [`of_kind`] takes them.
macro_rules! kind_names {
    ($group:expr) => {{
        let n = $group;
        [
            n.item,
            n.title,
            n.description,
            n.subtotal,
            n.page_break,
            n.separator,
        ]
    }};
}

/// A position type's label in the current language ("Item", German "Artikel").
pub fn type_label(kind: PositionType) -> &'static str {
    of_kind(kind, kind_names!(t().position_editor_type()))
}

/// A position type's name inside a sentence ("Add item", German "Artikel hinzufügen").
pub fn type_label_in_sentence(kind: PositionType) -> &'static str {
    of_kind(kind, kind_names!(t().position_editor_type_lower()))
}

/// The one of `names` (item, title, description, subtotal, page break, separator) that
/// names `kind`.
fn of_kind(kind: PositionType, names: [&'static str; 6]) -> &'static str {
    let [item, title, description, subtotal, page_break, separator] = names;
    match kind {
        PositionType::Item => item,
        PositionType::Title => title,
        PositionType::Description => description,
        PositionType::Subtotal => subtotal,
        PositionType::PageBreak => page_break,
        PositionType::Separator => separator,
    }
}

fn kind_for_code(code: &str) -> Option<PositionType> {
    PositionType::ALL
        .into_iter()
        .find(|k| code == format!("Key{}", shortcut(*k)))
}

/// The key of the row holding the focus, if any.
fn focused_row_key() -> Option<u64> {
    let el = focused_element()?;
    let tr = el.closest("tr[data-row-key]").ok().flatten()?;
    tr.get_attribute("data-row-key")?.parse().ok()
}

/// What an article's suggestion shows beside its title: its number and unit price
/// (`A-100 · 95.00 EUR / h`).
fn article_label(a: &Article) -> String {
    let mut parts = Vec::new();
    if let Some(n) = a.number.as_deref().filter(|n| !n.trim().is_empty()) {
        parts.push(n.to_string());
    }
    if let Some(price) = a.unit_price {
        let money = crate::components::money::format_money(price, &a.currency);
        parts.push(match a.unit.as_deref().filter(|u| !u.trim().is_empty()) {
            Some(unit) => format!("{money} / {unit}"),
            None => money,
        });
    }
    parts.join(" · ")
}

/// Fills `row` (an item) from `article`: unit, VAT, a description when the row has none,
/// and the unit price when the article's currency is the document's `currency`.
fn fill_from_article(row: &PositionRow, article: &Article, currency: &str) {
    if row.kind.get_untracked() != PositionType::Item {
        return;
    }
    if let Some(unit) = &article.unit {
        row.unit.set(unit.clone());
    }
    if let (Some(price), true) = (article.unit_price, article.currency == currency) {
        // At least the currency's places (`95` → `95.00`), more when the price has them.
        let places = kontor_model::money::minor_units(currency).max(price.scale());
        row.unit_price
            .set(crate::components::locale::format_places(price, places));
        if row.quantity.with_untracked(|q| q.trim().is_empty()) {
            row.quantity.set("1".into());
        }
    }
    if article.tax.is_some() || article.tax_category.is_some() {
        row.vat.set(vat::PositionVat::from_stored(
            article.tax,
            article.tax_category,
        ));
    }
    if let Some(d) = article
        .description
        .as_ref()
        .filter(|d| !d.trim().is_empty())
    {
        if row.description.with_untracked(|x| x.trim().is_empty()) {
            row.description.set(d.clone());
        }
    }
}

/// The positions table with its add buttons and totals box.
#[component]
pub fn PositionEditor(
    /// The rows in document order; the editor adds, removes and reorders them.
    rows: RwSignal<Vec<PositionRow>>,
    /// Currency code for rounding and display.
    #[prop(into)]
    currency: Signal<String>,
    /// Discount in percent, for the totals.
    #[prop(into)]
    discount: Signal<Decimal>,
    /// Tax rate in percent, for the totals.
    #[prop(into)]
    tax: Signal<Decimal>,
    /// Reverse charge (no tax), for the totals.
    #[prop(into)]
    reverse_charge: Signal<bool>,
    /// Intra-EU supply (what a position's "Default" VAT means).
    #[prop(into, default = Signal::stored(false))]
    intra_eu: Signal<bool>,
    /// Field errors by row key and field (see [`split_row_errors`]); a field's error is
    /// removed when the field is edited.
    #[prop(default = RwSignal::new(HashMap::new()))]
    row_errors: RwSignal<HashMap<u64, FieldErrors>>,
    /// Show an "optional" checkbox per row (offers).
    #[prop(optional)]
    allow_optional: bool,
) -> impl IntoView {
    let document_vat = Signal::derive(move || VatChoice {
        tax: tax.get(),
        reverse_charge: reverse_charge.get(),
        intra_eu: intra_eu.get(),
    });
    let totals = use_totals(rows, currency, discount, document_vat);
    let subtotals = use_subtotals(rows, totals);
    let state = EditorState {
        rows,
        currency,
        subtotals,
        row_errors: row_errors.into(),
        dragging: RwSignal::new(None),
        drop_target: RwSignal::new(None),
        allow_optional,
        document_vat,
        owner: StoredValue::new(Owner::current().unwrap_or_default()),
    };
    // Issue 33: the active articles, offered on an item's title (a datalist) and filled
    // into the row when one is picked. Without articles (or access) nothing is offered.
    // Only with a key: without one the request would send the page to sign-in.
    let articles = RwSignal::new(Vec::<Article>::new());
    if crate::api::client::has_key() {
        leptos::task::spawn_local(async move {
            if let Ok(page) = crate::api::articles::active_articles().await {
                articles.set(page.items);
            }
        });
    }
    let add = move |kind: PositionType| {
        let after = focused_row_key();
        let added = state
            .owner
            .with_value(|o| o.with(|| add_row(rows, after, kind)));
        focus_row_later(added);
    };
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        if ev.alt_key() && ev.shift_key() && !ev.ctrl_key() && !ev.meta_key() {
            if let Some(kind) = kind_for_code(&ev.code()) {
                ev.prevent_default();
                add(kind);
            }
        }
    };
    let on_input = move |ev: web_sys::Event| {
        let Some(el) = ev
            .target()
            .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
        else {
            return;
        };
        let Some(field) = el.get_attribute("data-field") else {
            return;
        };
        let Some(key) = el
            .closest("tr[data-row-key]")
            .ok()
            .flatten()
            .and_then(|tr| tr.get_attribute("data-row-key")?.parse::<u64>().ok())
        else {
            return;
        };
        // An article picked from the title's suggestions (the browser replaces the text):
        // its unit, unit price (in the document's currency), VAT and description.
        let picked = ev
            .dyn_ref::<web_sys::InputEvent>()
            .is_none_or(|ie| ie.input_type() == "insertReplacementText");
        if field == "title" && picked {
            let title = el
                .dyn_ref::<web_sys::HtmlInputElement>()
                .map(|i| i.value())
                .unwrap_or_default();
            let article =
                articles.with_untracked(|list| list.iter().find(|a| a.title == title).cloned());
            let row = rows.with_untracked(|r| r.iter().find(|r| r.key == key).copied());
            if let (Some(article), Some(row)) = (article, row) {
                fill_from_article(&row, &article, &currency.get_untracked());
            }
        }
        if row_errors.with_untracked(|m| m.get(&key).is_some_and(|e| e.contains_key(&field))) {
            row_errors.update(|m| {
                if let Some(e) = m.get_mut(&key) {
                    e.remove(&field);
                }
            });
        }
    };
    let on_dragleave = move |ev: web_sys::DragEvent| {
        let outside = ev
            .related_target()
            .and_then(|t| t.dyn_into::<web_sys::Node>().ok())
            .is_none();
        if outside {
            state.drop_target.set(None);
        }
    };
    view! {
        <div class="position-editor" on:keydown=on_keydown on:input=on_input>
            <datalist id="pe-articles">
                {move || articles.get().into_iter().map(|a| {
                    let label = article_label(&a);
                    view! { <option value=a.title label=label></option> }
                }).collect_view()}
            </datalist>
            <table class="table pe-table" on:dragleave=on_dragleave>
                <thead>
                    <tr>
                        <th class="pe-handle" scope="col"><span class="visually-hidden">{t().position_editor().move_handle}</span></th>
                        <th class="pe-type" scope="col">{t().position_editor().type_column}</th>
                        <th class="pe-text" scope="col">{t().position_editor().text}</th>
                        <th class="pe-qty num" scope="col">{t().position_editor().quantity}</th>
                        <th class="pe-unit" scope="col">{t().position_editor().unit}</th>
                        <th class="pe-price num" scope="col">{t().position_editor().unit_price}</th>
                        <th class="pe-vat" scope="col">{t().position_editor().vat}</th>
                        <th class="pe-net num" scope="col">{t().position_editor().net_total}</th>
                        {allow_optional.then(|| view! { <th class="pe-optional" scope="col">{t().position_editor().optional}</th> })}
                        <th class="pe-menu" scope="col"><span class="visually-hidden">{t().position_editor().actions}</span></th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || rows.get() key=|row| row.key let:row>
                        <PositionRowView row=row state=state />
                    </For>
                </tbody>
            </table>
            <Show when=move || rows.with(Vec::is_empty)>
                <p class="pe-empty">{t().position_editor().empty}</p>
            </Show>
            <div class="pe-add" role="group" aria-label=t().position_editor().add_group>
                {PositionType::ALL
                    .into_iter()
                    .map(|kind| {
                        let keys = format!("Alt+Shift+{}", shortcut(kind));
                        view! {
                            <button
                                type="button"
                                class=if kind == PositionType::Item { "btn btn-small" } else { "btn btn-small btn-quiet" }
                                title=fill(t().position_editor().add_title, &[("kind", type_label_in_sentence(kind)), ("keys", &keys)])
                                aria-keyshortcuts=keys
                                data-add=kind.as_str()
                                on:click=move |_| add(kind)
                            >
                                {fill(t().position_editor().add_button, &[("kind", type_label(kind))])}
                            </button>
                        }
                    })
                    .collect_view()}
            </div>
            <TotalsBox totals=totals discount=discount state=state />
        </div>
    }
}
