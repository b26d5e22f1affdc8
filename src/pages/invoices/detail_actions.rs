//! The actions the rules allow right now (others are absent): edit and finalize a draft,
//! move the status among `InvoiceStatus::permitted_moves()`, delete (a draft by anyone;
//! a finalized invoice by an admin with a reason, unless the account never allows it;
//! never a locked, reversal or reversed one — `check_invoice_delete`), send by e-mail and
//! reverse. Every change is
//! confirmed in a dialog.

use super::detail_copy::CopyInvoiceAction;
use super::detail_credit_note::{creditable, CreditNoteAction};
use super::detail_email::SendEmailAction;
use super::detail_reverse::ReverseAction;
use crate::api::einvoices::get_invoice_readiness;
use crate::api::invoices::{delete_invoice, update_invoice_status};
use crate::components::dialog::Dialog;
use crate::components::einvoice_missing::MissingDialog;
use crate::components::frame::{admin_state, AccountContext};
use crate::components::toast::Toasts;
use crate::i18n::{fill, status_label, t};
use crate::paths::href;
use kontor_model::einvoice::MissingField;
use kontor_model::invoice::Invoice;
use kontor_model::status::{
    can_reverse_invoice, check_invoice_delete, DeleteRefusal, InvoiceDeletion, InvoiceStatus,
};
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The action buttons of an invoice, with their dialogs.
#[component]
pub fn InvoiceActions(
    /// The invoice acted on.
    invoice: Invoice,
    /// Called after a successful status change.
    on_changed: Callback<()>,
    /// The customer receives XRechnung (`einvoice_format` `xrechnung_*`): finalizing with
    /// e-invoice data missing is refused (the server answers 422 too).
    #[prop(into, default = Signal::stored(false))]
    xrechnung_customer: Signal<bool>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let (id, status, locked) = (invoice.id, invoice.status, invoice.locked);
    let is_draft = status == InvoiceStatus::Draft;
    let texts = t().invoice_detail_actions();
    let number = invoice.identifier.clone();
    let moves: Vec<InvoiceStatus> = status
        .permitted_moves()
        .iter()
        .copied()
        .filter(|_| !is_draft)
        .collect();
    // Offered when the rules allow it with a reason given (the dialog asks for one unless
    // it is a draft): never for a reversal, a reversed or a locked invoice; a finalized
    // one only for admins, and not when the account says never (issue 29).
    let admin = admin_state();
    let account = AccountContext::use_context().map(|c| c.account());
    let policy = Signal::derive(move || {
        account
            .and_then(|a| a.get())
            .and_then(Result::ok)
            .map(|a| a.finalized_invoice_deletion)
            .unwrap_or_default()
    });
    // A credit note counts as a correction, a credited invoice as corrected (issue 33).
    let (reversal, reversed) = (
        invoice.reversal || invoice.credit_note,
        invoice.reversed || invoice.credit_notes.as_ref().is_some_and(|c| !c.is_empty()),
    );
    let deletion = move || InvoiceDeletion {
        status,
        locked,
        reversal,
        reversed,
        admin: admin.get().unwrap_or(false),
        policy: policy.get(),
    };
    let deletable = Signal::derive(move || {
        check_invoice_delete(deletion(), Some("reason given in the dialog")).is_ok()
    });
    let pdf = invoice.file_url.clone();
    // A credit note and an invoice with credit notes are not reversed (issue 33).
    let reversible = can_reverse_invoice(status, reversal, reversed);
    let send = (!is_draft)
        .then(|| view! { <SendEmailAction invoice=invoice.clone() on_changed=on_changed /> });
    let reverse = reversible.then(|| view! { <ReverseAction invoice=invoice.clone() /> });
    let credit =
        creditable(&invoice).then(|| view! { <CreditNoteAction invoice=invoice.clone() /> });

    let target = RwSignal::new(None::<InvoiceStatus>);
    let status_open = RwSignal::new(false);
    let change = Action::new_local(move |to: &InvoiceStatus| {
        let to = *to;
        async move { update_invoice_status(id, to).await }
    });
    let number_ = number.clone();
    Effect::new(move |_| match change.value().get() {
        Some(Ok(updated)) => {
            status_open.set(false);
            let status = status_label(updated.status.as_str());
            let done = match (is_draft, &number_) {
                (true, _) => fill(
                    texts.finalized_as,
                    &[("number", &updated.identifier.unwrap_or_default())],
                ),
                (false, Some(n)) => fill(texts.status_now, &[("number", n), ("status", &status)]),
                (false, None) => fill(texts.status_now_draft, &[("status", &status)]),
            };
            toasts.success(done);
            on_changed.run(());
        }
        Some(Err(e)) => {
            status_open.set(false);
            toasts.error(fill(texts.status_failed, &[("message", &e.message)]));
        }
        None => {}
    });
    // Finalizing a backdated draft warns first (issue 34).
    let backdated = RwSignal::new(None::<String>);
    let draft_date = invoice.date;
    let ask_move = move |to: InvoiceStatus| {
        if is_draft && to == InvoiceStatus::Created {
            crate::components::backdating::load_backdated_warning(Some(draft_date), backdated);
        } else {
            backdated.set(None);
        }
        target.set(Some(to));
        status_open.set(true);
    };

    // Finalizing a draft: first ask the server what an e-invoice of it still lacks (the
    // draft is stored, so the answer is about what gets finalized). Nothing missing →
    // the usual question; else the missing fields with where to set them, and "Finalize
    // anyway" unless the customer receives XRechnung.
    let missing = RwSignal::new(Vec::<MissingField>::new());
    let missing_open = RwSignal::new(false);
    let check = Action::new_local(move |_: &()| async move { get_invoice_readiness(id).await });
    Effect::new(move |_| match check.value().get() {
        Some(Ok(r)) => {
            let gaps = r.missing_before_finalizing();
            if gaps.is_empty() {
                ask_move(InvoiceStatus::Created);
            } else {
                crate::components::backdating::load_backdated_warning(Some(draft_date), backdated);
                target.set(Some(InvoiceStatus::Created));
                missing.set(gaps);
                missing_open.set(true);
            }
        }
        // The check is advice: when it cannot run, finalizing asks as before (the server
        // still refuses what XRechnung customers must not get).
        Some(Err(_)) => ask_move(InvoiceStatus::Created),
        None => {}
    });
    let check_pending = check.pending();
    let customer_id = invoice.customer_id;

    let delete_open = RwSignal::new(false);
    let reason = RwSignal::new(String::new());
    let delete_error = RwSignal::new(None::<String>);
    let delete = Action::new_local(move |reason: &Option<String>| {
        let reason = reason.clone();
        async move { delete_invoice(id, reason).await }
    });
    let number_ = number.clone();
    Effect::new(move |_| match delete.value().get() {
        Some(Ok(())) => {
            delete_open.set(false);
            toasts.success(match &number_ {
                Some(n) => fill(texts.deleted, &[("number", n)]),
                None => texts.deleted_draft.to_string(),
            });
            navigate("/invoices", Default::default());
        }
        Some(Err(e)) if e.is_unprocessable() => delete_error.set(Some(e.message)),
        Some(Err(e)) => {
            delete_open.set(false);
            toasts.error(fill(texts.delete_failed, &[("message", &e.message)]));
        }
        None => {}
    });
    let confirm_delete = move |_| {
        let text = reason.get_untracked();
        match check_invoice_delete(deletion(), Some(&text)) {
            Ok(()) => {
                delete_error.set(None);
                delete.dispatch_local(Some(text).filter(|_| !is_draft));
            }
            Err(DeleteRefusal::ReasonRequired) => {
                delete_error.set(Some(texts.reason_required.to_string()))
            }
            Err(_) => delete_error.set(Some(texts.locked_no_delete.to_string())),
        }
    };
    let open_delete = move |_| {
        reason.set(String::new());
        delete_error.set(None);
        delete_open.set(true);
    };

    let status_title = Signal::derive(move || match target.get() {
        Some(InvoiceStatus::Created) if is_draft => texts.finalize_title.to_string(),
        Some(to) => fill(
            texts.mark_as_question,
            &[("status", &status_label(to.as_str()).to_lowercase())],
        ),
        None => String::new(),
    });
    let delete_title = match (&number, is_draft) {
        (Some(n), false) => fill(texts.delete_title, &[("number", n)]),
        _ => texts.delete_title_draft.to_string(),
    };
    let change_pending = change.pending();
    let delete_pending = delete.pending();
    view! {
        <div class="page-actions">
            {pdf.map(|url| {
                view! {
                    <a class="btn btn-quiet" href=url target="_blank" rel="noopener">
                        {texts.pdf}
                    </a>
                }
            })}
            {send}
            {is_draft
                .then(|| {
                    view! {
                        <a class="btn" href=href(&format!("/invoices/{id}/edit"))>{t().common().edit}</a>
                        <button type="button" class="btn btn-primary" id="finalize"
                            disabled=move || check_pending.get()
                            on:click=move |_| { check.dispatch_local(()); }>
                            {texts.finalize}
                        </button>
                    }
                })}
            {(!moves.is_empty())
                .then(|| {
                    view! {
                        <label class="visually-hidden" for="status-move">{texts.change_status}</label>
                        <select
                            id="status-move"
                            class="select-action"
                            prop:value=move || target.get().filter(|_| status_open.get()).map(|s| s.as_str()).unwrap_or_default()
                            on:change=move |ev| {
                                if let Some(to) = InvoiceStatus::parse(&event_target_value(&ev)) {
                                    ask_move(to);
                                }
                            }
                        >
                            <option value="">{texts.change_status_choose}</option>
                            {moves.iter().map(|s| view! {
                                <option value=s.as_str()>
                                    {fill(texts.mark_as, &[("status", &status_label(s.as_str()).to_lowercase())])}
                                </option>
                            }).collect_view()}
                        </select>
                    }
                })}
            <CopyInvoiceAction invoice_id=id />
            {credit}
            {reverse}
            {move || deletable
                .get()
                .then(|| {
                    view! {
                        <button type="button" class="btn btn-danger-quiet" on:click=open_delete>
                            {texts.delete}
                        </button>
                    }
                })}
        </div>
        <Dialog open=status_open title=status_title>
            <p>
                {move || match target.get() {
                    Some(InvoiceStatus::Created) if is_draft => {
                        texts.finalize_text.to_string()
                    }
                    Some(to) => fill(
                        texts.status_changes,
                        &[("from", &status_label(status.as_str())), ("to", &status_label(to.as_str()))],
                    ),
                    None => String::new(),
                }}
            </p>
            {move || backdated.get().map(|w| view! { <p class="confirm-warning" role="alert">{w}</p> })}
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| status_open.set(false)>
                    {t().common().cancel}
                </button>
                <button
                    type="button"
                    class="btn btn-primary"
                    autofocus
                    disabled=move || change_pending.get()
                    on:click=move |_| {
                        if let Some(to) = target.get_untracked() {
                            change.dispatch_local(to);
                        }
                    }
                >
                    {if is_draft { texts.finalize } else { texts.change_status }}
                </button>
            </div>
        </Dialog>
        <MissingDialog
            open=missing_open
            missing=missing
            customer_id=Signal::stored(customer_id)
            invoice_id=id
            blocked=xrechnung_customer
            pending=change_pending
            on_finalize=Callback::new(move |_| {
                change.dispatch_local(InvoiceStatus::Created);
            })
            warning=backdated
        />
        <Dialog open=delete_open title=delete_title>
            {if is_draft {
                view! { <p>{texts.delete_draft_text}</p> }.into_any()
            } else {
                view! {
                    <p>{texts.delete_text}</p>
                    <div class="field">
                        <label for="delete-reason">{texts.reason} <span class="required">" *"</span></label>
                        <textarea id="delete-reason" rows="3" autofocus bind:value=reason></textarea>
                    </div>
                }
                .into_any()
            }}
            <p class="field-error" role="alert">{move || delete_error.get()}</p>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| delete_open.set(false)>
                    {t().common().cancel}
                </button>
                <button type="button" class="btn btn-danger" disabled=move || delete_pending.get() on:click=confirm_delete>
                    {texts.delete}
                </button>
            </div>
        </Dialog>
    }
}
