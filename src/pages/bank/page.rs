//! The Bank page: upload, state tabs with counts, the transactions.

use super::row::TransactionRow;
use crate::api::bank::{count_transactions, import_statement, list_transactions};
use crate::components::drop_zone::DropZone;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::bank::{BankStatement, TransactionState};
use leptos::prelude::*;
use send_wrapper::SendWrapper;

/// Statement files the picker offers (the server judges by content).
const ACCEPT: &str = ".xml,.zip,.sta,.mt940,.txt,application/xml,text/xml,application/zip";

/// The state's tab label.
fn tab_label(state: TransactionState) -> &'static str {
    let texts = t().bank_page();
    match state {
        TransactionState::Unmatched => texts.tab_unmatched,
        TransactionState::Suggested => texts.tab_suggested,
        TransactionState::Matched => texts.tab_matched,
        TransactionState::Ignored => texts.tab_ignored,
    }
}

/// One file's import result as a line.
fn result_line(name: &str, s: &BankStatement) -> String {
    fill(
        t().bank_page().imported,
        &[
            ("file", name),
            ("entries", &s.entries.to_string()),
            ("duplicates", &s.duplicates.to_string()),
            ("matched", &s.matched.to_string()),
            ("suggested", &s.suggested.to_string()),
        ],
    )
}

/// The page.
#[component]
pub fn BankPage() -> impl IntoView {
    let texts = t().bank_page();
    let toasts = Toasts::use_context();
    let state = RwSignal::new(TransactionState::Suggested);
    let term = RwSignal::new(String::new());
    let version = RwSignal::new(0u32);
    let busy = RwSignal::new(false);
    let progress = RwSignal::new(0u8);
    let results = RwSignal::new(Vec::<(String, Result<String, String>)>::new());
    let counts = LocalResource::new(move || {
        version.track();
        async move {
            let mut out = Vec::new();
            for s in TransactionState::ALL {
                out.push((s, count_transactions(s).await.unwrap_or(0)));
            }
            out
        }
    });
    let list = LocalResource::new(move || {
        version.track();
        let (s, q) = (state.get(), term.get());
        async move { list_transactions(Some(s), &q, 1).await }
    });
    let changed = Callback::new(move |_: ()| version.update(|v| *v += 1));
    // Several files import one after the other (a queue), each with its own result line.
    let queue = StoredValue::new(std::collections::VecDeque::<SendWrapper<web_sys::File>>::new());
    let on_file = Callback::new(move |file: SendWrapper<web_sys::File>| {
        queue.update_value(|q| q.push_back(file));
        if busy.get_untracked() {
            return;
        }
        busy.set(true);
        leptos::task::spawn_local(async move {
            while let Some(file) = queue.try_update_value(|q| q.pop_front()).flatten() {
                progress.set(0);
                let name = file.name();
                let answer = import_statement(&file, progress).await;
                let line = match answer {
                    Ok(s) => {
                        toasts.success(result_line(&name, &s));
                        Ok(result_line(&name, &s))
                    }
                    Err(e) => Err(fill(
                        t().bank_page().import_failed,
                        &[("file", &name), ("message", &e.message)],
                    )),
                };
                results.update(|r| r.insert(0, (name, line)));
                version.update(|v| *v += 1);
            }
            busy.set(false);
        });
    });
    view! {
        <div class="page-head"><h1>{texts.title}</h1></div>
        <section class="section" aria-labelledby="bank-import-title">
            <h2 class="section-title" id="bank-import-title">{texts.import_title}</h2>
            <DropZone id="bank-file" label=texts.drop on_file=on_file busy=busy progress=progress accept=ACCEPT multiple=true />
            <ul class="bank-results" id="bank-results" aria-live="polite">
                {move || results.get().into_iter().map(|(_, line)| match line {
                    Ok(l) => view! { <li class="bank-result">{l}</li> }.into_any(),
                    Err(l) => view! { <li class="bank-result field-error" role="alert">{l}</li> }.into_any(),
                }).collect_view()}
            </ul>
        </section>
        <section class="section" aria-labelledby="bank-list-title">
            <h2 class="section-title" id="bank-list-title">{texts.transactions}</h2>
            <div class="bank-toolbar">
                <div class="tabs" role="tablist" aria-label=texts.transactions>
                    {TransactionState::ALL.into_iter().map(|s| view! {
                        <button type="button" role="tab" class="tab" id=format!("bank-tab-{}", s.as_str())
                            aria-selected=move || (state.get() == s).to_string()
                            on:click=move |_| state.set(s)>
                            {tab_label(s)}
                            " "
                            <span class="tab-count">{move || counts.get().and_then(|c| c.iter().find(|(x, _)| *x == s).map(|(_, n)| n.to_string())).unwrap_or_default()}</span>
                        </button>
                    }).collect_view()}
                </div>
                <label class="visually-hidden" for="bank-term">{texts.search}</label>
                <input id="bank-term" type="search" placeholder=texts.search
                    on:change=move |ev| term.set(event_target_value(&ev)) />
            </div>
            {move || match list.get() {
                None => view! { <p class="muted">{t().bank_page().loading}</p> }.into_any(),
                Some(Err(e)) => view! { <p class="field-error" role="alert">{e.message}</p> }.into_any(),
                Some(Ok(page)) if page.items.is_empty() => view! { <p class="muted" id="bank-empty">{t().bank_page().empty}</p> }.into_any(),
                Some(Ok(page)) => view! {
                    <ul class="bank-transactions" id="bank-transactions">
                        {page.items.into_iter().map(|tx| view! { <TransactionRow transaction=tx on_changed=changed /> }).collect_view()}
                    </ul>
                }.into_any(),
            }}
        </section>
    }
}
