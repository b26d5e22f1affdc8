//! The shared rules a Settings body is checked with before it is sent: the model's
//! [`validate_account_update`], the same function the server applies to `PUT /account`,
//! and the live example of a number format from the model's [`NumberFormat`]; the
//! model's English messages in the user's language ([`message_text`]).

use crate::i18n::{fill, language, t, Lang};
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
            push_error(
                &mut errors,
                "smtp.port",
                kontor_model::error::Message::verbatim(t().settings_form().port_range),
            );
            smtp.remove("port");
        }
    }
    if let Some(days) = body.get("default_invoice_due_days") {
        if days.as_i64().is_none() {
            push_error(
                &mut errors,
                "default_invoice_due_days",
                kontor_model::error::Message::verbatim(t().settings_form().days_range),
            );
            body.as_object_mut()
                .map(|b| b.remove("default_invoice_due_days"));
        }
    }
    match kontor_model::wire::from_value::<AccountUpdate>(&body) {
        Ok(update) => {
            for (path, messages) in validate_account_update(&update, account) {
                errors.entry(path).or_default().extend(messages);
            }
        }
        Err(e) => push_error(
            &mut errors,
            "",
            kontor_model::error::Message::verbatim(fill(
                t().settings_form().unreadable,
                &[("error", &e.to_string())],
            )),
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

/// A field message in the user's language: in German the model's English messages (the
/// shared validation's, a number format's, a typed number's) become German — a number
/// format's by the `settings_messages` texts, the rest by the model's table of 422 texts
/// (`kontor_model::error::messages`, by code); messages already German (a 422 answered in
/// German) stay.
pub fn message_text(message: &kontor_model::error::Message) -> String {
    if language() != Lang::De {
        return message.english().to_string();
    }
    if message.code() == kontor_model::error::message::VERBATIM {
        return pattern_message(message.english()).unwrap_or_else(|| message.english().into());
    }
    message.german()
}

/// The German text of a number format's (or typed number's) English message, if it is
/// one.
fn pattern_message(message: &str) -> Option<String> {
    let (en, de) = (
        Lang::En.catalogue().settings_messages(),
        t().settings_messages(),
    );
    for (english, german) in [
        (en.pattern_counter, de.pattern_counter),
        (en.pattern_month, de.pattern_month),
        (en.too_many_digits, de.too_many_digits),
    ] {
        if message == english {
            return Some(german.to_string());
        }
    }
    let brace = [("open", "{"), ("close", "}")];
    if message == fill(en.pattern_brace, &brace) {
        return Some(fill(de.pattern_brace, &brace));
    }
    let captured = |template: &str, name: &str| -> Option<String> {
        let (before, after) = template.split_once(&format!("{{{name}}}"))?;
        let value = message.strip_prefix(before)?.strip_suffix(after)?;
        (!value.is_empty()).then(|| value.to_string())
    };
    if let Some(token) = captured(en.pattern_unknown, "token") {
        return Some(fill(de.pattern_unknown, &[("token", &token)]));
    }
    if let Some(c) = captured(en.pattern_char, "char") {
        return Some(fill(de.pattern_char, &[("char", &c)]));
    }
    if let Some(max) = captured(en.pattern_width, "max") {
        return Some(fill(de.pattern_width, &[("max", &max)]));
    }
    None
}
