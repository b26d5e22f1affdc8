//! The check of an imported e-invoice on the purchase page (issue 36): the BMF class of
//! the worst finding (formal, content, other) or "valid", every finding with its rule,
//! business term and what is wrong (in the user's language), and "Ask for a corrected
//! invoice" — an e-mail to the seller listing the findings
//! (`POST /purchases/{id}/correction_request`).

use crate::api::purchases::request_corrected_invoice;
use crate::components::dialog::Dialog;
use crate::components::field::Field;
use crate::components::toast::Toasts;
use crate::i18n::{fill, language, t, Lang};
use kontor_model::einvoice_check::{DefectClass, EinvoiceCheck, Finding};
use leptos::prelude::*;

/// The badge tone and sentence of a check's class.
pub fn class_text(class: Option<DefectClass>) -> (&'static str, &'static str) {
    let texts = t().einvoice_check();
    match class {
        None => ("paid", texts.valid),
        Some(DefectClass::Formal) => ("overdue", texts.class_formal),
        Some(DefectClass::Content) => ("overdue", texts.class_content),
        Some(DefectClass::Other) => ("pending", texts.class_other),
    }
}

/// A finding's text in the user's language (the English one when no German is stored).
fn finding_text(f: &Finding) -> String {
    if language() == Lang::De && !f.message_de.is_empty() {
        f.message_de.clone()
    } else {
        f.message.clone()
    }
}

/// The section: class, findings, and the correction request with its dialog.
#[component]
pub fn EinvoiceCheckSection(
    /// The purchase.
    purchase_id: i64,
    /// Its check.
    check: EinvoiceCheck,
) -> impl IntoView {
    let texts = t().einvoice_check();
    let toasts = Toasts::use_context();
    let (tone, sentence) = class_text(check.class);
    let open = RwSignal::new(false);
    let to = RwSignal::new(String::new());
    let failure = RwSignal::new(None::<String>);
    let send = Action::new_local(move |_: &()| {
        let to = Some(to.get_untracked().trim().to_string()).filter(|t| !t.is_empty());
        async move { request_corrected_invoice(purchase_id, to, language().code()).await }
    });
    Effect::new(move |_| match send.value().get() {
        Some(Ok(sent)) => {
            open.set(false);
            toasts.success(fill(texts.sent, &[("to", &sent.emails_to)]));
        }
        Some(Err(e)) => failure.set(Some(fill(texts.send_failed, &[("message", &e.message)]))),
        None => {}
    });
    let sending = send.pending();
    let rows = check
        .findings
        .iter()
        .map(|f| {
            let (class_tone, _) = class_text(Some(f.class));
            view! {
                <tr data-rule=f.rule.clone() data-class=f.class.as_str()>
                    <td><code>{f.rule.clone()}</code></td>
                    <td>{f.term.clone()}</td>
                    <td><span class=format!("badge badge-{class_tone}")>{class_label(f.class)}</span></td>
                    <td>{finding_text(f)}</td>
                </tr>
            }
        })
        .collect_view();
    let has_findings = !check.findings.is_empty();
    view! {
        <section class="section" aria-labelledby="einvoice-check-title" id="einvoice-check"
            data-valid=check.valid.to_string() data-class=check.class.map(|c| c.as_str()).unwrap_or("")>
            <div class="section-head">
                <h2 class="section-title" id="einvoice-check-title">{texts.title}</h2>
                <span class=format!("badge badge-{tone}") id="einvoice-check-class">{sentence}</span>
                {has_findings.then(|| view! {
                    <button type="button" class="btn btn-small" id="einvoice-ask-correction"
                        on:click=move |_| { failure.set(None); open.set(true); }>
                        {texts.ask_correction}
                    </button>
                })}
            </div>
            {check.holds_approval().then(|| view! { <p class="muted">{texts.held}</p> })}
            {has_findings.then(|| view! {
                <div class="table-wrap">
                    <table class="table einvoice-findings" id="einvoice-findings">
                        <thead>
                            <tr>
                                <th scope="col">{texts.rule}</th>
                                <th scope="col">{texts.term}</th>
                                <th scope="col">{texts.class}</th>
                                <th scope="col">{texts.finding}</th>
                            </tr>
                        </thead>
                        <tbody>{rows}</tbody>
                    </table>
                </div>
            })}
        </section>
        <Dialog open=open title=texts.ask_correction.to_string()>
            <p>{texts.correction_text}</p>
            <Field id="correction-to" label=texts.to_label hint=texts.to_hint.to_string()
                error=Signal::derive(move || failure.get())>
                <input type="email" id="correction-to" prop:value=move || to.get()
                    on:input=move |ev| to.set(event_target_value(&ev)) />
            </Field>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                <button type="button" class="btn btn-primary" id="correction-send" disabled=move || sending.get()
                    on:click=move |_| { send.dispatch_local(()); }>
                    {texts.send}
                </button>
            </div>
        </Dialog>
    }
}

/// The short name of a finding's class.
fn class_label(class: DefectClass) -> &'static str {
    let texts = t().einvoice_check();
    match class {
        DefectClass::Formal => texts.formal,
        DefectClass::Content => texts.content,
        DefectClass::Other => texts.other,
    }
}
