//! The outbox list (issue 37 "a list with retry/discard"): creations saved while offline,
//! oldest first, each "Waiting" or "Refused by the server" with the server's message and
//! field errors; "Send now", and per item "Retry", "Correct" (a refused item's form opens
//! with what was typed, offered as a local draft) and "Discard". The outbox itself is
//! [`crate::api::outbox`].

use crate::api::offline::time_of;
use crate::api::outbox;
use crate::components::field::localized_message;
use crate::components::local_draft_store::write_saved_at;
use crate::i18n::{fill, t};
use kontor_model::outbox::{OutboxItem, OutboxKind};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

fn kind_label(kind: OutboxKind) -> &'static str {
    match kind {
        OutboxKind::Invoice => t().offline().kind_invoice,
        OutboxKind::Offer => t().offline().kind_offer,
        OutboxKind::Company => t().offline().kind_company,
        OutboxKind::Purchase => t().offline().kind_purchase,
    }
}

/// `/outbox`: the table `#outbox` of waiting items (rows `.outbox-item`).
#[component]
pub fn OutboxPage() -> impl IntoView {
    let texts = t().offline();
    // Every change of the outbox is stored, and each store changes the revision.
    let revision = outbox::revision();
    let items = Memo::new(move |_| {
        revision.track();
        outbox::load().items
    });
    let navigate = StoredValue::new_local(use_navigate());
    let correct = move |item: OutboxItem| {
        if let Some(key) = outbox::form_draft_key(&item) {
            write_saved_at(&key, item.form.clone(), item.queued_at);
        }
        outbox::discard(&item.key);
        navigate.with_value(|n| n(&item.form_path, Default::default()));
    };
    let send_now = move |_| {
        leptos::task::spawn_local(outbox::replay());
    };
    view! {
        <header class="page-head">
            <h1>{texts.outbox_title}</h1>
            <div class="page-actions">
                <button type="button" id="outbox-send" class="btn btn-primary"
                    disabled=move || items.with(Vec::is_empty) on:click=send_now>
                    {texts.send_now}
                </button>
            </div>
        </header>
        <p class="muted">{texts.outbox_intro}</p>
        <Show when=move || !items.with(Vec::is_empty)
            fallback=move || view! { <p class="empty" id="outbox-empty">{texts.outbox_empty}</p> }>
            <table class="table" id="outbox">
                <thead>
                    <tr>
                        <th scope="col">{texts.what}</th>
                        <th scope="col">{texts.state}</th>
                        <th scope="col"><span class="visually-hidden">{t().common().edit}</span></th>
                    </tr>
                </thead>
                <tbody>
                    <For each=move || items.get() key=|i| (i.key.clone(), i.refusal.is_some()) let:item>
                        {
                            let retry_key = item.key.clone();
                            let discard_key = item.key.clone();
                            let for_correct = item.clone();
                            let refused = item.refusal.clone();
                            let is_refused = refused.is_some();
                            let saved = fill(texts.saved_at, &[("time", &time_of(item.queued_at.timestamp_millis() as f64))]);
                            view! {
                                <tr class="outbox-item" class:refused=is_refused>
                                    <td>
                                        <strong>{kind_label(item.kind)}</strong>
                                        " · " {item.label.clone()}
                                        <div class="muted">{saved}</div>
                                    </td>
                                    <td>
                                        {match refused {
                                            None => view! { <span class="badge badge-pending">{texts.waiting}</span> }.into_any(),
                                            Some(r) => view! {
                                                <span class="badge badge-overdue">{texts.refused}</span>
                                                <p class="outbox-refusal">{r.message.clone()}</p>
                                                <ul class="outbox-errors">
                                                    {r.errors.iter().map(|(field, ms)| {
                                                        let text = ms.iter().map(localized_message).collect::<Vec<_>>().join("; ");
                                                        view! { <li><code>{field.clone()}</code> ": " {text}</li> }
                                                    }).collect_view()}
                                                </ul>
                                            }.into_any(),
                                        }}
                                    </td>
                                    <td class="actions">
                                        <Show when=move || is_refused>
                                            {
                                                let retry_key = retry_key.clone();
                                                let for_correct = for_correct.clone();
                                                view! {
                                                    <button type="button" class="btn btn-small outbox-correct"
                                                        on:click=move |_| correct(for_correct.clone())>{texts.correct}</button>
                                                    <button type="button" class="btn btn-small outbox-retry"
                                                        on:click=move |_| outbox::retry(&retry_key)>{texts.retry}</button>
                                                }
                                            }
                                        </Show>
                                        <button type="button" class="btn btn-small btn-quiet outbox-discard"
                                            on:click=move |_| { outbox::discard(&discard_key); }>{texts.discard}</button>
                                    </td>
                                </tr>
                            }
                        }
                    </For>
                </tbody>
            </table>
        </Show>
    }
}
