//! What follows a signing (issue 31): the signed PDF — the offer as accepted plus an
//! approval page (name, e-mail, time in UTC, the options taken, the drawing) in the
//! customer's language — and the two e-mails: to the offer's user and the account's
//! address ("accepted online by …"), and to the signer with the signed PDF; after a
//! decline, the one to the office with the reason.
//!
//! The e-mails go after the signing has committed, in the background: a mail server that
//! is down or slow never undoes or delays the customer's "yes" (the failure is logged;
//! the timeline already says it was accepted).

use super::repo::Row;
use crate::documents::{context, offer_document, Letter};
use crate::http::error::ApiResult;
use crate::state::AppState;
use crate::store::storage::Area;
use crate::work::mail::{MailAttachment, Recipients};
use kontor_model::email::SendEmail;
use kontor_model::offer::Offer;
use kontor_pdf::document::ApprovalPage;
use kontor_pdf::words::{fill, Language};

/// The signed offer's PDF and its file name (`<identifier>-signed.pdf`); an approval that
/// is not signed gives the offer's plain PDF (`<identifier>.pdf`). Errors: 404 for a
/// deleted offer, 500/503 as rendering.
pub async fn signed_pdf(state: &AppState, row: &Row) -> ApiResult<(Vec<u8>, String)> {
    let offer = crate::offers::repo::load(&state.pool, row.offer_id).await?;
    let (account, customer) = context(state, offer.company.as_ref().map(|c| c.id)).await?;
    let letter = Letter::new(&account, state.account.white_letter_paper(), &customer);
    let mut data = offer_document(&offer, &letter)?;
    let Some(signed_at) = row.signed_at.as_ref() else {
        let bytes = crate::work::pdf_render::render(data).await?;
        return Ok((bytes, format!("{}.pdf", offer.identifier)));
    };
    let w = letter.language().words();
    let name = row.customer_full_name.clone().unwrap_or_default();
    let chosen = row.chosen();
    let options: Vec<String> = offer
        .items
        .iter()
        .flatten()
        .filter(|i| chosen.contains(&i.id))
        .map(|i| i.title.clone().unwrap_or_default())
        .collect();
    let signature = match &row.signature_key {
        Some(key) => state.files.get(Area::ApprovalSignatures, key).await?,
        None => None,
    };
    data.approval = Some(ApprovalPage {
        heading: w.approval_heading.into(),
        sentence: fill(
            w.approval_sentence,
            &[("name", &name), ("number", &offer.identifier)],
        ),
        lines: vec![
            (w.approval_name.into(), name.clone()),
            (
                w.approval_email.into(),
                row.customer_email.clone().unwrap_or_default(),
            ),
            (
                w.approval_signed_at.into(),
                signed_at.0.format("%Y-%m-%d %H:%M:%S UTC").to_string(),
            ),
            (
                w.approval_options.into(),
                if options.is_empty() {
                    "–".into()
                } else {
                    options.join(", ")
                },
            ),
        ],
        signature_label: w.approval_signature.into(),
        has_signature: signature.is_some(),
        signature,
    });
    let bytes = crate::work::pdf_render::render(data).await?;
    Ok((bytes, format!("{}-signed.pdf", offer.identifier)))
}

/// The e-mail address of user `user_id`, if any.
async fn user_email(pool: &crate::sql::Db, user_id: i64) -> Option<String> {
    crate::sql::query_scalar::<Option<String>>("SELECT email FROM users WHERE id = $1")
        .bind(user_id)
        .fetch_optional(pool)
        .await
        .ok()
        .flatten()
        .flatten()
        .filter(|e| kontor_model::email::is_address(e))
}

/// The subject and text of the two e-mails in `language`: (to the office, to the signer).
fn texts(language: Language, offer: &Offer, name: &str) -> ((String, String), (String, String)) {
    let number = &offer.identifier;
    match language {
        Language::En => (
            (
                format!("Offer {number} accepted online by {name}"),
                format!(
                    "{name} accepted offer {number} ({}) online.\n\nThe offer is now accepted; its timeline shows the signature and the options taken.",
                    offer.title
                ),
            ),
            (
                format!("Your acceptance of offer {number}"),
                format!(
                    "Dear {name},\n\nthank you: you accepted our offer {number} ({}) online. The signed offer is attached.",
                    offer.title
                ),
            ),
        ),
        Language::De => (
            (
                format!("Angebot {number} online angenommen von {name}"),
                format!(
                    "{name} hat das Angebot {number} ({}) online angenommen.\n\nDas Angebot ist jetzt angenommen; sein Verlauf zeigt die Unterschrift und die gewählten Optionen.",
                    offer.title
                ),
            ),
            (
                format!("Ihre Annahme des Angebots {number}"),
                format!(
                    "Guten Tag {name},\n\nvielen Dank: Sie haben unser Angebot {number} ({}) online angenommen. Das unterschriebene Angebot finden Sie im Anhang.",
                    offer.title
                ),
            ),
        ),
    }
}

/// The office's recipients of an approval's news: the offer's user (when they have an
/// e-mail address) and the account's address, without repeats.
async fn office_recipients(state: &AppState, offer: &Offer) -> ApiResult<Vec<String>> {
    let settings = crate::account::repo::load(&state.pool).await?;
    let mut office = Vec::new();
    if let Some(user) = &offer.user {
        office.extend(user_email(&state.pool, user.id).await);
    }
    office.extend(settings.account.email.clone());
    office.dedup();
    Ok(office)
}

/// E-mails `subject` and `text` to the office (see [`office_recipients`]): the first as
/// To, the others as Cc; nothing when there is no address.
async fn tell_office(
    state: &AppState,
    offer: &Offer,
    subject: String,
    text: String,
) -> ApiResult<()> {
    let office = office_recipients(state, offer).await?;
    let Some((to, cc)) = office.split_first() else {
        return Ok(());
    };
    let body = SendEmail {
        subject: Some(subject),
        text: Some(text),
        ..SendEmail::default()
    };
    let recipients = Recipients {
        to: vec![to.clone()],
        cc: cc.to_vec(),
        bcc: Vec::new(),
    };
    crate::work::mail::send(
        state,
        &body,
        &recipients,
        Vec::new(),
        crate::sent_mail::record::Record::other(None),
    )
    .await?;
    Ok(())
}

/// Tells the office that the customer declined online, with the reason (issue 31: "the
/// user is told"); a failure is logged, the decline stands.
pub async fn send_after_declining(state: AppState, row: Row) {
    let sent = async {
        let offer = crate::offers::repo::load(&state.pool, row.offer_id).await?;
        let (_, customer) = context(&state, offer.company.as_ref().map(|c| c.id)).await?;
        let name = row.customer_full_name.clone().unwrap_or_default();
        let reason = row.decline_reason.clone().unwrap_or_default();
        let number = &offer.identifier;
        let (subject, text) = match customer.language {
            Language::En => (
                format!("Offer {number} declined online by {name}"),
                format!(
                    "{name} declined offer {number} ({}) online.\n\nReason: {}",
                    offer.title,
                    if reason.is_empty() { "–" } else { &reason }
                ),
            ),
            Language::De => (
                format!("Angebot {number} online abgelehnt von {name}"),
                format!(
                    "{name} hat das Angebot {number} ({}) online abgelehnt.\n\nGrund: {}",
                    offer.title,
                    if reason.is_empty() { "–" } else { &reason }
                ),
            ),
        };
        tell_office(&state, &offer, subject, text).await
    };
    if let Err(e) = sent.await {
        tracing::warn!(approval = row.id, error = ?e, "the e-mail after an online decline was not sent");
    }
}

/// Sends both e-mails of a signing (see the module docs); every failure is logged and
/// nothing is answered: the signing stands.
pub async fn send_after_signing(state: AppState, row: Row) {
    if let Err(e) = try_send(&state, &row).await {
        tracing::warn!(approval = row.id, error = ?e, "the e-mails after an online approval were not sent");
    }
}

async fn try_send(state: &AppState, row: &Row) -> ApiResult<()> {
    let offer = crate::offers::repo::load(&state.pool, row.offer_id).await?;
    let (_, customer) = context(state, offer.company.as_ref().map(|c| c.id)).await?;
    let name = row.customer_full_name.clone().unwrap_or_default();
    let ((office_subject, office_text), (signer_subject, signer_text)) =
        texts(customer.language, &offer, &name);
    let (pdf, filename) = signed_pdf(state, row).await?;
    tell_office(state, &offer, office_subject, office_text).await?;
    if let Some(email) = row.customer_email.clone() {
        let body = SendEmail {
            subject: Some(signer_subject),
            text: Some(signer_text),
            ..SendEmail::default()
        };
        let recipients = Recipients {
            to: vec![email],
            cc: Vec::new(),
            bcc: Vec::new(),
        };
        let attachment = MailAttachment {
            filename,
            content_type: "application/pdf".into(),
            bytes: pdf,
        };
        crate::work::mail::send(
            state,
            &body,
            &recipients,
            vec![attachment],
            crate::sent_mail::record::Record::document(
                kontor_model::email::MailDocumentType::Offer,
                offer.id,
                None,
            ),
        )
        .await?;
    }
    Ok(())
}
