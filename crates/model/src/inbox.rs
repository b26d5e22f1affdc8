//! The supplier inbox (issue 36 § The inbox; `docs/decisions.md` § Supplier inbox): the
//! IMAP mailbox Kontor reads (`GET/PUT /inbox/settings`), the record of every message it
//! read (`GET /inbox/messages`) and the counts of one poll (`POST /inbox/poll`), with the
//! pure rules the server applies to them: how settings merge and are checked
//! ([`merge_inbox_settings`]), what an attachment is by its bytes ([`attachment_kind`]) and
//! which state a message ends in from what became of its documents ([`message_state`]).

use crate::error::{messages, push_error, FieldErrors};
use chrono::{DateTime, Utc};
use serde::{Deserialize, Serialize};

/// Longest folder name, user or password, in characters.
pub const MAX_INBOX_SETTING: usize = 200;
/// The folder read by default.
pub const DEFAULT_FOLDER: &str = "INBOX";
/// The folder processed messages move to by default.
pub const DEFAULT_PROCESSED_FOLDER: &str = "Kontor/processed";

/// How the IMAP server is reached: implicit TLS (default, port 993), STARTTLS (143) or
/// plain (local servers and tests only, 143).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "lowercase")]
pub enum InboxSecurity {
    /// Implicit TLS (port 993).
    #[default]
    Tls,
    /// STARTTLS upgrade (port 143).
    Starttls,
    /// No encryption.
    None,
}

impl InboxSecurity {
    /// The wire and column text: `tls`, `starttls`, `none`.
    pub fn as_str(self) -> &'static str {
        match self {
            InboxSecurity::Tls => "tls",
            InboxSecurity::Starttls => "starttls",
            InboxSecurity::None => "none",
        }
    }

    /// Reads the text [`InboxSecurity::as_str`] writes.
    pub fn parse(text: &str) -> Option<InboxSecurity> {
        match text {
            "tls" => Some(InboxSecurity::Tls),
            "starttls" => Some(InboxSecurity::Starttls),
            "none" => Some(InboxSecurity::None),
            _ => None,
        }
    }

    /// The usual port of this security: 993 (TLS) or 143.
    pub fn default_port(self) -> u16 {
        match self {
            InboxSecurity::Tls => 993,
            InboxSecurity::Starttls | InboxSecurity::None => 143,
        }
    }
}

/// The inbox settings as stored, password included (never sent: see [`InboxSettings`]).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InboxConfig {
    /// Whether Kontor polls the mailbox (every 5 minutes).
    pub enabled: bool,
    /// IMAP server host name; empty when never set.
    pub host: String,
    /// TCP port (1–65535).
    pub port: u16,
    /// Transport security.
    pub security: InboxSecurity,
    /// Login name.
    pub user: String,
    /// Password, `None` when none is stored.
    pub password: Option<String>,
    /// The folder read.
    pub folder: String,
    /// The folder processed messages move to.
    pub processed_folder: String,
}

impl Default for InboxConfig {
    fn default() -> Self {
        InboxConfig {
            enabled: false,
            host: String::new(),
            port: InboxSecurity::Tls.default_port(),
            security: InboxSecurity::Tls,
            user: String::new(),
            password: None,
            folder: DEFAULT_FOLDER.into(),
            processed_folder: DEFAULT_PROCESSED_FOLDER.into(),
        }
    }
}

impl InboxConfig {
    /// The settings as `GET /inbox/settings` shows them (the password only as
    /// `password_set`).
    pub fn view(&self) -> InboxSettings {
        InboxSettings {
            enabled: self.enabled,
            host: self.host.clone(),
            port: self.port,
            security: self.security,
            user: self.user.clone(),
            password_set: self.password.is_some(),
            folder: self.folder.clone(),
            processed_folder: self.processed_folder.clone(),
        }
    }
}

/// `GET /inbox/settings` and the answer of `PUT`: `{enabled, host, port, security, user,
/// password_set, folder, processed_folder}` (the password is write-only).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboxSettings {
    /// Whether Kontor polls the mailbox every 5 minutes.
    pub enabled: bool,
    /// IMAP server host name (`""` when not set).
    pub host: String,
    /// TCP port (1–65535; 993 for `tls`, 143 otherwise by default).
    pub port: u16,
    /// `tls`, `starttls` or `none`.
    pub security: InboxSecurity,
    /// Login name.
    pub user: String,
    /// Whether a password is stored.
    pub password_set: bool,
    /// The folder read (default `INBOX`).
    pub folder: String,
    /// Where processed messages move (default `Kontor/processed`; created when missing).
    pub processed_folder: String,
}

/// `PUT /inbox/settings`: the given fields change, absent ones stay. `password`: absent
/// keeps the stored one, `""` removes it. When `security` changes without `port` and the
/// port was the old security's usual one, the port becomes the new security's usual one.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboxSettingsUpdate {
    /// Poll the mailbox (needs `host` and `user`).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub enabled: Option<bool>,
    /// IMAP server host name.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub host: Option<String>,
    /// TCP port, 1–65535.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub port: Option<u16>,
    /// `tls`, `starttls` or `none`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub security: Option<InboxSecurity>,
    /// Login name (at most 200 characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub user: Option<String>,
    /// Password (write-only, at most 200 characters); `""` removes it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub password: Option<String>,
    /// The folder read (at most 200 characters, no control characters).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub folder: Option<String>,
    /// The folder processed messages move to (as `folder`, and not the same).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub processed_folder: Option<String>,
}

fn check_folder(e: &mut FieldErrors, field: &str, name: &str) {
    if name.trim().is_empty() {
        push_error(e, field, messages::IS_REQUIRED);
    } else if name.chars().count() > MAX_INBOX_SETTING {
        push_error(
            e,
            field,
            messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_INBOX_SETTING]),
        );
    } else if name.chars().any(char::is_control) {
        push_error(e, field, messages::MUST_NOT_CONTAIN_CONTROL_CHARACTERS);
    }
}

/// `update` over `stored` (issue 36): the settings to store, or the field errors (field
/// names as on the wire: `host`, `port`, `user`, `password`, `folder`,
/// `processed_folder`). Enabled settings need a host and a user; a host is a host name
/// ([`crate::account::is_host_name`]); texts at most [`MAX_INBOX_SETTING`] characters;
/// folders non-empty, without control characters, and different from each other; the port
/// 1–65535. Texts are stored trimmed (the password as given).
pub fn merge_inbox_settings(
    stored: &InboxConfig,
    update: &InboxSettingsUpdate,
) -> Result<InboxConfig, FieldErrors> {
    let mut next = stored.clone();
    let mut e = FieldErrors::new();
    if let Some(enabled) = update.enabled {
        next.enabled = enabled;
    }
    if let Some(host) = &update.host {
        next.host = host.trim().to_string();
    }
    if let Some(security) = update.security {
        if update.port.is_none() && stored.port == stored.security.default_port() {
            next.port = security.default_port();
        }
        next.security = security;
    }
    if let Some(port) = update.port {
        next.port = port;
    }
    if let Some(user) = &update.user {
        next.user = user.trim().to_string();
    }
    match update.password.as_deref() {
        Some("") => next.password = None,
        Some(p) => next.password = Some(p.to_string()),
        None => {}
    }
    if let Some(folder) = &update.folder {
        next.folder = folder.trim().to_string();
    }
    if let Some(folder) = &update.processed_folder {
        next.processed_folder = folder.trim().to_string();
    }
    if next.host.is_empty() {
        if next.enabled {
            push_error(&mut e, "host", messages::IS_REQUIRED);
        }
    } else if !crate::account::is_host_name(&next.host) {
        push_error(&mut e, "host", messages::IS_NOT_HOST_NAME);
    }
    if next.port == 0 {
        push_error(
            &mut e,
            "port",
            messages::MUST_BE_BETWEEN_N_AND_N.with([1, 65535]),
        );
    }
    if next.user.is_empty() && next.enabled {
        push_error(&mut e, "user", messages::IS_REQUIRED);
    }
    for (field, value) in [
        ("user", Some(next.user.as_str())),
        ("password", next.password.as_deref()),
    ] {
        if value.is_some_and(|v| v.chars().count() > MAX_INBOX_SETTING) {
            push_error(
                &mut e,
                field,
                messages::MUST_BE_AT_MOST_N_CHARACTERS.with([MAX_INBOX_SETTING]),
            );
        }
    }
    check_folder(&mut e, "folder", &next.folder);
    check_folder(&mut e, "processed_folder", &next.processed_folder);
    if !next.folder.is_empty() && next.folder == next.processed_folder {
        push_error(
            &mut e,
            "processed_folder",
            messages::MUST_DIFFER_FROM_READ_FOLDER,
        );
    }
    if e.is_empty() {
        Ok(next)
    } else {
        Err(e)
    }
}

/// What became of a message Kontor read.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum InboxMessageState {
    /// Every document in it became a purchase (or was one already).
    Imported,
    /// A document needs a person: a PDF without e-invoice data (a purchase "to be
    /// completed" was made) or an attachment that is no readable e-invoice.
    NeedsReview,
    /// No document in it (listed, left in the mailbox's processed folder).
    Ignored,
    /// Reading or importing failed for a passing reason (the mailbox, the database); the
    /// message stays in the folder and the next poll tries again.
    Failed,
}

impl InboxMessageState {
    /// Every state.
    pub const ALL: [InboxMessageState; 4] = [
        InboxMessageState::Imported,
        InboxMessageState::NeedsReview,
        InboxMessageState::Ignored,
        InboxMessageState::Failed,
    ];

    /// The wire and column text.
    pub fn as_str(self) -> &'static str {
        match self {
            InboxMessageState::Imported => "imported",
            InboxMessageState::NeedsReview => "needs_review",
            InboxMessageState::Ignored => "ignored",
            InboxMessageState::Failed => "failed",
        }
    }

    /// Reads the text [`InboxMessageState::as_str`] writes.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|s| s.as_str() == text)
    }
}

/// `GET /inbox/messages`: one message Kontor read from the mailbox.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboxMessage {
    /// Record id.
    pub id: i64,
    /// The `Message-ID` header without angle brackets (`null` when the message had none).
    pub message_id: Option<String>,
    /// The message's `Date` header (UTC, `YYYY-MM-DDTHH:MM:SSZ`); when missing or
    /// unreadable, when Kontor read it.
    #[serde(with = "crate::timestamp")]
    pub received_at: DateTime<Utc>,
    /// The sender's address (`From`).
    pub from: String,
    /// The subject (`""` without one).
    pub subject: String,
    /// `imported`, `needs_review`, `ignored` or `failed`.
    pub state: InboxMessageState,
    /// Why it is not `imported`, one sentence per document (English); `null` when imported.
    pub reason: Option<String>,
    /// The purchases made from it (or found made before), in attachment order.
    pub purchase_ids: Vec<i64>,
    /// The check result of each of those purchases that came from an e-invoice (issue 36),
    /// in the same order; a PDF to complete has none.
    #[serde(default)]
    pub checks: Vec<InboxDocumentCheck>,
}

/// The EN 16931 check result of one document of an inbox message (issue 36).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboxDocumentCheck {
    /// The purchase made from the document.
    pub purchase_id: i64,
    /// Whether the e-invoice breaks no rule.
    pub valid: bool,
    /// The worst finding's class, `null` when valid.
    pub class: Option<crate::einvoice_check::DefectClass>,
    /// The rules broken (`BR-CO-10`, …), each once, in the order found.
    pub rules: Vec<String>,
}

/// `POST /inbox/poll`: how many messages this poll read and what became of them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboxPoll {
    /// Messages read (new ones and failed ones tried again).
    pub messages: u32,
    /// Of those, `imported`.
    pub imported: u32,
    /// Of those, `needs_review`.
    pub needs_review: u32,
    /// Of those, `ignored`.
    pub ignored: u32,
    /// Of those, `failed`.
    pub failed: u32,
}

impl InboxPoll {
    /// Counts one message in `state`.
    pub fn count(&mut self, state: InboxMessageState) {
        self.messages += 1;
        match state {
            InboxMessageState::Imported => self.imported += 1,
            InboxMessageState::NeedsReview => self.needs_review += 1,
            InboxMessageState::Ignored => self.ignored += 1,
            InboxMessageState::Failed => self.failed += 1,
        }
    }
}

/// `POST /inbox/test`: the mailbox was reached, signed in to and its folder opened (a
/// failure is a 502 naming the step).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InboxTest {
    /// Always `true`.
    pub ok: bool,
    /// How many messages the folder holds now.
    pub messages: u32,
}

/// What an attachment is, judged by its first bytes (never by its name or declared type).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AttachmentKind {
    /// `%PDF-`: a Factur-X / ZUGFeRD invoice or a plain PDF.
    Pdf,
    /// XML (after an optional byte order mark and whitespace, `<`): UBL or CII.
    Xml,
    /// A ZIP archive (`PK\x03\x04`), whose entries are judged the same way.
    Zip,
    /// Anything else (images, signatures, office files): not a document Kontor reads.
    Other,
}

/// The kind of `bytes` ([`AttachmentKind`]).
pub fn attachment_kind(bytes: &[u8]) -> AttachmentKind {
    let body = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = body.iter().position(|b| !b.is_ascii_whitespace());
    let body = start.map_or(&[][..], |i| &body[i..]);
    if bytes.starts_with(b"%PDF-") {
        AttachmentKind::Pdf
    } else if bytes.starts_with(b"PK\x03\x04") {
        AttachmentKind::Zip
    } else if body.starts_with(b"<") {
        AttachmentKind::Xml
    } else {
        AttachmentKind::Other
    }
}

/// What separates the sentences of a message's `reason` (the app localizes each).
pub const REASON_SEPARATOR: &str = " · ";

/// What became of one document of a message.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum DocumentOutcome {
    /// An e-invoice became purchase `id`, or was purchase `id` already (a duplicate).
    Imported(i64),
    /// A PDF without e-invoice data became purchase `id` "to be completed".
    ToComplete(i64),
    /// An e-invoice became purchase `id`, but its check found a formal or content defect
    /// (the sentence names the attachment and the rules): someone must ask for a corrected
    /// invoice (issue 36).
    Defective(i64, String),
    /// The document is no readable e-invoice (the sentence says why); nothing was made.
    Rejected(String),
    /// A passing failure (database, file store): the message is tried again.
    Failed(String),
}

/// The state of a message whose documents ended as `outcomes` (attachment order), with its
/// reason (the sentences of the documents that did not import, joined by [`REASON_SEPARATOR`];
/// catalogue sentences where there is one, so the app shows them in German) and its
/// purchases: any failure → `failed`; no document → `ignored`; any PDF to complete,
/// rejected document or e-invoice with a formal or content defect → `needs_review`; else
/// `imported`.
pub fn message_state(
    outcomes: &[DocumentOutcome],
) -> (InboxMessageState, Option<String>, Vec<i64>) {
    let purchases = outcomes
        .iter()
        .filter_map(|o| match o {
            DocumentOutcome::Imported(id)
            | DocumentOutcome::ToComplete(id)
            | DocumentOutcome::Defective(id, _) => Some(*id),
            _ => None,
        })
        .collect();
    let reasons: Vec<&str> = outcomes
        .iter()
        .filter_map(|o| match o {
            DocumentOutcome::Failed(why)
            | DocumentOutcome::Rejected(why)
            | DocumentOutcome::Defective(_, why) => Some(why.as_str()),
            DocumentOutcome::ToComplete(_) => Some(messages::INBOX_PDF_TO_COMPLETE.en),
            DocumentOutcome::Imported(_) => None,
        })
        .collect();
    let reason = (!reasons.is_empty()).then(|| reasons.join(REASON_SEPARATOR));
    let state = if outcomes
        .iter()
        .any(|o| matches!(o, DocumentOutcome::Failed(_)))
    {
        InboxMessageState::Failed
    } else if outcomes.is_empty() {
        return (
            InboxMessageState::Ignored,
            Some(messages::INBOX_NO_DOCUMENTS.en.into()),
            purchases,
        );
    } else if reason.is_some() {
        InboxMessageState::NeedsReview
    } else {
        InboxMessageState::Imported
    };
    (state, reason, purchases)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn enabled() -> InboxSettingsUpdate {
        InboxSettingsUpdate {
            enabled: Some(true),
            host: Some(" imap.example.com ".into()),
            user: Some("office".into()),
            password: Some("secret".into()),
            ..Default::default()
        }
    }

    #[test]
    fn defaults_read_the_inbox_over_tls() {
        let c = InboxConfig::default();
        assert_eq!((c.port, c.security), (993, InboxSecurity::Tls));
        assert_eq!(
            (c.folder.as_str(), c.processed_folder.as_str()),
            ("INBOX", "Kontor/processed")
        );
        assert!(!c.view().password_set);
    }

    #[test]
    fn enabled_settings_need_host_and_user() {
        let e = merge_inbox_settings(
            &InboxConfig::default(),
            &InboxSettingsUpdate {
                enabled: Some(true),
                ..Default::default()
            },
        )
        .unwrap_err();
        assert!(e.contains_key("host") && e.contains_key("user"), "{e:?}");
        let c = merge_inbox_settings(&InboxConfig::default(), &enabled()).unwrap();
        assert_eq!(c.host, "imap.example.com");
        assert!(c.view().password_set);
    }

    #[test]
    fn password_absent_keeps_empty_removes() {
        let c = merge_inbox_settings(&InboxConfig::default(), &enabled()).unwrap();
        let kept = merge_inbox_settings(&c, &InboxSettingsUpdate::default()).unwrap();
        assert_eq!(kept.password.as_deref(), Some("secret"));
        let gone = merge_inbox_settings(
            &c,
            &InboxSettingsUpdate {
                password: Some(String::new()),
                ..Default::default()
            },
        )
        .unwrap();
        assert_eq!(gone.password, None);
    }

    #[test]
    fn security_moves_a_usual_port_along_only() {
        let c = merge_inbox_settings(&InboxConfig::default(), &enabled()).unwrap();
        let plain = InboxSettingsUpdate {
            security: Some(InboxSecurity::None),
            ..Default::default()
        };
        assert_eq!(merge_inbox_settings(&c, &plain).unwrap().port, 143);
        let custom = InboxConfig { port: 1993, ..c };
        assert_eq!(merge_inbox_settings(&custom, &plain).unwrap().port, 1993);
    }

    #[test]
    fn hostile_settings_name_their_field() {
        let bad = InboxSettingsUpdate {
            host: Some("imap example.com".into()),
            port: Some(0),
            user: Some("u".repeat(201)),
            folder: Some("IN\u{0}BOX".into()),
            processed_folder: Some("   ".into()),
            ..Default::default()
        };
        let e = merge_inbox_settings(&InboxConfig::default(), &bad).unwrap_err();
        for field in ["host", "port", "user", "folder", "processed_folder"] {
            assert!(e.contains_key(field), "{field}: {e:?}");
        }
        let same = InboxSettingsUpdate {
            processed_folder: Some("INBOX".into()),
            ..Default::default()
        };
        let e = merge_inbox_settings(&InboxConfig::default(), &same).unwrap_err();
        assert!(e.contains_key("processed_folder"));
    }

    #[test]
    fn attachments_are_judged_by_their_bytes() {
        assert_eq!(attachment_kind(b"%PDF-1.7\n"), AttachmentKind::Pdf);
        assert_eq!(
            attachment_kind(b"\xEF\xBB\xBF\n  <?xml version"),
            AttachmentKind::Xml
        );
        assert_eq!(attachment_kind(b"PK\x03\x04rest"), AttachmentKind::Zip);
        assert_eq!(attachment_kind(b"\x89PNG\r\n"), AttachmentKind::Other);
        assert_eq!(attachment_kind(b""), AttachmentKind::Other);
    }

    #[test]
    fn a_message_ends_in_exactly_one_state() {
        use DocumentOutcome::*;
        assert_eq!(message_state(&[]).0, InboxMessageState::Ignored);
        assert_eq!(
            message_state(&[Imported(1), Imported(2)]),
            (InboxMessageState::Imported, None, vec![1, 2])
        );
        let (s, reason, ids) = message_state(&[Imported(1), ToComplete(3)]);
        assert_eq!((s, ids), (InboxMessageState::NeedsReview, vec![1, 3]));
        assert!(reason.unwrap().contains("to be completed"));
        assert_eq!(
            message_state(&[Rejected("not an e-invoice".into())]).0,
            InboxMessageState::NeedsReview
        );
        assert_eq!(
            message_state(&[Imported(1), Failed("database".into())]).0,
            InboxMessageState::Failed
        );
        let (s, reason, ids) =
            message_state(&[Imported(1), Defective(2, "b.xml: content defect".into())]);
        assert_eq!((s, ids), (InboxMessageState::NeedsReview, vec![1, 2]));
        assert_eq!(reason.as_deref(), Some("b.xml: content defect"));
    }

    #[test]
    fn a_poll_counts_each_message_once() {
        let mut poll = InboxPoll::default();
        for s in InboxMessageState::ALL {
            poll.count(s);
        }
        assert_eq!(
            poll,
            InboxPoll {
                messages: 4,
                imported: 1,
                needs_review: 1,
                ignored: 1,
                failed: 1
            }
        );
    }
}
