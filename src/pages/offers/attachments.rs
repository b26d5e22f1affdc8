//! The attachments of an offer: upload by file picker or drag and drop with a progress
//! bar (the purchases' [`DropZone`] and the shared upload request), the list with sizes,
//! open through the signed link, delete after a confirmation.

use crate::api::offers::{
    create_offer_attachment, delete_offer_attachment, list_offer_attachments,
};
use crate::api::ApiError;
use crate::components::dialog::Dialog;
use crate::components::drop_zone::{read_base64, DropZone, MAX_BYTES};
use crate::components::field::field_message;
use crate::components::locale::format_places;
use crate::components::task::Task;
use crate::components::toast::Toasts;
use crate::i18n::{fill, t};
use kontor_model::offer::Attachment;
use kontor_model::Decimal;
use leptos::prelude::*;
use send_wrapper::SendWrapper;

/// `12.3 KiB`, `1.2 MiB` or `512 B` (German `12,3 KiB`).
pub fn format_size(bytes: i64) -> String {
    let one = |unit: i64| format_places(Decimal::from(bytes) / Decimal::from(unit), 1);
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{} KiB", one(1024)),
        _ => format!("{} MiB", one(1024 * 1024)),
    }
}

/// The attachments section of offer `offer_id`.
#[component]
pub fn AttachmentsSection(
    /// The offer id.
    offer_id: i64,
) -> impl IntoView {
    let toasts = Toasts::use_context();
    let list = RwSignal::new(None::<Result<Vec<Attachment>, ApiError>>);
    let loader = Task::new();
    let reload = move || loader.run(list_offer_attachments(offer_id), move |r| list.set(Some(r)));
    reload();
    let progress = RwSignal::new(0u8);
    let error = RwSignal::new(None::<String>);
    let upload = Task::new();
    let on_file = Callback::new(move |file: SendWrapper<web_sys::File>| {
        error.set(None);
        if file.size() > MAX_BYTES {
            error.set(Some(t().offer_attachments().too_large.into()));
            return;
        }
        let name = file.name();
        upload.run(
            async move {
                let b64 = read_base64(&file).await?;
                create_offer_attachment(offer_id, name, b64, progress).await
            },
            move |r| match r {
                Ok(a) => {
                    toasts.success(fill(
                        t().offer_attachments().attached,
                        &[("name", &a.filename)],
                    ));
                    reload();
                }
                Err(e) => error.set(Some(
                    field_message(&e.errors, "attachment.base64")
                        .map(|m| fill(t().offer_attachments().file_error, &[("message", &m)]))
                        .unwrap_or(e.message),
                )),
            },
        );
    });
    let confirm = RwSignal::new(None::<Attachment>);
    let open = RwSignal::new(false);
    let deleting = Task::new();
    let delete = move |_| {
        let Some(a) = confirm.get_untracked() else {
            return;
        };
        deleting.run(delete_offer_attachment(offer_id, a.id), move |r| {
            open.set(false);
            match r {
                Ok(()) => {
                    toasts.success(fill(
                        t().offer_attachments().deleted,
                        &[("name", &a.filename)],
                    ));
                    reload();
                }
                Err(e) => toasts.error(fill(
                    t().offer_attachments().not_deleted,
                    &[("message", &e.message)],
                )),
            }
        });
    };
    let rows = move || {
        match list.get() {
        None => view! { <p class="muted">{t().offer_attachments().loading}</p> }.into_any(),
        Some(Err(e)) => view! { <p class="field-error" role="alert">{e.message}</p> }.into_any(),
        Some(Ok(items)) if items.is_empty() => view! { <p class="muted" id="attachments-none">{t().offer_attachments().none}</p> }.into_any(),
        Some(Ok(items)) => view! {
            <table class="table" id="attachments">
                <thead><tr><th scope="col">{t().offer_attachments().col_file}</th><th scope="col" class="num">{t().offer_attachments().col_size}</th><th scope="col"><span class="visually-hidden">{t().offer_attachments().col_actions}</span></th></tr></thead>
                <tbody>
                    {items.into_iter().map(|a| {
                        let chosen = a.clone();
                        view! {
                            <tr>
                                <td><a href=a.file_url.clone() target="_blank" rel="noopener">{a.filename.clone()}</a></td>
                                <td class="num">{format_size(a.byte_size)}</td>
                                <td class="num"><button type="button" class="btn btn-small btn-quiet" aria-label=fill(t().offer_attachments().delete_named, &[("name", &a.filename)])
                                    on:click=move |_| { confirm.set(Some(chosen.clone())); open.set(true); }>{t().common().delete}</button></td>
                            </tr>
                        }
                    }).collect_view()}
                </tbody>
            </table>
        }.into_any(),
    }
    };
    let name = move || confirm.get().map(|a| a.filename).unwrap_or_default();
    view! {
        <section class="section" aria-labelledby="attachments-title">
            <div class="section-head"><h2 class="section-title" id="attachments-title">{t().offer_attachments().title}</h2></div>
            {rows}
            <DropZone id="attachment-file" label=t().offer_attachments().drop_label on_file=on_file
                busy=upload.pending progress=progress accept="application/pdf" />
            <p class="field-error" role="alert" id="attachment-error">{move || error.get()}</p>
            <Dialog open=open title=t().offer_attachments().delete_title.to_string()>
                <p>{move || fill(t().offer_attachments().delete_text, &[("name", &name())])}</p>
                <div class="dialog-actions">
                    <button type="button" class="btn" on:click=move |_| open.set(false)>{t().common().cancel}</button>
                    <button type="button" class="btn btn-danger" disabled=move || deleting.pending.get() on:click=delete>{t().common().delete}</button>
                </div>
            </Dialog>
        </section>
    }
}
