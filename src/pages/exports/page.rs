//! `/exports`: a period picker (default: last month; quick choices this month, last
//! month, this quarter, last year — the model's [`QuickPeriod`]), the number format of the
//! CSVs, and the four downloads with what each holds. A download fetches the file with
//! the key and saves it; the ZIP shows progress while the server renders the PDFs.
//! Failures (a 422 naming the period, DATEV settings missing) are shown at the download.

use crate::api::exports::{get_export, Export};
use crate::components::date::{iso, parse_iso, today};
use crate::components::locale::locale;
use crate::components::pdf_preview::save_blob;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::export::QuickPeriod;
use kontor_model::number_input::Locale;
use leptos::prelude::*;

/// What each download is, for the page: title and what it holds.
fn describe(export: Export) -> (&'static str, &'static str) {
    let texts = t().exports_downloads();
    match export {
        Export::Invoices => (texts.invoices_title, texts.invoices_text),
        Export::Purchases => (texts.purchases_title, texts.purchases_text),
        Export::Documents => (texts.documents_title, texts.documents_text),
        Export::Datev => (texts.datev_title, texts.datev_text),
    }
}

/// A quick choice's label in the user's language.
fn quick_label(quick: QuickPeriod) -> &'static str {
    let texts = t().exports_page();
    match quick {
        QuickPeriod::ThisMonth => texts.this_month,
        QuickPeriod::LastMonth => texts.last_month,
        QuickPeriod::ThisQuarter => texts.this_quarter,
        QuickPeriod::LastYear => texts.last_year,
    }
}

/// The hint under the period: a sentence with a link to the settings where its
/// `{settings}` placeholder stands.
fn period_hint() -> impl IntoView {
    let text = t().exports_page().hint;
    let (before, after) = text.split_once("{settings}").unwrap_or((text, ""));
    view! {
        <p class="field-hint">
            {before}
            <a href=href("/settings")>{t().nav().settings}</a>
            {after}
        </p>
    }
}

/// `/exports`.
#[component]
pub fn ExportsPage() -> impl IntoView {
    let (first, last) = QuickPeriod::LastMonth.range(today());
    let from = RwSignal::new(iso(first));
    let to = RwSignal::new(iso(last));
    let german = RwSignal::new(locale() == Locale::De);
    let texts = t().exports_page();
    let period = Memo::new(
        move |_| match (parse_iso(&from.get()), parse_iso(&to.get())) {
            (Some(first), Some(last)) if first <= last => Ok((first, last)),
            (Some(_), Some(_)) => Err(texts.ends_before_start),
            _ => Err(texts.choose_period),
        },
    );
    let choose = move |quick: QuickPeriod| {
        let (f, t) = quick.range(today());
        from.set(iso(f));
        to.set(iso(t));
    };
    view! {
        <div class="page-head">
            <h1>{t().nav().exports}</h1>
        </div>
        <section class="form-section exports-period" aria-labelledby="exports-period-title">
            <h2 class="section-title" id="exports-period-title">{texts.period}</h2>
            <div class="exports-quick" role="group" aria-label=texts.quick_choices>
                {QuickPeriod::ALL
                    .into_iter()
                    .map(|quick| {
                        let pressed = move || {
                            let (f, t) = quick.range(today());
                            (from.get() == iso(f) && to.get() == iso(t)).to_string()
                        };
                        view! {
                            <button type="button" class="btn btn-small" aria-pressed=pressed
                                id=format!("export-quick-{}", quick.label().to_lowercase().replace(' ', "-"))
                                on:click=move |_| choose(quick)>{quick_label(quick)}</button>
                        }
                    })
                    .collect_view()}
            </div>
            <div class="exports-dates">
                <div class="field">
                    <label for="export-from">{texts.from}</label>
                    <input id="export-from" type="date" required prop:value=move || from.get()
                        on:input=move |e| from.set(event_target_value(&e)) />
                </div>
                <div class="field">
                    <label for="export-to">{texts.to}</label>
                    <input id="export-to" type="date" required prop:value=move || to.get()
                        on:input=move |e| to.set(event_target_value(&e)) />
                </div>
                <div class="field">
                    <label for="export-numbers">{texts.numbers}</label>
                    <select id="export-numbers" on:change=move |e| german.set(event_target_value(&e) == "de")>
                        <option value="en" selected=move || !german.get()>{texts.numbers_en}</option>
                        <option value="de" selected=move || german.get()>{texts.numbers_de}</option>
                    </select>
                </div>
            </div>
            <p class="field-error" id="export-period-error" role="alert">
                {move || period.get().err().unwrap_or_default()}
            </p>
            {period_hint()}
        </section>
        <div class="exports-list">
            {Export::ALL
                .into_iter()
                .map(|export| view! { <ExportCard export=export period=period german=german /> })
                .collect_view()}
        </div>
    }
}

/// One download: title, what it holds, the button, progress and a failure.
#[component]
fn ExportCard(
    /// Which export.
    export: Export,
    /// The chosen period, or why it cannot be used.
    period: Memo<Result<(chrono::NaiveDate, chrono::NaiveDate), &'static str>>,
    /// CSVs with decimal commas and German column names.
    german: RwSignal<bool>,
) -> impl IntoView {
    let (title, text) = describe(export);
    let task = Task::new();
    let toasts = Toasts::use_context();
    let problem = RwSignal::new(String::new());
    let id = format!("export-{}", export.stem());
    let title_id = format!("{id}-title");
    let labelled_by = title_id.clone();
    let download = move |_| {
        let Ok((from, to)) = period.get_untracked() else {
            return;
        };
        problem.set(String::new());
        let name = export.file_name(from, to);
        task.run(
            get_export(export, from, to, german.get_untracked()),
            move |answer| match answer.and_then(|blob| save_blob(&blob, &name).map(|_| name)) {
                Ok(name) => {
                    toasts.success(fill(t().exports_downloads().downloaded, &[("name", &name)]))
                }
                Err(e) => {
                    let fields: Vec<String> = e
                        .errors
                        .iter()
                        .map(|(field, messages)| {
                            fill(
                                t().exports_page().field_error,
                                &[
                                    ("label", label(field)),
                                    (
                                        "message",
                                        &crate::components::field::localized_joined(messages, "; "),
                                    ),
                                ],
                            )
                        })
                        .collect();
                    problem.set(if fields.is_empty() {
                        e.message.clone()
                    } else {
                        fields.join(" ")
                    });
                }
            },
        );
    };
    let busy = task.pending;
    let texts = t().exports_downloads();
    let waiting = match export {
        Export::Documents => texts.building_zip,
        _ => texts.preparing_file,
    };
    view! {
        <section class="form-section export-card" aria-labelledby=labelled_by aria-busy=move || busy.get().to_string()>
            <h2 class="section-title" id=title_id>{title}</h2>
            <p class="muted">{text}</p>
            <div class="export-actions">
                <button type="button" class="btn btn-primary" id=id.clone()
                    disabled=move || busy.get() || period.get().is_err()
                    on:click=download>
                    {move || if busy.get() {
                        texts.preparing.to_string()
                    } else {
                        fill(texts.download, &[("file", &format!("{}.{}", export.stem(), export.ext()))])
                    }}
                </button>
                {move || busy.get().then(|| view! {
                    <span class="export-progress" role="status">
                        <span class="progress is-active" role="progressbar" aria-label=waiting></span>
                        <span class="muted">{waiting}</span>
                    </span>
                })}
            </div>
            <p class="field-error" role="alert" id=format!("{id}-error")>{move || problem.get()}</p>
        </section>
    }
}

/// What a field of an export's 422 is called on this page.
fn label(field: &str) -> &str {
    let texts = t().exports_page();
    match field {
        "from" => texts.from,
        "to" => texts.to,
        "datev.consultant_number" => texts.consultant_number,
        "datev.client_number" => texts.client_number,
        other => other,
    }
}
