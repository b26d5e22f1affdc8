//! The logic behind the send-email dialog, without any view: the default recipients (the
//! same rule as the server, `decisions.md` § Supporting resources), the pre-filled subject
//! and text, address checks and the success message.

use crate::components::date::format_date;
use crate::components::money::format_money;
use kontor_model::email::{is_address, split_addresses, SentEmail};
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice::Invoice;
use kontor_model::party::{Company, Project};

/// Default To and CC, `; `-separated.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Recipients {
    /// To.
    pub to: String,
    /// CC.
    pub cc: String,
}

fn filled(value: &Option<String>) -> Option<String> {
    value
        .as_deref()
        .map(|v| split_addresses(v).join("; "))
        .filter(|v| !v.is_empty())
}

/// The project's `billing_email_to` / `billing_email_cc`; when the project names no
/// recipient, the customer's `email` (and its `billing_email_cc` unless the project gave
/// a CC).
pub fn default_recipients(project: Option<&Project>, customer: Option<&Company>) -> Recipients {
    let mut to = project.and_then(|p| filled(&p.billing_email_to));
    let mut cc = project.and_then(|p| filled(&p.billing_email_cc));
    if to.is_none() {
        if let Some(c) = customer {
            to = filled(&c.email);
            cc = cc.or_else(|| filled(&c.billing_email_cc));
        }
    }
    Recipients {
        to: to.unwrap_or_default(),
        cc: cc.unwrap_or_default(),
    }
}

/// `"Invoice R2611-001"`.
pub fn email_subject(invoice: &Invoice) -> String {
    format!(
        "Invoice {}",
        invoice.identifier.as_deref().unwrap_or_default()
    )
}

/// The pre-filled message text, signed with the account's name.
pub fn email_text(invoice: &Invoice, sender: &str) -> String {
    format!(
        "Dear Sir or Madam,\n\nplease find attached invoice {} of {} over {}, due on {}.\n\nKind regards\n{}",
        invoice.identifier.as_deref().unwrap_or_default(),
        format_date(invoice.date),
        format_money(invoice.gross_total, &invoice.currency),
        format_date(invoice.due_date),
        sender
    )
    .trim_end()
    .to_string()
}

/// Errors for `emails_to` (required) and for every list holding something that is not an
/// address; the keys are the body's field names.
pub fn check_recipients(to: &str, cc: &str, bcc: &str) -> FieldErrors {
    let mut errors = FieldErrors::new();
    if split_addresses(to).is_empty() {
        push_error(&mut errors, "emails_to", "enter at least one recipient");
    }
    for (field, list) in [("emails_to", to), ("emails_cc", cc), ("emails_bcc", bcc)] {
        for address in split_addresses(list).iter().filter(|a| !is_address(a)) {
            push_error(
                &mut errors,
                field,
                format!("{address} is not an e-mail address"),
            );
        }
    }
    errors
}

/// A typed list in the wire form: addresses separated by `;`.
pub fn wire_list(list: &str) -> String {
    split_addresses(list).join(";")
}

/// The toast after sending: `"Invoice R2611-001 sent to a@x.example (CC b@y.example)."`
pub fn sent_message(invoice: &Invoice, sent: &SentEmail) -> String {
    let list = |l: &str| split_addresses(l).join(", ");
    let mut text = format!(
        "Invoice {} sent to {}",
        invoice.identifier.as_deref().unwrap_or_default(),
        list(&sent.emails_to)
    );
    for (label, l) in [("CC", &sent.emails_cc), ("BCC", &sent.emails_bcc)] {
        if !split_addresses(l).is_empty() {
            text.push_str(&format!(" ({label} {})", list(l)));
        }
    }
    text.push('.');
    text
}
