//! The order confirmation as a PDF and by e-mail (issue 31; `docs/decisions.md` § Order
//! confirmations): the offer's accepted positions under the heading "Auftragsbestätigung
//! {number}" / "Order confirmation {number}" with a confirmation sentence, on a letter
//! paper of the account, in the customer's language.

use super::repo;
use crate::config::LetterPaperConfig;
use crate::documents::{context, offer_document, Letter};
use crate::events::{self, Subject};
use crate::http::error::{ApiError, ApiResult};
use crate::state::AppState;
use crate::work::mail::{self, MailAttachment};
use kontor_model::confirmation::{confirmation_sentence, default_email, default_title};
use kontor_model::email::{SendEmail, SentEmail};
use kontor_model::offer::OfferConfirmation;
use kontor_model::party::Language;
use kontor_model::recipients::offer_recipients;
use kontor_pdf::rich_text::plain_blocks;
use kontor_pdf::words::fill;

/// The model's language of a printed document's language.
fn model_language(language: kontor_pdf::words::Language) -> Language {
    match language {
        kontor_pdf::words::Language::De => Language::De,
        kontor_pdf::words::Language::En => Language::En,
    }
}

/// The label of the confirmation's date in the document's meta block.
fn date_label(language: Language) -> &'static str {
    match language {
        Language::De => "Datum",
        Language::En => "Date",
    }
}

/// The confirmation PDF of offer `offer_id` on `paper` (`None`: blank), its file name
/// (`<identifier>-confirmation.pdf`) and the confirmation. What is printed: the heading
/// "Auftragsbestätigung/Order confirmation {number}", the confirmation's title when it is
/// not that heading (else the offer's title) as the subject, offer number, offer date and
/// the confirmation's date, the confirmation sentence in place of the offer's salutation,
/// the non-optional positions (the accepted ones: an online signing made the options taken
/// ordinary positions) with the offer's totals and VAT notes, and the offer's footer.
/// Errors: 404 for an unknown offer or one without a confirmation; 500/503 as rendering.
pub async fn confirmation_pdf(
    state: &AppState,
    offer_id: i64,
    paper: Option<&LetterPaperConfig>,
) -> ApiResult<(Vec<u8>, String, OfferConfirmation)> {
    let confirmation = repo::of_offer(&state.pool, offer_id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("offer confirmation of offer {offer_id}")))?;
    let mut offer = crate::offers::repo::load(&state.pool, offer_id).await?;
    offer.items = offer
        .items
        .map(|items| items.into_iter().filter(|i| !i.optional).collect());
    let (account, customer) = context(state, offer.company.as_ref().map(|c| c.id)).await?;
    let letter = Letter::new(&account, paper, &customer);
    let w = letter.language().words();
    let language = model_language(letter.language());
    let mut data = offer_document(&offer, &letter)?;
    let valid_note = fill(w.offer_valid, &[("date", &letter.date(offer.due_date))]);
    data.notes.retain(|n| *n != valid_note);
    data.heading = default_title(&offer.identifier, language);
    if confirmation.title != data.heading {
        data.subject = confirmation.title.clone();
    }
    data.meta.retain(|(label, _)| label != w.valid_until);
    data.meta.insert(
        0,
        (
            date_label(language).into(),
            letter.date(confirmation.created_at.date_naive()),
        ),
    );
    data.salutation = plain_blocks(&confirmation_sentence(
        &offer.identifier,
        &letter.date(offer.date),
        language,
    ));
    let bytes = crate::work::pdf_render::render(data).await?;
    Ok((
        bytes,
        format!("{}-confirmation.pdf", offer.identifier),
        confirmation,
    ))
}

/// E-mails offer `offer_id`'s confirmation PDF on behalf of `user_id` (`None`: the
/// server's own sending after an online signing) and records a `sent` event on the offer's
/// timeline (its data naming `"document": "offer_confirmation"`). Recipients as for the
/// offer (the model's `offer_recipients`: the contact person's e-mail, else the company's;
/// `emails_to` etc. override them); `fallback_to` is used when neither is known. An absent
/// subject or text is the default in the customer's language
/// (`kontor_model::confirmation::default_email`). `body.letter_paper_id` picks the letter
/// paper (default the white one). Errors: 404 (offer, confirmation); 422 (no recipient,
/// invalid address, unknown letter paper, the account has no sender address); 502 when
/// the mail server refuses.
pub async fn send(
    state: &AppState,
    user_id: Option<i64>,
    offer_id: i64,
    mut body: SendEmail,
    fallback_to: Option<&str>,
) -> ApiResult<SentEmail> {
    let offer = crate::offers::repo::load(&state.pool, offer_id).await?;
    let confirmation = repo::of_offer(&state.pool, offer_id)
        .await?
        .ok_or_else(|| ApiError::not_found(format!("offer confirmation of offer {offer_id}")))?;
    let contact_email = match &offer.contact {
        Some(contact) => crate::master_data::contacts::find(&state.pool, contact.id)
            .await?
            .and_then(|p| p.email),
        None => None,
    };
    let company = match &offer.company {
        Some(company) => crate::master_data::companies::find(&state.pool, company.id).await?,
        None => None,
    };
    let language = company.as_ref().map(|c| c.language).unwrap_or_default();
    let mut defaults = offer_recipients(contact_email.as_deref(), company.as_ref());
    if defaults.to.is_empty() {
        defaults.to = fallback_to.unwrap_or_default().to_string();
    }
    let (subject, text) = default_email(&confirmation.title, &offer.identifier, language);
    let blank = |t: &Option<String>| t.as_deref().is_none_or(|t| t.trim().is_empty());
    if blank(&body.subject) {
        body.subject = Some(subject);
    }
    if blank(&body.text) {
        body.text = Some(text);
    }
    let recipients = mail::resolve(&body, Some(&defaults.to), Some(&defaults.cc))?;
    let paper = match body.letter_paper_id {
        Some(p) => state.account.letter_paper(Some(p)).ok_or_else(|| {
            ApiError::field(
                "letter_paper_id",
                kontor_model::error::messages::IS_NOT_CONFIGURED_LETTER_PAPER,
            )
        })?,
        None => state
            .account
            .white_letter_paper()
            .ok_or_else(|| ApiError::Internal("no letter paper".into()))?,
    };
    let (pdf, filename, _) = confirmation_pdf(state, offer_id, Some(paper)).await?;
    let files = vec![MailAttachment {
        filename,
        content_type: "application/pdf".into(),
        bytes: pdf,
    }];
    let delivered = mail::send_with_id(
        state,
        &body,
        &recipients,
        files,
        crate::sent_mail::record::Record::document(
            kontor_model::email::MailDocumentType::OrderConfirmation,
            offer_id,
            None,
        ),
    )
    .await?;
    let mut data = kontor_model::event::to_data(&delivered.event_data(&recipients));
    data["document"] = serde_json::json!("offer_confirmation");
    let mut conn = state.pool.acquire().await?;
    events::record_as(
        &mut conn,
        user_id,
        Subject::Offer(offer_id),
        kontor_model::event::EventKind::Sent,
        data,
    )
    .await?;
    Ok(delivered.sent)
}
