//! The tabs of the invoice detail page (UI.md § Detail pages): overview (fields and
//! positions), the document (PDF preview), payments and reminders, time sheet, expenses.
//! The chosen tab lives above the loaded invoice, so it stays when the invoice reloads
//! after a change.

use leptos::prelude::*;

/// One tab of the detail page.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DetailTab {
    /// Fields, positions, texts.
    Overview,
    /// The PDF in the page.
    Document,
    /// Payments and reminders.
    Payments,
    /// The billed time sheet.
    TimeSheet,
    /// The billed expenses.
    Expenses,
}

impl DetailTab {
    /// All tabs in order.
    pub const ALL: [DetailTab; 5] = [
        DetailTab::Overview,
        DetailTab::Document,
        DetailTab::Payments,
        DetailTab::TimeSheet,
        DetailTab::Expenses,
    ];

    /// The id part: `tab-<slug>` for the tab, `panel-<slug>` for its panel.
    pub fn slug(self) -> &'static str {
        match self {
            DetailTab::Overview => "overview",
            DetailTab::Document => "document",
            DetailTab::Payments => "payments",
            DetailTab::TimeSheet => "timesheet",
            DetailTab::Expenses => "expenses",
        }
    }

    /// The tab's label.
    pub fn label(self) -> &'static str {
        match self {
            DetailTab::Overview => "Overview",
            DetailTab::Document => "Document",
            DetailTab::Payments => "Payments and reminders",
            DetailTab::TimeSheet => "Time sheet",
            DetailTab::Expenses => "Expenses",
        }
    }
}

/// The tab strip (ARIA tabs: ←/→ move between tabs).
#[component]
pub fn TabBar(
    /// The selected tab.
    tab: RwSignal<DetailTab>,
) -> impl IntoView {
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let step: isize = match ev.key().as_str() {
            "ArrowRight" => 1,
            "ArrowLeft" => -1,
            _ => return,
        };
        ev.prevent_default();
        let all = DetailTab::ALL;
        let at = all
            .iter()
            .position(|t| *t == tab.get_untracked())
            .unwrap_or(0) as isize;
        let next = all[(at + step).rem_euclid(all.len() as isize) as usize];
        tab.set(next);
        if let Some(el) = document().get_element_by_id(&format!("tab-{}", next.slug())) {
            let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
        }
    };
    view! {
        <div class="tabs" role="tablist" aria-label="Invoice sections" on:keydown=on_keydown>
            {DetailTab::ALL
                .into_iter()
                .map(|t| {
                    let selected = move || tab.get() == t;
                    view! {
                        <button
                            type="button"
                            role="tab"
                            class="tab"
                            id=format!("tab-{}", t.slug())
                            aria-controls=format!("panel-{}", t.slug())
                            aria-selected=move || selected().to_string()
                            tabindex=move || if selected() { "0" } else { "-1" }
                            on:click=move |_| tab.set(t)
                        >
                            {t.label()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}
