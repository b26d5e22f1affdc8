//! The Mail page `/mail` (issue 33 § Sent mail): every message Kontor sent or put in the
//! outbox, filtered by what became of it (`?open=true`: failures not sent again, the
//! dashboard's link; `?state=queued`), each failed or queued one can be sent again.

use crate::api::emails::EmailFilter;
use crate::components::mail_list::MailList;
use crate::i18n::t;
use kontor_model::email::MailState;
use leptos::prelude::*;
use leptos_router::hooks::use_query_map;

/// The filter choices: (value, label).
fn choices() -> [(&'static str, &'static str); 5] {
    let texts = t().mail();
    [
        ("", texts.filter_all),
        ("open", texts.filter_open),
        ("failed", texts.filter_failed),
        ("queued", texts.filter_queued),
        ("sent", texts.filter_sent),
    ]
}

/// The filter a choice stands for.
fn filter_of(choice: &str) -> EmailFilter {
    match choice {
        "open" => EmailFilter {
            open: true,
            ..Default::default()
        },
        other => EmailFilter {
            state: MailState::parse(other),
            ..Default::default()
        },
    }
}

/// The page.
#[component]
pub fn MailPage() -> impl IntoView {
    let texts = t().mail();
    let query = use_query_map();
    let initial = query.with_untracked(|q| {
        if q.get("open").as_deref() == Some("true") {
            "open".to_string()
        } else {
            q.get("state").unwrap_or_default()
        }
    });
    let choice = RwSignal::new(initial);
    let filter = Signal::derive(move || filter_of(&choice.get()));
    view! {
        <header class="page-head">
            <h1>{texts.title}</h1>
        </header>
        <p class="muted">{texts.intro}</p>
        <div class="filters">
            <label for="mail-filter">{texts.filter_label}</label>
            <select id="mail-filter" prop:value=move || choice.get()
                on:change=move |ev| choice.set(event_target_value(&ev))>
                {choices().into_iter().map(|(value, label)| view! { <option value=value>{label}</option> }).collect_view()}
            </select>
        </div>
        <MailList filter=filter />
    }
}
