//! The public approval page: what the customer sees (`GET /customer_approvals/{token}`)
//! as a document — sender, recipient, title, positions (optional ones as switches), the
//! totals recomputed live by the model's [`totals_with_options`], footer, the PDF — and
//! the form to sign or decline while the offer can still be signed.

use super::sign_form::{DeclineForm, SignForm};
use crate::api::approvals::{get_public_approval, public_document_href};
use crate::api::ApiError;
use crate::components::date::format_date;
use crate::components::locale::format_input;
use crate::components::money::format_money;
use crate::components::position_editor::StoredTaxLines;
use crate::i18n::{
    apply_html_lang, explicit_language, fill, language, switch_language, t, use_language, Lang,
};
use kontor_model::approval::{totals_with_options, ApprovalState, PublicApproval, PublicOfferItem};
use kontor_model::position::PositionType;
use leptos::prelude::*;
use leptos_router::hooks::use_params_map;
use std::collections::BTreeSet;

/// The page. The customer's correspondence language is used unless the visitor chose
/// one with the switch (stored like the app's choice).
#[component]
pub fn ApprovalPage() -> impl IntoView {
    let params = use_params_map();
    let token = params.with_untracked(|p| p.get("token").unwrap_or_default());
    let loaded = RwSignal::new(None::<Result<PublicApproval, ApiError>>);
    let token_for_load = token.clone();
    leptos::task::spawn_local(async move {
        let answer = get_public_approval(&token_for_load).await;
        if let Ok(a) = &answer {
            if explicit_language().is_none() {
                let lang = Lang::parse(&a.language).unwrap_or_else(language);
                use_language(Some(lang));
                apply_html_lang(lang);
            }
            document().set_title(&format!("{} – {}", a.title, a.account.name));
        }
        loaded.set(Some(answer));
    });
    let token = StoredValue::new(token);
    view! {
        <main class="approval-page" id="approval">
            {move || match loaded.get() {
                None => view! { <p class="approval-loading" role="status">{t().approval_page().loading}</p> }.into_any(),
                Some(Err(e)) => view! {
                    <section class="approval-missing" role="alert">
                        <h1>{if e.status == 404 { t().approval_page().not_found_title } else { t().approval_page().failed_title }}</h1>
                        <p>{if e.status == 404 { t().approval_page().not_found_text.to_string() } else { e.message.clone() }}</p>
                    </section>
                }.into_any(),
                Some(Ok(approval)) => view! {
                    <ApprovalView approval=approval token=token.get_value() on_answer=Callback::new(move |a| loaded.set(Some(Ok(a)))) />
                }.into_any(),
            }}
        </main>
    }
}

/// The language switch: the two languages as buttons; choosing one reloads the page in it.
#[component]
fn LanguageSwitch() -> impl IntoView {
    let now = language();
    view! {
        <nav class="approval-languages" aria-label=t().approval_page().language>
            {[(Lang::De, "Deutsch"), (Lang::En, "English")].into_iter().map(|(lang, name)| view! {
                <button type="button" class="btn btn-small" id=format!("approval-lang-{}", lang.code())
                    lang=lang.code() aria-pressed=(lang == now).to_string()
                    on:click=move |_| switch_language(lang)>{name}</button>
            }).collect_view()}
        </nav>
    }
}

/// One loaded approval.
#[component]
fn ApprovalView(
    /// What the server answered.
    approval: PublicApproval,
    /// The token (for signing and declining).
    token: String,
    /// Called with the server's answer after signing or declining.
    on_answer: Callback<PublicApproval>,
) -> impl IntoView {
    let texts = t().approval_page();
    let approval = StoredValue::new(approval);
    let a = approval.get_value();
    let open = a.state == ApprovalState::Open && a.signing_refusal.is_none();
    // Signed: the options the customer took; open: what is ticked now.
    let chosen = RwSignal::new(
        a.optional_item_ids
            .iter()
            .copied()
            .collect::<BTreeSet<i64>>(),
    );
    let totals = Memo::new(move |_| {
        let chosen = chosen.get();
        approval.with_value(|a| {
            totals_with_options(&a.offer_items(), &chosen, a.discount, &a.vat(), &a.currency).ok()
        })
    });
    let cur = a.currency.clone();
    let money = move |d| format_money(d, &approval.with_value(|a| a.currency.clone()));
    let logo = a.account.logo_url.clone();
    let pdf = public_document_href(&a.document_url);
    let items = a.items.clone();
    let detail = a.print_detail_columns;
    let item_row = move |item: PublicOfferItem| {
        let title = item.title.clone().unwrap_or_default();
        match item.kind {
            PositionType::Item => {
                let id = item.id;
                let meta = detail.then(|| {
                    let q = item.quantity.map(|q| format_input(q.normalize())).unwrap_or_default();
                    let unit = item.unit.clone().unwrap_or_default();
                    let price = item.unit_price.map(&money).unwrap_or_default();
                    format!("{q} {unit} × {price}")
                });
                let total = money(item.net_total);
                let counted = move || !item.optional || chosen.with(|c| c.contains(&id));
                view! {
                    <li class="approval-item" class:is-optional=item.optional data-item-id=id.to_string()>
                        <div class="approval-item-main">
                            <strong>{title}</strong>
                            {item.optional.then(|| view! { " " <span class="badge badge-archived">{texts.optional}</span> })}
                            {item.description.clone().map(|d| view! { <p class="approval-item-text">{d}</p> })}
                            {meta.map(|m| view! { <p class="muted approval-item-meta">{m}</p> })}
                            {(item.optional && open).then(|| view! {
                                <label class="approval-option" for=format!("option-{id}")>
                                    <input type="checkbox" role="switch" id=format!("option-{id}")
                                        prop:checked=move || chosen.with(|c| c.contains(&id))
                                        on:change=move |ev| {
                                            let on = event_target_checked(&ev);
                                            chosen.update(|c| { if on { c.insert(id); } else { c.remove(&id); } });
                                        } />
                                    {texts.take_option}
                                </label>
                            })}
                            {(item.optional && !open).then(|| view! {
                                <p class="muted">{move || if counted() { texts.option_taken } else { texts.option_not_taken }}</p>
                            })}
                        </div>
                        <div class="approval-item-total money" class:is-uncounted=move || !counted()>{total}</div>
                    </li>
                }.into_any()
            }
            PositionType::Title => view! { <li class="approval-item approval-item-heading"><h3>{title}</h3></li> }.into_any(),
            PositionType::Description => view! { <li class="approval-item approval-item-plain"><p>{item.description.clone().unwrap_or(title)}</p></li> }.into_any(),
            PositionType::Subtotal => view! {
                <li class="approval-item approval-item-subtotal"><em>{title}</em><span class="money">{money(item.net_total)}</span></li>
            }.into_any(),
            _ => view! { <li class="approval-item approval-item-break" aria-hidden="true"><hr /></li> }.into_any(),
        }
    };
    let single_tax = fill(
        texts.vat_rate,
        &[("rate", &format_input(a.tax.normalize()))],
    );
    view! {
        <header class="approval-head">
            <div class="approval-sender">
                {logo.map(|src| view! { <img class="approval-logo" src=src alt=a.account.name.clone() /> })}
                <p class="approval-sender-name">{a.account.name.clone()}</p>
                <p class="muted approval-sender-address">{a.account.address.join(" · ")}</p>
            </div>
            <LanguageSwitch />
        </header>
        <StateBanner approval=a.clone() />
        <article class="approval-doc" aria-labelledby="approval-title">
            <div class="approval-meta">
                <p class="approval-recipient">{a.recipient_address.clone()}</p>
                <dl class="approval-facts">
                    <div><dt>{texts.number}</dt><dd id="approval-identifier">{a.identifier.clone()}</dd></div>
                    <div><dt>{texts.date}</dt><dd>{format_date(a.date)}</dd></div>
                    <div><dt>{texts.valid_until}</dt><dd>{format_date(a.due_date)}</dd></div>
                </dl>
            </div>
            <h1 id="approval-title">{a.title.clone()}</h1>
            {a.salutation.clone().filter(|s| !s.trim().is_empty()).map(|s| view! { <p class="approval-text">{s}</p> })}
            <h2 class="visually-hidden">{texts.positions}</h2>
            <ol class="approval-items" id="approval-items">{items.into_iter().map(item_row).collect_view()}</ol>
            <dl class="totals-box totals-static approval-totals" id="approval-totals">
                {move || totals.get().map(|tot| {
                    let cur = cur.clone();
                    view! {
                        <div class="totals-line"><dt>{texts.net_total}</dt><dd class="money" id="approval-net">{format_money(tot.net_total, &cur)}</dd></div>
                        <StoredTaxLines breakdown=tot.tax_breakdown() tax_total=tot.tax_amount currency=cur.clone() single_label=single_tax.clone() />
                        <div class="totals-line totals-gross"><dt>{texts.gross_total}</dt><dd class="money" id="approval-gross">{format_money(tot.gross_total, &cur)}</dd></div>
                    }
                })}
            </dl>
            {a.footer.clone().filter(|s| !s.trim().is_empty()).map(|s| view! { <p class="approval-text muted">{s}</p> })}
            <p><a class="btn" id="approval-pdf" href=pdf download=format!("{}.pdf", a.identifier)>{texts.download_pdf}</a></p>
        </article>
        {open.then(|| view! {
            <SignForm token=token.clone() chosen=chosen.into() items=StoredValue::new(a.offer_items()) on_answer=on_answer />
            <DeclineForm token=token.clone() on_answer=on_answer />
        })}
    }
}

/// Signed, declined, or why it can no longer be signed.
#[component]
fn StateBanner(
    /// The approval.
    approval: PublicApproval,
) -> impl IntoView {
    let texts = t().approval_page();
    let who = approval.customer_full_name.clone().unwrap_or_default();
    let when = approval
        .signed_at
        .map(|at| {
            format!(
                "{} {} UTC",
                format_date(at.date_naive()),
                at.format("%H:%M")
            )
        })
        .unwrap_or_default();
    match approval.state {
        ApprovalState::Signed => view! {
            <section class="notice approval-state approval-signed" id="approval-signed" role="status">
                <h2>{texts.signed_title}</h2>
                <p>{fill(texts.signed_text, &[("name", &who), ("time", &when)])}</p>
            </section>
        }
        .into_any(),
        ApprovalState::Declined => view! {
            <section class="notice approval-state approval-declined" id="approval-declined" role="status">
                <h2>{texts.declined_title}</h2>
                <p>{fill(texts.declined_text, &[("name", &who)])}</p>
            </section>
        }
        .into_any(),
        ApprovalState::Open => approval
            .signing_refusal
            .clone()
            .map(|why| view! {
                <section class="notice approval-state" id="approval-closed" role="status">
                    <h2>{texts.closed_title}</h2>
                    <p>{why}</p>
                </section>
            })
            .into_any(),
    }
}
