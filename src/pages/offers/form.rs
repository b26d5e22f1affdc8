//! The offer form (`/offers/new`, and `/offers/{id}/edit` prefilled from the offer and
//! saved with `PUT /offers/{id}`): pickers with the company / deal / project rules, the
//! shared position editor with the `optional` toggle (totals leave optional positions
//! out), errors from the shared validation and from a 422 at the field, and the
//! unsaved-changes guard.

use super::form_fields::{Choices, OfferPartyFields, OfferTermsFields};
use super::form_state::{OfferFormState, TypedOffer};
use crate::api::create_or_update;
use crate::api::deals::list_deals;
use crate::api::offers::{create_offer, get_offer, update_offer};
use crate::api::outbox::{create_or_queue, QueueAs, Saved};
use crate::api::projects::list_projects;
use crate::api::session::get_account;
use crate::api::ApiError;
use crate::components::error_panel::loaded_view;
use crate::components::field::localized_errors;
use crate::components::field::{error_of, percent_signal, Field};
use crate::components::form_summary::{ErrorSummary, Form, PositionFormErrors};
use crate::components::leave_guard::use_snapshot_guard;
use crate::components::local_draft::{use_local_draft, LocalDraftNotice};
use crate::components::position_editor::PositionEditor;
use crate::components::route_record::{route_record, use_route_id};
use crate::components::snippet_picker::SnippetPicker;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use crate::paths::href;
use kontor_model::account::Account;
use kontor_model::article::SnippetKind;
use kontor_model::edit::offer_edit_refusal;
use kontor_model::error::FieldErrors;
use kontor_model::offer::{NewOffer, Offer};
use kontor_model::outbox::OutboxKind;
use kontor_model::validation::validate_new_offer;
use leptos::prelude::*;
use leptos_router::hooks::use_navigate;

/// The outbox list's label of a new offer: the recipient's first line, else the title.
fn outbox_label(body: &NewOffer) -> String {
    body.recipient_address
        .as_deref()
        .and_then(|a| a.lines().map(str::trim).find(|l| !l.is_empty()))
        .or(body.title.as_deref())
        .unwrap_or_default()
        .to_string()
}

async fn load() -> Result<(Choices, Account), ApiError> {
    let (account, deals, projects) =
        futures::try_join!(get_account(), list_deals(None), list_projects(None))?;
    let choices = Choices {
        deals: deals.items,
        projects: projects.items,
        currencies: account.currencies.clone(),
    };
    Ok((choices, account))
}

/// `/offers/new`.
#[component]
pub fn OfferCreate() -> impl IntoView {
    let data = LocalResource::new(load);
    loaded_view(data, 12, |(choices, account)| {
        view! { <OfferForm choices=choices account=account editing=None /> }
    })
}

/// `/offers/{id}/edit`: the creation form filled from the offer; an offer the model's
/// `offer_edit_refusal` refuses shows the reason and a link back instead.
#[component]
pub fn OfferEdit() -> impl IntoView {
    let id = use_route_id();
    let data = route_record(
        id,
        || t().offer_detail().bad_address,
        |id| async move { futures::try_join!(load(), get_offer(id)) },
    );
    loaded_view(data, 12, |((choices, account), offer)| {
        match offer_edit_refusal(offer.status) {
        Some(_) => view! {
            <div class="empty-state">
                <p>{t().offer_form().edit_refused}</p>
                <a class="btn" href=href(&format!("/offers/{}", offer.id))>{t().offer_form().back_to_offer}</a>
            </div>
        }
        .into_any(),
        None => view! { <OfferForm choices=choices account=account editing=Some(offer) /> }.into_any(),
    }
    })
}

/// The form, once the choices are loaded.
#[component]
fn OfferForm(
    /// Companies, deals, projects and currencies.
    choices: Choices,
    /// The account (default currency, default document texts).
    account: Account,
    /// The offer being edited (`None`: a new offer).
    editing: Option<Offer>,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let navigate = use_navigate();
    let state = match &editing {
        Some(offer) => OfferFormState::from_offer(offer, &choices.deals, &choices.projects),
        None => {
            let state = OfferFormState::blank(&account.default_currency);
            state.default_texts.set(account.document_texts);
            state
        }
    };
    // Fields the form does not show are sent back unchanged (PUT replaces the offer).
    let kept = editing.as_ref().map(|o| {
        (
            o.id,
            o.tags.clone(),
            o.custom_properties.clone(),
            o.print_detail_columns,
        )
    });
    let edit_id = kept.as_ref().map(|k| k.0);
    let cancel_to = match edit_id {
        Some(id) => format!("/offers/{id}"),
        None => "/offers".to_string(),
    };
    let kept = StoredValue::new(kept);
    let currencies = choices.currencies.clone();
    let choices = StoredValue::new(choices);
    let error_state = PositionFormErrors::new();
    let (errors, row_errors, summary) = (error_state.fields, error_state.rows, error_state.summary);
    let guard = use_snapshot_guard(Callback::new(move |_| state.snapshot()));
    // What is typed is kept in the browser until it is saved (issue 37).
    let local = use_local_draft(
        edit_id
            .map(|id| format!("offer.{id}"))
            .unwrap_or_else(|| "offer.new".into()),
        Callback::new(move |_| serde_json::to_value(state.typed()).unwrap_or_default()),
        Callback::new(move |value: serde_json::Value| {
            if let Ok(typed) = serde_json::from_value::<TypedOffer>(value) {
                choices.with_value(|c| state.restore_typed(&typed, &c.deals, &c.projects));
            }
        }),
    );
    let save = Task::new();
    let show_errors = move |message: String, all: FieldErrors| {
        let rows = state.rows.get_untracked();
        error_state.show_all(Form::Offer, message, &all, &rows);
    };
    let saved = move |answer: Result<Saved<Offer>, ApiError>| match answer {
        Ok(Saved::Queued) => {
            local.queued(&guard, &toasts);
            navigate("/offers", Default::default());
        }
        Ok(Saved::Stored(offer)) => {
            guard.mark_saved();
            local.saved();
            let text = if edit_id.is_some() {
                t().offer_form().saved
            } else {
                t().offer_form().created
            };
            toasts.success(fill(text, &[("identifier", &offer.identifier)]));
            navigate(&format!("/offers/{}", offer.id), Default::default());
        }
        Err(e) if e.is_unprocessable() && !e.errors.is_empty() => show_errors(e.message, e.errors),
        Err(e) => summary.set(Some((e.message, Vec::new()))),
    };
    let submit = move |ev: leptos::ev::SubmitEvent| {
        ev.prevent_default();
        let (mut body, mut all) = state.body();
        kept.with_value(|k| {
            if let Some((_, tags, props, detail)) = k {
                body.tags = Some(tags.clone());
                body.custom_properties = Some(props.clone());
                body.print_detail_columns = Some(*detail);
            }
        });
        all.extend(choices.with_value(|c| validate_new_offer(&body, &c.currencies)));
        if !all.is_empty() {
            show_errors(
                t().offer_form().correct_fields.into(),
                localized_errors(all),
            );
            return;
        }
        error_state.clear();
        // A new offer saved while the server cannot be reached waits in the outbox
        // (issue 37).
        let queue_as = edit_id.is_none().then(|| QueueAs {
            kind: OutboxKind::Offer,
            label: outbox_label(&body),
            form_name: "offer.new".into(),
            form_path: "/offers/new".into(),
            form: serde_json::to_value(state.typed()).unwrap_or_default(),
        });
        save.run(
            async move {
                match queue_as {
                    Some(queue_as) => create_or_queue(&body, queue_as).await,
                    None => create_or_update(edit_id, &body, create_offer, update_offer)
                        .await
                        .map(Saved::Stored),
                }
            },
            saved.clone(),
        );
    };
    let pending = save.pending;
    let tax = percent_signal(state.tax);
    let discount = percent_signal(state.discount);
    view! {
        <form class="invoice-form offer-form" novalidate on:submit=submit>
            <div class="page-head">
                <h1>{if edit_id.is_some() { t().offer_form().edit_heading } else { t().offers().new_offer }}</h1>
                <div class="page-actions">
                    <a class="btn btn-quiet" href=href(&cancel_to)>{t().common().cancel}</a>
                    <button type="submit" class="btn btn-primary" id="offer-save" disabled=move || pending.get()>
                        {move || match (pending.get(), edit_id.is_some()) {
                            (true, _) => t().offer_form().saving,
                            (false, true) => t().offer_form().save_offer,
                            (false, false) => t().offer_form().create_offer,
                        }}
                    </button>
                </div>
            </div>
            <LocalDraftNotice draft=local />
            <ErrorSummary summary=summary />
            <OfferPartyFields state=state errors=errors choices=choices />
            <OfferTermsFields state=state errors=errors currencies=currencies />
            <section class="form-section" aria-labelledby="sec-items" id="f-items" tabindex="-1">
                <h2 class="section-title" id="sec-items">{t().offer_form().positions}</h2>
                <p class="muted">{t().offer_form().optional_note}</p>
                <p class="field-error">{move || error_of(errors, "items").get()}</p>
                <PositionEditor rows=state.rows currency=state.currency discount=discount tax=tax
                    reverse_charge=state.reverse_charge intra_eu=state.intra_eu row_errors=row_errors allow_optional=true />
            </section>
            <section class="form-section" aria-labelledby="sec-texts">
                <h2 class="section-title" id="sec-texts">{t().offer_form().texts}</h2>
                <div class="form-grid">
                    <Field id="f-salutation" label=t().offer_form().salutation error=error_of(errors, "salutation")>
                        <textarea id="f-salutation" rows="3" bind:value=state.salutation></textarea>
                        <SnippetPicker kind=SnippetKind::Salutation target=state.salutation field_id="f-salutation" />
                    </Field>
                    <Field id="f-footer" label=t().offer_form().footer error=error_of(errors, "footer")>
                        <textarea id="f-footer" rows="3" bind:value=state.footer></textarea>
                        <SnippetPicker kind=SnippetKind::Footer target=state.footer field_id="f-footer" />
                    </Field>
                </div>
            </section>
        </form>
    }
}
