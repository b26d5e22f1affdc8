//! The tabs of the invoice detail page (UI.md § Detail pages): overview (fields and
//! positions), the document (PDF preview), payments and reminders, time sheet, expenses,
//! history (the timeline). The tab is in the URL (issue 11: `/invoices/12`,
//! `/invoices/12/payments`, …, `/invoices/12/history`); choosing a tab pushes a history
//! entry, so Back returns to the previous tab.

use crate::i18n::t;
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
    /// The e-mails that carried it and its reminders (issue 33).
    Mail,
    /// The timeline (events).
    History,
}

impl DetailTab {
    /// All tabs in order.
    pub const ALL: [DetailTab; 7] = [
        DetailTab::Overview,
        DetailTab::Document,
        DetailTab::Payments,
        DetailTab::TimeSheet,
        DetailTab::Expenses,
        DetailTab::Mail,
        DetailTab::History,
    ];

    /// The id part: `tab-<slug>` for the tab, `panel-<slug>` for its panel.
    pub fn slug(self) -> &'static str {
        match self {
            DetailTab::Overview => "overview",
            DetailTab::Document => "document",
            DetailTab::Payments => "payments",
            DetailTab::TimeSheet => "timesheet",
            DetailTab::Expenses => "expenses",
            DetailTab::Mail => "mail",
            DetailTab::History => "history",
        }
    }

    /// The tab of a URL segment after `/invoices/:id/` (its slug); `None` (no segment) is
    /// the overview; an unknown segment is `None` inside `Some`.
    pub fn from_segment(segment: Option<&str>) -> Option<DetailTab> {
        match segment {
            None | Some("") => Some(DetailTab::Overview),
            Some(slug) => DetailTab::ALL
                .into_iter()
                .find(|t| *t != DetailTab::Overview && t.slug() == slug),
        }
    }

    /// The tab's app path for invoice `id`: `/invoices/12` for the overview,
    /// `/invoices/12/<slug>` for the others.
    pub fn path(self, id: i64) -> String {
        match self {
            DetailTab::Overview => format!("/invoices/{id}"),
            tab => format!("/invoices/{id}/{}", tab.slug()),
        }
    }

    /// The tab's label in the current language.
    pub fn label(self) -> &'static str {
        let texts = t().invoice_detail();
        match self {
            DetailTab::Overview => texts.tab_overview,
            DetailTab::Document => texts.tab_document,
            DetailTab::Payments => texts.tab_payments,
            DetailTab::TimeSheet => texts.tab_timesheet,
            DetailTab::Expenses => texts.tab_expenses,
            DetailTab::Mail => t().mail().tab,
            DetailTab::History => texts.tab_history,
        }
    }
}

/// The tab strip (ARIA tabs: ←/→ move between tabs, Home/End to the first/last);
/// `on_select` gets the chosen tab (the page navigates to its URL).
#[component]
pub fn TabBar(
    /// The selected tab.
    #[prop(into)]
    tab: Signal<DetailTab>,
    /// Called with the tab the user chose (click or arrow key).
    on_select: Callback<DetailTab>,
) -> impl IntoView {
    let on_keydown = move |ev: web_sys::KeyboardEvent| {
        let all = DetailTab::ALL;
        let at = all
            .iter()
            .position(|t| *t == tab.get_untracked())
            .unwrap_or(0) as isize;
        let next = match ev.key().as_str() {
            "ArrowRight" => all[(at + 1).rem_euclid(all.len() as isize) as usize],
            "ArrowLeft" => all[(at - 1).rem_euclid(all.len() as isize) as usize],
            "Home" => all[0],
            "End" => all[all.len() - 1],
            _ => return,
        };
        ev.prevent_default();
        on_select.run(next);
        if let Some(el) = document().get_element_by_id(&format!("tab-{}", next.slug())) {
            let _ = wasm_bindgen::JsCast::unchecked_into::<web_sys::HtmlElement>(el).focus();
        }
    };
    view! {
        <div class="tabs" role="tablist" aria-label=t().invoice_detail().tabs_label on:keydown=on_keydown>
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
                            on:click=move |_| {
                                if !selected() {
                                    on_select.run(t)
                                }
                            }
                        >
                            {t.label()}
                        </button>
                    }
                })
                .collect_view()}
        </div>
    }
}
