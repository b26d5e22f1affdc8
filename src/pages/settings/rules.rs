//! The shared rules a Settings body is checked with before it is sent: the model's
//! [`validate_account_update`], the same function the server applies to `PUT /account`,
//! and the live example of a number format from the model's [`NumberFormat`].

use chrono::NaiveDate;
use kontor_model::account::{validate_account_update, Account, AccountUpdate};
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::number_format::NumberFormat;
use serde_json::Value;

/// The field errors of a section's (partial) `PUT /account` body against the account as
/// last saved (the default currency must be among the currencies, SMTP needs a host),
/// keyed by wire path. A port that does not fit a port, or a number of days that does not
/// fit a number, is reported at its field before the rest is checked.
pub fn validate_body(body: &Value, account: &Account) -> FieldErrors {
    let mut errors = FieldErrors::new();
    let mut body = body.clone();
    if let Some(smtp) = body.get_mut("smtp").and_then(Value::as_object_mut) {
        let port = smtp
            .get("port")
            .map(|p| p.as_u64().filter(|p| (1..=65535).contains(p)));
        if port == Some(None) {
            push_error(&mut errors, "smtp.port", "must be between 1 and 65535");
            smtp.remove("port");
        }
    }
    if let Some(days) = body.get("default_invoice_due_days") {
        if days.as_i64().is_none() {
            push_error(
                &mut errors,
                "default_invoice_due_days",
                "must be between 0 and 365 days",
            );
            body.as_object_mut()
                .map(|b| b.remove("default_invoice_due_days"));
        }
    }
    match serde_json::from_value::<AccountUpdate>(body) {
        Ok(update) => {
            for (path, messages) in validate_account_update(&update, account) {
                errors.entry(path).or_default().extend(messages);
            }
        }
        Err(e) => push_error(
            &mut errors,
            "",
            format!("The settings could not be read ({e})."),
        ),
    }
    errors
}

/// The first number `pattern` gives on `date` (`R{YY}{MM}-{NNN}` → `R2611-001`), or why
/// the pattern is refused (the model's message).
pub fn number_example(pattern: &str, date: NaiveDate) -> Result<String, String> {
    NumberFormat::parse(pattern.trim())
        .map(|f| f.render(date, 1))
        .map_err(|e| e.0)
}
