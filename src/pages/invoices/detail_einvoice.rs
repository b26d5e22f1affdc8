//! The invoice's e-invoice (issue 10): a status line saying whether the PDF is a valid
//! e-invoice (Factur-X, EN 16931) or what is missing and where it is set, and the
//! "Download XRechnung (XML)" action with the CII/UBL choice.

use crate::api::einvoices::{field_label, get_invoice_xml, Readiness, Syntax};
use crate::api::ApiError;
use crate::components::einvoice_missing::MissingList;
use crate::components::pdf_preview::save_blob;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::einvoice::{MissingField, Place};
use leptos::prelude::*;

/// The status sentence of `readiness`: "E-invoice: Factur-X (EN 16931)" when the PDF
/// carries the XML; "E-invoice: XRechnung (XML)" when only the XML can be written (the
/// account switched Factur-X off); else "Not an e-invoice: <fields> — set in <places>".
pub fn status_text(readiness: &Readiness, is_draft: bool) -> String {
    let missing: Vec<MissingField> = if is_draft {
        readiness.missing_before_finalizing()
    } else {
        readiness.missing.clone()
    };
    let texts = t().invoice_detail_einvoice();
    if readiness.factur_x {
        return texts.factur_x.into();
    }
    if readiness.ready {
        return texts.xml_only.into();
    }
    if is_draft && missing.is_empty() {
        return texts.draft_complete.into();
    }
    let fields: Vec<String> = missing.iter().map(|m| field_label(&m.field)).collect();
    let mut places: Vec<&str> = Vec::new();
    for m in &missing {
        let name = match m.place {
            Place::Settings => texts.place_settings,
            Place::Customer => texts.place_customer,
            Place::Invoice => texts.place_invoice,
        };
        if !places.contains(&name) {
            places.push(name);
        }
    }
    fill(
        texts.not_einvoice,
        &[
            ("fields", &fields.join(", ")),
            ("places", &places.join("/")),
        ],
    )
}

/// The e-invoice line under the invoice header: status and, when the XML can be
/// written, the download with the syntax choice.
#[component]
pub fn EInvoiceBar(
    /// The invoice id.
    invoice_id: i64,
    /// The invoice's customer.
    customer_id: i64,
    /// The invoice number (the file name); `None` for drafts.
    identifier: Option<String>,
    /// The readiness answer (loaded by the page).
    readiness: LocalResource<Result<Readiness, ApiError>>,
) -> impl IntoView {
    let is_draft = identifier.is_none();
    let texts = t().invoice_detail_einvoice();
    let toasts = Toasts::use_context();
    let syntax = RwSignal::new(Syntax::Cii);
    let file_name = StoredValue::new(format!(
        "{}.xml",
        identifier
            .clone()
            .unwrap_or_else(|| texts.file_fallback.into())
    ));
    let download = Action::new_local(move |syntax: &Syntax| {
        let syntax = *syntax;
        async move {
            let blob = get_invoice_xml(invoice_id, syntax).await?;
            save_blob(&blob, &file_name.get_value())
        }
    });
    Effect::new(move |_| {
        if let Some(Err(e)) = download.value().get() {
            let fields: Vec<String> = e.errors.keys().map(|k| field_label(k)).collect();
            let detail = if fields.is_empty() {
                e.message
            } else {
                format!("{} ({})", e.message, fields.join(", "))
            };
            toasts.error(fill(texts.download_failed, &[("detail", &detail)]));
        }
    });
    let pending = download.pending();
    let details_open = RwSignal::new(false);
    view! {
        <section class="einvoice-bar" aria-label=texts.label>
            {move || match readiness.get() {
                None => view! { <p class="einvoice-status muted">{texts.checking}</p> }.into_any(),
                Some(Err(e)) => view! {
                    <p class="einvoice-status muted">{fill(texts.unknown, &[("message", &e.message)])}</p>
                }
                .into_any(),
                Some(Ok(r)) => {
                    let text = status_text(&r, is_draft);
                    let missing = if is_draft { r.missing_before_finalizing() } else { r.missing.clone() };
                    let good = r.factur_x || r.ready || missing.is_empty();
                    let show_missing = !good && !missing.is_empty();
                    let downloadable = r.ready && !is_draft;
                    view! {
                        <div class="einvoice-line">
                            <p class="einvoice-status" class:is-ok=good class:is-missing=!good id="einvoice-status">
                                <span class="einvoice-mark" aria-hidden="true">{if good { "✓" } else { "!" }}</span>
                                {text}
                                {show_missing.then(|| view! {
                                    " "
                                    <button type="button" class="btn-link" aria-expanded=move || details_open.get().to_string()
                                        on:click=move |_| details_open.update(|o| *o = !*o)>
                                        {move || if details_open.get() { texts.hide_details } else { texts.details }}
                                    </button>
                                })}
                            </p>
                            {downloadable.then(|| view! {
                                <div class="einvoice-download">
                                    <label class="visually-hidden" for="xml-syntax">{texts.xml_syntax}</label>
                                    <select id="xml-syntax" on:change=move |ev| syntax.set(Syntax::parse(&event_target_value(&ev)))>
                                        {[Syntax::Cii, Syntax::Ubl].into_iter().map(|s| view! {
                                            <option value=s.as_str() selected=move || syntax.get() == s>{s.label()}</option>
                                        }).collect_view()}
                                    </select>
                                    <button type="button" class="btn btn-quiet" id="download-xml"
                                        disabled=move || pending.get()
                                        on:click=move |_| { download.dispatch_local(syntax.get_untracked()); }>
                                        {move || if pending.get() { texts.preparing } else { texts.download_xml }}
                                    </button>
                                </div>
                            })}
                        </div>
                        {show_missing.then(|| view! {
                            <Show when=move || details_open.get()>
                                <MissingList missing=missing.clone() customer_id=customer_id invoice_id=invoice_id />
                            </Show>
                        })}
                    }
                    .into_any()
                }
            }}
        </section>
    }
}
