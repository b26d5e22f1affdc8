//! Credit notes (Rechnungskorrektur, issue 33): the "Credit note" action on a finalized
//! invoice — a dialog to pick positions (in full or a part of their quantity) and a free
//! amount, which lands on the new credit note — and the links between an invoice and its
//! credit notes. The rules are the server's (`kontor_model::credit_note`); the dialog
//! shows its field messages.

use crate::api::invoices::{credit_invoice, get_invoice};
use crate::api::ApiError;
use crate::components::dialog::Dialog;
use crate::components::field::{field_message, localized_message};
use crate::components::locale::{format_places, parse_typed};
use crate::components::money::format_money;
use crate::components::task::{load_once, Task};
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::credit_note::{credit_refusal, CreditNoteItem, NewCreditNote};
use kontor_model::error::FieldErrors;
use kontor_model::invoice::{Invoice, InvoiceItem};
use kontor_model::position::PositionType;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;
use rust_decimal::Decimal;

/// Whether `invoice` can be credited (finalized, not a correction, not reversed).
pub fn creditable(invoice: &Invoice) -> bool {
    credit_refusal(
        invoice.status,
        invoice.reversal,
        invoice.reversed,
        invoice.credit_note,
    )
    .is_none()
}

/// One position of the dialog: the invoice's item, whether it is credited, and the
/// typed quantity (empty for a lump sum).
#[derive(Clone)]
struct Row {
    item: InvoiceItem,
    picked: RwSignal<bool>,
    quantity: RwSignal<String>,
}

/// The body the dialog's state asks for; `Err(message)` for a number that is not one.
fn body_of(rows: &[Row], free_title: &str, free_amount: &str) -> Result<NewCreditNote, String> {
    let mut items = Vec::new();
    for row in rows.iter().filter(|r| r.picked.get_untracked()) {
        let full = row.item.quantity.map(|q| q.abs());
        let quantity = match full {
            None => None,
            Some(full) => {
                let typed = parse_typed(&row.quantity.get_untracked())
                    .map_err(|m| format!("{}: {}", row.item.title, localized_message(&m)))?;
                typed.filter(|q| *q != full)
            }
        };
        items.push(CreditNoteItem {
            id: Some(row.item.id),
            quantity,
            ..Default::default()
        });
    }
    let amount = parse_typed(free_amount).map_err(|m| localized_message(&m))?;
    if !free_title.trim().is_empty() || amount.is_some() {
        items.push(CreditNoteItem {
            kind: Some(PositionType::Item),
            title: Some(free_title.trim().to_string()),
            quantity: Some(Decimal::ONE),
            unit_price: amount,
            ..Default::default()
        });
    }
    Ok(NewCreditNote { items })
}

/// Every field message of a refused credit note, one line each, in the user's language:
/// `items` first, then the positions' fields.
fn messages_of(errors: &FieldErrors) -> Vec<String> {
    errors
        .keys()
        .filter_map(|path| field_message(errors, path))
        .collect()
}

/// The "Credit note" button and its dialog (only for a creditable invoice).
#[component]
pub fn CreditNoteAction(
    /// The invoice to credit, with its items.
    invoice: Invoice,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let texts = t().invoice_detail_actions();
    let id = invoice.id;
    let currency = invoice.currency.clone();
    let number = invoice.identifier.clone().unwrap_or_default();
    let rows: Vec<Row> = invoice
        .items
        .iter()
        .flatten()
        .filter(|i| i.kind == PositionType::Item)
        .map(|item| Row {
            quantity: RwSignal::new(
                item.quantity
                    .map(|q| format_places(q.abs(), q.normalize().scale()))
                    .unwrap_or_default(),
            ),
            picked: RwSignal::new(false),
            item: item.clone(),
        })
        .collect();
    let open = RwSignal::new(false);
    let free_title = RwSignal::new(String::new());
    let free_amount = RwSignal::new(String::new());
    let problems = RwSignal::new(Vec::<String>::new());
    let task = Task::new();
    let pending = task.pending;
    let finished = move |answer: Result<Invoice, ApiError>| match answer {
        Ok(note) => {
            open.set(false);
            toasts.success(fill(
                texts.credit_note_created,
                &[("number", &note.identifier.clone().unwrap_or_default())],
            ));
            navigate(&format!("/invoices/{}", note.id), Default::default());
        }
        Err(e) if !e.errors.is_empty() => problems.set(messages_of(&e.errors)),
        Err(e) => problems.set(vec![e.message]),
    };
    let rows_ = rows.clone();
    let submit = move |_| match body_of(
        &rows_,
        &free_title.get_untracked(),
        &free_amount.get_untracked(),
    ) {
        Ok(body) if body.items.is_empty() => problems.set(vec![texts.credit_note_pick.to_string()]),
        Ok(body) => {
            problems.set(Vec::new());
            task.run(credit_invoice(id, body), finished.clone());
        }
        Err(message) => problems.set(vec![message]),
    };
    let open_dialog = move |_| {
        problems.set(Vec::new());
        open.set(true);
    };
    view! {
        <button type="button" class="btn btn-quiet" id="credit-note" on:click=open_dialog>
            {texts.credit_note}
        </button>
        <Dialog open=open title=fill(texts.credit_note_title, &[("number", &number)]) class="dialog-wide">
            <p>{texts.credit_note_text}</p>
            <table class="credit-note-positions">
                <thead>
                    <tr>
                        <th scope="col">{texts.credit_note_credit}</th>
                        <th scope="col">{texts.credit_note_position}</th>
                        <th scope="col" class="num">{texts.credit_note_quantity}</th>
                        <th scope="col" class="num">{texts.credit_note_net}</th>
                    </tr>
                </thead>
                <tbody>
                    {rows.clone().into_iter().map(|row| {
                        let Row { item, picked, quantity } = row;
                        let check_id = format!("credit-pos-{}", item.id);
                        let quantity_id = format!("credit-qty-{}", item.id);
                        let net = format_money(item.net_total, &currency);
                        view! {
                            <tr>
                                <td>
                                    <input type="checkbox" id=check_id.clone() bind:checked=picked />
                                </td>
                                <td><label for=check_id>{item.title.clone()}</label></td>
                                <td class="num">
                                    {match item.quantity {
                                        Some(_) => view! {
                                            <input type="text" inputmode="decimal" class="input-narrow num"
                                                id=quantity_id
                                                aria-label=fill(texts.credit_note_quantity_of, &[("title", &item.title)])
                                                disabled=move || !picked.get()
                                                bind:value=quantity />
                                            " " {item.unit.clone().unwrap_or_default()}
                                        }.into_any(),
                                        None => view! { <span class="muted">{texts.credit_note_lump_sum}</span> }.into_any(),
                                    }}
                                </td>
                                <td class="num money">{net}</td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
            <fieldset class="credit-note-free">
                <legend>{texts.credit_note_free}</legend>
                <div class="field">
                    <label for="credit-free-title">{texts.credit_note_free_title}</label>
                    <input type="text" id="credit-free-title" bind:value=free_title />
                </div>
                <div class="field">
                    <label for="credit-free-amount">{texts.credit_note_free_amount}</label>
                    <input type="text" inputmode="decimal" class="num" id="credit-free-amount" bind:value=free_amount />
                </div>
            </fieldset>
            <div class="field-error" role="alert" id="credit-note-errors">
                {move || problems.get().into_iter().map(|p| view! { <p>{p}</p> }).collect_view()}
            </div>
            <div class="dialog-actions">
                <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                {
                    let submit = submit.clone();
                    view! {
                        <button type="button" class="btn btn-primary" id="confirm-credit-note"
                            disabled=move || pending.get() on:click=submit>
                            {texts.create_credit_note}
                        </button>
                    }
                }
            </div>
        </Dialog>
    }
}

/// On a credit note: "Credit note for invoice …" with a link; on a credited invoice: its
/// credit notes with their amounts; nothing otherwise.
#[component]
pub fn CreditNoteLinks(
    /// The invoice shown.
    invoice: Invoice,
) -> impl IntoView {
    let texts = t().invoice_detail_actions();
    if let Some(other) = invoice.credited_invoice_id {
        let number = load_once(get_invoice(other));
        let label = move || match number.get() {
            Some(Ok(i)) => fill(
                texts.invoice_number,
                &[("number", &i.identifier.unwrap_or_default())],
            ),
            _ => fill(texts.invoice_id, &[("id", &other.to_string())]),
        };
        let (before, after) =
            crate::components::timeline::split_at_placeholder(texts.credit_note_for, "invoice");
        return Some(
            view! {
                <p class="reversal-link" data-credited-invoice=other.to_string()>
                    {before} <a href=href(&format!("/invoices/{other}"))>{label}</a> {after}
                </p>
            }
            .into_any(),
        );
    }
    let notes = invoice.credit_notes.clone().filter(|n| !n.is_empty())?;
    let currency = invoice.currency.clone();
    Some(
        view! {
            <p class="reversal-link" id="credit-notes">
                {texts.credited_by} " "
                {notes.into_iter().enumerate().map(|(n, c)| view! {
                    {(n > 0).then_some(", ")}
                    <a href=href(&format!("/invoices/{}", c.id))>{c.identifier}</a>
                    " (" <span class="money">{format_money(c.gross_total, &currency)}</span> ")"
                }).collect_view()}
            </p>
        }
        .into_any(),
    )
}
