//! The one duplicate rule of purchases (issue 11 § Polish, `docs/decisions.md` § Polish
//! (issue 11)): a purchase whose supplier and receipt number
//! ([`kontor_model::purchase::duplicate_key`]) equal another purchase's is a 409 unless the
//! body says `allow_duplicate: true`. POST and PUT /purchases (a purchase never repeats
//! itself) and the e-invoice import ask [`find`] inside their write transaction, so two
//! parallel saves cannot both pass.

use crate::http::error::{ApiError, ApiResult, Conflict};
use kontor_model::error::FieldErrors;
use kontor_model::purchase::{duplicate_key, duplicate_message};

/// The oldest other purchase (id, number) with the key of `company_id` and
/// `receipt_identifier`, leaving out `except` (the purchase being edited); `None` when
/// the key is empty or nothing matches. Errors: 500 on a database failure.
pub async fn find(
    tx: &mut crate::sql::Tx,
    company_id: Option<i64>,
    receipt_identifier: Option<&str>,
    except: Option<i64>,
) -> ApiResult<Option<(i64, String)>> {
    let Some((company, receipt)) = duplicate_key(company_id, receipt_identifier) else {
        return Ok(None);
    };
    let found: Option<(i64, String)> = crate::sql::query_as(
        "SELECT id, identifier FROM purchases
         WHERE company_id = $1 AND lower(trim(receipt_identifier)) = $2 AND ($3 IS NULL OR id <> $4)
         ORDER BY id LIMIT 1",
    )
    .bind(company)
    .bind(receipt)
    .bind(except)
    .bind(except)
    .fetch_optional(&mut *tx)
    .await?;
    Ok(found)
}

/// The 409 for a purchase that repeats purchase `id` (`identifier`): the model's sentence,
/// the message on `field` (`receipt_identifier`, or `file` for an import), `id` and
/// `identifier` in the body.
pub fn conflict(
    field: &str,
    field_message: kontor_model::error::Message,
    id: i64,
    identifier: String,
) -> ApiError {
    let mut errors = FieldErrors::new();
    errors.insert(field.to_string(), vec![field_message]);
    ApiError::Conflict(Box::new(Conflict {
        message: duplicate_message(&identifier),
        errors,
        id,
        identifier,
    }))
}

/// The 409 of POST/PUT /purchases: `errors.receipt_identifier` names the existing purchase.
pub fn receipt_conflict(id: i64, identifier: String) -> ApiError {
    let message =
        kontor_model::error::messages::IS_ALREADY_ON_PURCHASE_N_OF_THIS.with([&identifier]);
    conflict("receipt_identifier", message, id, identifier)
}
