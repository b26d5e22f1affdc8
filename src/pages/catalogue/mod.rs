//! The catalogue page `/articles` (issue 33 § Articles, § Text snippets): the articles the
//! position editor offers — number, title, unit, net price, VAT, archived or not — and the
//! text snippets the forms offer for salutations, footers and e-mails, each created,
//! edited and deleted here. The rules are the model's (`kontor_model::article`), checked
//! before sending; the server's 422 marks the same fields.

use crate::api::articles::{
    all_articles, all_text_snippets, delete_article, delete_text_snippet, save_article,
    save_text_snippet,
};
use crate::components::confirm_dialog::ConfirmDialog;
use crate::components::dialog::Dialog;
use crate::components::error_panel::ErrorPanel;
use crate::components::field::{field_message, Field};
use crate::components::locale::{format_input, parse_typed};
use crate::components::money::format_money;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::article::{
    validate_text_snippet, Article, NewArticle, NewTextSnippet, SnippetKind, TextSnippet,
};
use kontor_model::error::FieldErrors;
use kontor_model::party::Language;
use leptos::prelude::*;
use serde_json::Value;

/// The page.
#[component]
pub fn CataloguePage() -> impl IntoView {
    let texts = t().articles_page();
    view! {
        <header class="page-head">
            <h1>{texts.title}</h1>
        </header>
        <p class="muted">{texts.intro}</p>
        <ArticlesSection />
        <SnippetsSection />
    }
}

/// The message of `path` in `errors` as a field's error signal.
fn error_of(errors: RwSignal<FieldErrors>, path: &'static str) -> Signal<Option<String>> {
    Signal::derive(move || errors.with(|e| field_message(e, path)))
}

/// Typed text → `Some(text)`; blank → `""` (the server stores "none").
fn text_or_blank(s: &RwSignal<String>) -> Option<String> {
    Some(s.get_untracked().trim().to_string())
}

/// The articles: a table and a dialog to add or change one.
#[component]
fn ArticlesSection() -> impl IntoView {
    let texts = t().articles_page();
    let toasts = Toasts::use_context();
    let list = LocalResource::new(all_articles);
    let open = RwSignal::new(false);
    let editing = RwSignal::new(None::<i64>);
    let (number, title, unit, price, tax) = (
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
        RwSignal::new(String::new()),
    );
    let active = RwSignal::new(true);
    let errors = RwSignal::new(FieldErrors::new());
    let start = move |a: Option<Article>| {
        errors.set(FieldErrors::new());
        editing.set(a.as_ref().map(|a| a.id));
        number.set(
            a.as_ref()
                .and_then(|a| a.number.clone())
                .unwrap_or_default(),
        );
        title.set(a.as_ref().map(|a| a.title.clone()).unwrap_or_default());
        unit.set(a.as_ref().and_then(|a| a.unit.clone()).unwrap_or_default());
        price.set(
            a.as_ref()
                .and_then(|a| a.unit_price)
                .map(|p| format_input(p.normalize()))
                .unwrap_or_default(),
        );
        tax.set(
            a.as_ref()
                .and_then(|a| a.tax)
                .map(|p| format_input(p.normalize()))
                .unwrap_or_default(),
        );
        active.set(a.as_ref().is_none_or(|a| a.active));
        open.set(true);
    };
    let save = Action::new_local(move |(id, body): &(Option<i64>, Value)| {
        let (id, body) = (*id, body.clone());
        async move { save_article(id, &body).await }
    });
    Effect::new(move |_| match save.value().get() {
        Some(Ok(a)) => {
            open.set(false);
            toasts.success(fill(
                t().articles_page().article_saved,
                &[("title", &a.title)],
            ));
            list.refetch();
        }
        Some(Err(e)) if !e.errors.is_empty() => errors.set(e.errors),
        Some(Err(e)) => toasts.error(e.message),
        None => {}
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let mut found = FieldErrors::new();
        let mut number_of = |s: RwSignal<String>, field: &str| match parse_typed(&s.get_untracked())
        {
            Ok(v) => v,
            Err(m) => {
                kontor_model::error::push_error(&mut found, field, m);
                None
            }
        };
        let (unit_price, vat) = (number_of(price, "unit_price"), number_of(tax, "tax"));
        let body = NewArticle {
            number: text_or_blank(&number),
            title: Some(title.get_untracked()),
            unit: text_or_blank(&unit),
            unit_price,
            tax: vat,
            active: Some(active.get_untracked()),
            ..Default::default()
        };
        found.extend(
            kontor_model::article::validate_article(&body, &[])
                .into_iter()
                .filter(|(k, _)| k != "currency"),
        );
        if !found.is_empty() {
            errors.set(found);
            return;
        }
        // An emptied price or VAT is cleared (`null`); absent would keep the old one.
        let mut value = serde_json::to_value(&body).unwrap_or(Value::Null);
        if let Value::Object(map) = &mut value {
            for (key, given) in [("unit_price", unit_price.is_some()), ("tax", vat.is_some())] {
                if !given {
                    map.insert(key.into(), Value::Null);
                }
            }
        }
        save.dispatch_local((editing.get_untracked(), value));
    };
    let to_delete = RwSignal::new(None::<Article>);
    let confirm = RwSignal::new(false);
    let remove = Callback::new(move |_: ()| {
        let Some(a) = to_delete.get_untracked() else {
            return;
        };
        confirm.set(false);
        leptos::task::spawn_local(async move {
            match delete_article(a.id).await {
                Ok(()) => {
                    toasts.success(fill(
                        t().articles_page().article_deleted,
                        &[("title", &a.title)],
                    ));
                    list.refetch();
                }
                Err(e) => toasts.error(e.message),
            }
        });
    });
    let pending = save.pending();
    view! {
        <section class="section" aria-labelledby="articles-title">
            <div class="section-head">
                <h2 class="section-title" id="articles-title">{texts.articles}</h2>
                <button type="button" class="btn btn-primary" id="new-article" data-shortcut="new" aria-keyshortcuts="n" on:click=move |_| start(None)>{texts.new_article}</button>
            </div>
            {move || match list.get() {
                None => view! { <p class="muted">{t().common().loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ErrorPanel error=e on_retry=Callback::new(move |_| list.refetch()) /> }.into_any(),
                Some(Ok(page)) if page.items.is_empty() => view! { <p class="muted" id="no-articles">{texts.no_articles}</p> }.into_any(),
                Some(Ok(page)) => view! {
                    <table class="table" id="article-table">
                        <thead><tr>
                            <th scope="col">{texts.number}</th>
                            <th scope="col">{texts.article_title}</th>
                            <th scope="col">{texts.unit}</th>
                            <th scope="col" class="num">{texts.unit_price}</th>
                            <th scope="col" class="num">{texts.vat}</th>
                            <th scope="col">{texts.state}</th>
                            <th scope="col"><span class="visually-hidden">{texts.actions}</span></th>
                        </tr></thead>
                        <tbody>
                            {page.items.into_iter().map(|a| {
                                let (edit, del) = (a.clone(), a.clone());
                                view! {
                                    <tr data-article=a.id.to_string()>
                                        <td>{a.number.clone().unwrap_or_default()}</td>
                                        <td>{a.title.clone()}</td>
                                        <td>{a.unit.clone().unwrap_or_default()}</td>
                                        <td class="num money">{a.unit_price.map(|p| format_money(p, &a.currency)).unwrap_or_default()}</td>
                                        <td class="num">{a.tax.map(|v| format!("{} %", format_input(v.normalize()))).unwrap_or_default()}</td>
                                        <td>{if a.active { texts.active } else { texts.archived }}</td>
                                        <td class="row-actions">
                                            <button type="button" class="btn btn-quiet" on:click=move |_| start(Some(edit.clone()))>{t().common().edit}</button>
                                            <button type="button" class="btn btn-danger-quiet" on:click=move |_| { to_delete.set(Some(del.clone())); confirm.set(true); }>{t().common().delete}</button>
                                        </td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any(),
            }}
        </section>
        <Dialog open=open title=Signal::derive(move || if editing.get().is_some() { texts.edit_article.to_string() } else { texts.new_article.to_string() })>
            <form class="dialog-form" id="article-form" on:submit=submit novalidate>
                <Field id="article-number" label=texts.number error=error_of(errors, "number")>
                    <input id="article-number" type="text" bind:value=number />
                </Field>
                <Field id="article-title" label=texts.article_title required=true error=error_of(errors, "title")>
                    <input id="article-title" type="text" bind:value=title />
                </Field>
                <Field id="article-unit" label=texts.unit error=error_of(errors, "unit")>
                    <input id="article-unit" type="text" class="input-narrow" bind:value=unit />
                </Field>
                <Field id="article-price" label=texts.unit_price_net error=error_of(errors, "unit_price")>
                    <input id="article-price" type="text" inputmode="decimal" class="num input-narrow" bind:value=price />
                </Field>
                <Field id="article-tax" label=texts.vat_percent hint=texts.vat_hint error=error_of(errors, "tax")>
                    <input id="article-tax" type="text" inputmode="decimal" class="num input-narrow" bind:value=tax />
                </Field>
                <label class="check">
                    <input id="article-active" type="checkbox" bind:checked=active />
                    " " {texts.offered}
                </label>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" id="article-save" disabled=move || pending.get()>{t().common().save}</button>
                </div>
            </form>
        </Dialog>
        <ConfirmDialog open=confirm
            title=Signal::derive(move || to_delete.get().map(|a| fill(texts.delete_article, &[("title", &a.title)])).unwrap_or_default())
            text=texts.delete_text confirm_label=t().common().delete confirm_id="confirm-delete-article"
            on_confirm=remove />
    }
}

/// The words of a snippet kind.
fn kind_label(kind: SnippetKind) -> &'static str {
    let texts = t().articles_page();
    match kind {
        SnippetKind::Salutation => texts.kind_salutation,
        SnippetKind::Footer => texts.kind_footer,
        SnippetKind::Email => texts.kind_email,
    }
}

/// The text snippets: a table and a dialog to add or change one.
#[component]
fn SnippetsSection() -> impl IntoView {
    let texts = t().articles_page();
    let toasts = Toasts::use_context();
    let list = LocalResource::new(all_text_snippets);
    let open = RwSignal::new(false);
    let editing = RwSignal::new(None::<i64>);
    let name = RwSignal::new(String::new());
    let kind = RwSignal::new(SnippetKind::Salutation);
    let language = RwSignal::new(Language::De);
    let text = RwSignal::new(String::new());
    let errors = RwSignal::new(FieldErrors::new());
    let start = move |s: Option<TextSnippet>| {
        errors.set(FieldErrors::new());
        editing.set(s.as_ref().map(|s| s.id));
        name.set(s.as_ref().map(|s| s.name.clone()).unwrap_or_default());
        kind.set(
            s.as_ref()
                .map(|s| s.kind)
                .unwrap_or(SnippetKind::Salutation),
        );
        language.set(s.as_ref().map(|s| s.language).unwrap_or_default());
        text.set(s.as_ref().map(|s| s.text.clone()).unwrap_or_default());
        open.set(true);
    };
    let save = Action::new_local(move |(id, body): &(Option<i64>, NewTextSnippet)| {
        let (id, body) = (*id, body.clone());
        async move { save_text_snippet(id, &body).await }
    });
    Effect::new(move |_| match save.value().get() {
        Some(Ok(s)) => {
            open.set(false);
            toasts.success(fill(
                t().articles_page().snippet_saved,
                &[("name", &s.name)],
            ));
            list.refetch();
        }
        Some(Err(e)) if !e.errors.is_empty() => errors.set(e.errors),
        Some(Err(e)) => toasts.error(e.message),
        None => {}
    });
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let body = NewTextSnippet {
            name: Some(name.get_untracked()),
            kind: Some(kind.get_untracked()),
            language: Some(language.get_untracked()),
            text: Some(text.get_untracked()),
        };
        let found = validate_text_snippet(&body);
        if !found.is_empty() {
            errors.set(found);
            return;
        }
        save.dispatch_local((editing.get_untracked(), body));
    };
    let to_delete = RwSignal::new(None::<TextSnippet>);
    let confirm = RwSignal::new(false);
    let remove = Callback::new(move |_: ()| {
        let Some(s) = to_delete.get_untracked() else {
            return;
        };
        confirm.set(false);
        leptos::task::spawn_local(async move {
            match delete_text_snippet(s.id).await {
                Ok(()) => {
                    toasts.success(fill(
                        t().articles_page().snippet_deleted,
                        &[("name", &s.name)],
                    ));
                    list.refetch();
                }
                Err(e) => toasts.error(e.message),
            }
        });
    });
    let pending = save.pending();
    view! {
        <section class="section" aria-labelledby="snippets-title">
            <div class="section-head">
                <h2 class="section-title" id="snippets-title">{texts.snippets}</h2>
                <button type="button" class="btn btn-primary" id="new-snippet" on:click=move |_| start(None)>{texts.new_snippet}</button>
            </div>
            {move || match list.get() {
                None => view! { <p class="muted">{t().common().loading}</p> }.into_any(),
                Some(Err(e)) => view! { <ErrorPanel error=e on_retry=Callback::new(move |_| list.refetch()) /> }.into_any(),
                Some(Ok(page)) if page.items.is_empty() => view! { <p class="muted" id="no-snippets">{texts.no_snippets}</p> }.into_any(),
                Some(Ok(page)) => view! {
                    <table class="table" id="snippet-table">
                        <thead><tr>
                            <th scope="col">{texts.snippet_name}</th>
                            <th scope="col">{texts.snippet_kind}</th>
                            <th scope="col">{texts.snippet_language}</th>
                            <th scope="col">{texts.snippet_text}</th>
                            <th scope="col"><span class="visually-hidden">{texts.actions}</span></th>
                        </tr></thead>
                        <tbody>
                            {page.items.into_iter().map(|s| {
                                let (edit, del) = (s.clone(), s.clone());
                                let excerpt: String = s.text.chars().take(80).collect();
                                view! {
                                    <tr data-snippet=s.id.to_string()>
                                        <td>{s.name.clone()}</td>
                                        <td>{kind_label(s.kind)}</td>
                                        <td>{if s.language == Language::En { texts.english } else { texts.german }}</td>
                                        <td class="snippet-excerpt">{excerpt}</td>
                                        <td class="row-actions">
                                            <button type="button" class="btn btn-quiet" on:click=move |_| start(Some(edit.clone()))>{t().common().edit}</button>
                                            <button type="button" class="btn btn-danger-quiet" on:click=move |_| { to_delete.set(Some(del.clone())); confirm.set(true); }>{t().common().delete}</button>
                                        </td>
                                    </tr>
                                }
                            }).collect_view()}
                        </tbody>
                    </table>
                }.into_any(),
            }}
        </section>
        <Dialog open=open title=Signal::derive(move || if editing.get().is_some() { texts.edit_snippet.to_string() } else { texts.new_snippet.to_string() })>
            <form class="dialog-form" id="snippet-form" on:submit=submit novalidate>
                <Field id="snippet-name" label=texts.snippet_name required=true error=error_of(errors, "name")>
                    <input id="snippet-name" type="text" bind:value=name />
                </Field>
                <Field id="snippet-kind" label=texts.snippet_kind error=error_of(errors, "kind")>
                    <select id="snippet-kind" on:change=move |ev| kind.set(SnippetKind::parse(&event_target_value(&ev)).unwrap_or(SnippetKind::Salutation))>
                        {SnippetKind::ALL.into_iter().map(|k| view! {
                            <option value=k.as_str() selected=move || kind.get() == k>{kind_label(k)}</option>
                        }).collect_view()}
                    </select>
                </Field>
                <Field id="snippet-language" label=texts.snippet_language error=error_of(errors, "language")>
                    <select id="snippet-language" on:change=move |ev| language.set(if event_target_value(&ev) == "en" { Language::En } else { Language::De })>
                        <option value="de" selected=move || language.get() == Language::De>{texts.german}</option>
                        <option value="en" selected=move || language.get() == Language::En>{texts.english}</option>
                    </select>
                </Field>
                <Field id="snippet-text" label=texts.snippet_text required=true error=error_of(errors, "text")>
                    <textarea id="snippet-text" rows="6" bind:value=text></textarea>
                </Field>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="submit" class="btn btn-primary" id="snippet-save" disabled=move || pending.get()>{t().common().save}</button>
                </div>
            </form>
        </Dialog>
        <ConfirmDialog open=confirm
            title=Signal::derive(move || to_delete.get().map(|s| fill(texts.delete_snippet, &[("name", &s.name)])).unwrap_or_default())
            text=texts.delete_text confirm_label=t().common().delete confirm_id="confirm-delete-snippet"
            on_confirm=remove />
    }
}
