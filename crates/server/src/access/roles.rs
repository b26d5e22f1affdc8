//! Who may call what (issue 12, `docs/decisions.md` § People, sign-in and roles): the one
//! table of `/api/v1` routes → the access they need, checked by
//! the authentication middleware (`auth::require_key`) for every request.
//!
//! - Reads (GET/HEAD) need any signed-in caller unless listed (the key list is admin-only).
//! - Every write route is listed. A write route missing from the table needs an admin
//!   (fail closed) and is logged; a test compares the table with the operations of the
//!   OpenAPI description (`routes::openapi_spec`, built from the routers), both ways.
//! - `Public` routes skip authentication (sign-in, invitation, first-run setup, the
//!   customer's token-addressed approval page) and are the only ones that do.

use axum::http::Method;
use kontor_model::users::Role;

/// What a route needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Access {
    /// No key at all (sign-in, first-run setup, accepting an invitation).
    Public,
    /// A valid key whose user has at least this role. A read-only key (flag) is treated as
    /// [`Role::ReadOnly`] whatever its user's role.
    Role(Role),
}

use Access::{Public, Role as R};
use Role::{Admin, ReadOnly, Staff};

/// Every write route of `/api/v1` (path as in the routers, relative to `/api/v1`) and
/// the routes with a non-default rule. Master data (companies, people, projects, deals,
/// purchase categories, articles, text snippets) are business records: staff. Settings (the account with SMTP,
/// letter papers, texts, numbering, DATEV fields; its logo and test e-mail), users and API
/// keys: admins.
pub const TABLE: &[(&str, &str, Access)] = &[
    // Sign-in (unauthenticated) and the caller's own session and preferences.
    ("POST", "/session", Public),
    ("POST", "/session/invitation", Public),
    ("POST", "/session/password_reset", Public),
    ("POST", "/session/password_reset/confirm", Public),
    ("GET", "/setup", Public),
    ("POST", "/setup", Public),
    // The customer's online approval of an offer (issue 31): the token is the only key.
    ("GET", "/customer_approvals/{token}", Public),
    ("GET", "/customer_approvals/{token}/document.pdf", Public),
    ("GET", "/customer_approvals/{token}/logo", Public),
    ("POST", "/customer_approvals/{token}/sign", Public),
    ("POST", "/customer_approvals/{token}/decline", Public),
    // The OpenAPI description (Swagger UI at /api/docs is outside /api/v1 and open too).
    ("GET", "/openapi.json", Public),
    ("DELETE", "/session", R(ReadOnly)),
    ("PUT", "/users/me", R(ReadOnly)),
    ("PUT", "/users/me/password", R(ReadOnly)),
    // Settings, users, keys: admins.
    ("GET", "/audit_events", R(Admin)),
    ("PUT", "/account", R(Admin)),
    ("PUT", "/account/logo", R(Admin)),
    ("DELETE", "/account/logo", R(Admin)),
    ("POST", "/account/test_email", R(Admin)),
    // The supplier inbox (issue 36): its settings and test are admins'; polling is staff's.
    ("GET", "/inbox/settings", R(Admin)),
    ("PUT", "/inbox/settings", R(Admin)),
    ("POST", "/inbox/test", R(Admin)),
    ("POST", "/inbox/poll", R(Staff)),
    ("PUT", "/dunning_levels", R(Admin)),
    ("PUT", "/base_rates", R(Admin)),
    ("POST", "/users", R(Admin)),
    ("PUT", "/users/{id}", R(Admin)),
    ("POST", "/users/{id}/invitation", R(Admin)),
    ("GET", "/api_keys", R(Admin)),
    ("POST", "/api_keys", R(Admin)),
    ("DELETE", "/api_keys/{id}", R(Admin)),
    // Business records: staff.
    ("POST", "/invoices", R(Staff)),
    ("POST", "/invoices/preview.pdf", R(Staff)),
    ("PUT", "/invoices/{id}", R(Staff)),
    ("DELETE", "/invoices/{id}", R(Staff)),
    ("PUT", "/invoices/{id}/update_status", R(Staff)),
    ("POST", "/invoices/{id}/reverse", R(Staff)),
    ("POST", "/invoices/{id}/credit_note", R(Staff)),
    ("POST", "/invoices/{id}/copy", R(Staff)),
    ("POST", "/invoices/{id}/send_email", R(Staff)),
    ("POST", "/emails/{id}/resend", R(Staff)),
    ("POST", "/invoices/payments", R(Staff)),
    ("PUT", "/invoices/payments/{id}", R(Staff)),
    ("DELETE", "/invoices/payments/{id}", R(Staff)),
    ("POST", "/invoice_reminders", R(Staff)),
    ("POST", "/invoice_reminders/bulk", R(Staff)),
    ("DELETE", "/invoice_reminders/{id}", R(Staff)),
    ("POST", "/invoice_reminders/{id}/send_email", R(Staff)),
    ("POST", "/recurring_invoices", R(Staff)),
    ("PUT", "/recurring_invoices/{id}", R(Staff)),
    ("DELETE", "/recurring_invoices/{id}", R(Staff)),
    ("POST", "/offers", R(Staff)),
    ("PUT", "/offers/{id}", R(Staff)),
    ("DELETE", "/offers/{id}", R(Staff)),
    ("POST", "/offers/{id}/copy", R(Staff)),
    ("PUT", "/offers/{id}/update_status", R(Staff)),
    ("POST", "/offers/{id}/send_email", R(Staff)),
    ("POST", "/offers/{id}/attachments", R(Staff)),
    ("POST", "/offers/{id}/customer_approval/activate", R(Staff)),
    ("POST", "/offers/{id}/offer_confirmation", R(Staff)),
    (
        "POST",
        "/offers/{id}/offer_confirmation/send_email",
        R(Staff),
    ),
    (
        "POST",
        "/offers/{id}/customer_approval/deactivate",
        R(Staff),
    ),
    ("PUT", "/offers/{id}/customer_approval/deactivate", R(Staff)),
    (
        "DELETE",
        "/offers/{id}/attachments/{attachment_id}",
        R(Staff),
    ),
    ("POST", "/purchases", R(Staff)),
    ("POST", "/purchases/import", R(Staff)),
    ("POST", "/purchases/categories", R(Staff)),
    ("POST", "/purchases/payments", R(Staff)),
    ("DELETE", "/purchases/payments/{id}", R(Staff)),
    ("PUT", "/purchases/{id}", R(Staff)),
    ("DELETE", "/purchases/{id}", R(Staff)),
    ("PATCH", "/purchases/{id}/update_status", R(Staff)),
    // Issue 36: "Ask for a corrected invoice" e-mails the seller.
    ("POST", "/purchases/{id}/correction_request", R(Staff)),
    ("PATCH", "/purchases/{id}/store_document", R(Staff)),
    ("POST", "/activities", R(Staff)),
    ("POST", "/deals", R(Staff)),
    ("PUT", "/deals/{id}", R(Staff)),
    ("POST", "/contacts/people", R(Staff)),
    ("PUT", "/contacts/people/{id}", R(Staff)),
    ("DELETE", "/contacts/people/{id}", R(Staff)),
    ("POST", "/companies", R(Staff)),
    ("PUT", "/companies/{id}", R(Staff)),
    ("DELETE", "/companies/{id}", R(Staff)),
    ("POST", "/projects", R(Staff)),
    ("PUT", "/projects/{id}", R(Staff)),
    ("POST", "/projects/{id}/expenses", R(Staff)),
    // The catalogue (issue 33): articles and text snippets are master data, staff.
    ("POST", "/articles", R(Staff)),
    ("PUT", "/articles/{id}", R(Staff)),
    ("DELETE", "/articles/{id}", R(Staff)),
    ("POST", "/text_snippets", R(Staff)),
    ("PUT", "/text_snippets/{id}", R(Staff)),
    ("DELETE", "/text_snippets/{id}", R(Staff)),
    // Bank statements and matching (issue 32): bookkeeping work, staff.
    ("POST", "/bank_statements", R(Staff)),
    ("DELETE", "/bank_statements/{id}", R(Staff)),
    ("POST", "/bank_transactions/{id}/match", R(Staff)),
    ("DELETE", "/bank_transactions/{id}/match", R(Staff)),
    ("POST", "/bank_transactions/{id}/ignore", R(Staff)),
    ("DELETE", "/bank_transactions/{id}/ignore", R(Staff)),
];

/// Whether `method` only reads.
pub fn is_read(method: &Method) -> bool {
    matches!(*method, Method::GET | Method::HEAD | Method::OPTIONS)
}

/// The access `method` on the route `path` (relative to `/api/v1`, with `{param}`
/// placeholders as the router names them) needs: the table's entry; otherwise any caller
/// for a read and an admin for an unlisted write (fail closed).
pub fn required(method: &Method, path: &str) -> Access {
    let method_str = if *method == Method::HEAD {
        "GET"
    } else {
        method.as_str()
    };
    if let Some((_, _, access)) = TABLE
        .iter()
        .find(|(m, p, _)| *m == method_str && *p == path)
    {
        return *access;
    }
    if is_read(method) {
        R(ReadOnly)
    } else {
        tracing::error!(%method, path, "write route missing from the role table; admins only");
        R(Admin)
    }
}

/// Whether a caller whose user has `role`, through a key with the `read_only` flag, may
/// use a route needing `needed`.
pub fn allows(role: Role, read_only_key: bool, needed: Role) -> bool {
    let effective = if read_only_key { ReadOnly } else { role };
    effective.allows(needed)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_are_open_to_everyone_and_unlisted_writes_to_admins() {
        assert_eq!(required(&Method::GET, "/invoices"), R(ReadOnly));
        assert_eq!(required(&Method::GET, "/api_keys"), R(Admin));
        assert_eq!(required(&Method::POST, "/invoices"), R(Staff));
        assert_eq!(required(&Method::PUT, "/account"), R(Admin));
        assert_eq!(required(&Method::POST, "/session"), Public);
        assert_eq!(required(&Method::POST, "/no_such_route"), R(Admin));
    }

    #[test]
    fn a_read_only_key_restricts_its_user() {
        assert!(allows(Admin, false, Admin));
        assert!(!allows(Admin, true, Staff));
        assert!(allows(Admin, true, ReadOnly));
        assert!(!allows(Staff, false, Admin));
    }

    #[test]
    fn no_route_is_listed_twice() {
        for (i, (m, p, _)) in TABLE.iter().enumerate() {
            assert!(
                !TABLE[..i].iter().any(|(m2, p2, _)| m2 == m && p2 == p),
                "{m} {p} twice"
            );
        }
    }
}
