//! Users, sign-in and roles (issue 12, `docs/decisions.md` § People, sign-in and roles):
//! the user records, the roles and their order, the user's display preferences, and the pure rules of
//! sign-in — password length, the back-off after failed sign-ins, session expiry. The password strength
//! estimate (zxcvbn) and the hashing (argon2id) live in the server: they are heavy and
//! never run in the browser.

use chrono::{DateTime, Duration, Utc};
use serde::{Deserialize, Serialize};

/// What a user may do. Ordered: `ReadOnly < Staff < Admin`; a role allows everything a
/// lower one does.
#[derive(
    Clone, Copy, Debug, Default, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize,
)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Role {
    /// Reads everything, writes nothing (403 on every write but its own preferences,
    /// password and sign-out).
    ReadOnly,
    /// All business records (invoices, offers, purchases, master data); 403 on settings,
    /// users and API keys.
    #[default]
    Staff,
    /// Everything, including settings, users and API keys.
    Admin,
}

impl Role {
    /// The wire word (`admin`, `staff`, `read_only`).
    pub fn as_str(self) -> &'static str {
        match self {
            Role::ReadOnly => "read_only",
            Role::Staff => "staff",
            Role::Admin => "admin",
        }
    }

    /// Parses the wire word; `None` for anything else.
    pub fn parse(text: &str) -> Option<Role> {
        match text {
            "read_only" => Some(Role::ReadOnly),
            "staff" => Some(Role::Staff),
            "admin" => Some(Role::Admin),
            _ => None,
        }
    }

    /// Whether this role may do what `required` may.
    pub fn allows(self, required: Role) -> bool {
        self >= required
    }
}

/// The colour scheme a user chose; `System` follows `prefers-color-scheme`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Theme {
    /// Follow the operating system.
    #[default]
    System,
    /// Always light.
    Light,
    /// Always dark.
    Dark,
}

impl Theme {
    /// The wire word.
    pub fn as_str(self) -> &'static str {
        match self {
            Theme::System => "system",
            Theme::Light => "light",
            Theme::Dark => "dark",
        }
    }

    /// Parses the wire word; `None` for anything else.
    pub fn parse(text: &str) -> Option<Theme> {
        match text {
            "system" => Some(Theme::System),
            "light" => Some(Theme::Light),
            "dark" => Some(Theme::Dark),
            _ => None,
        }
    }
}

/// The languages a user can choose (`de`, `en`).
pub const LANGUAGES: [&str; 2] = ["de", "en"];

/// Minimum password length in characters (Unicode scalar values), issue 12.
pub const PASSWORD_MIN_CHARS: usize = 12;

/// The length rule: `Some(reason)` when `password` has fewer than [`PASSWORD_MIN_CHARS`]
/// characters, `None` when long enough. The strength rule (zxcvbn score ≥ 3) is checked
/// by the server after this one.
pub fn password_length_error(password: &str) -> Option<crate::error::Message> {
    let chars = password.chars().count();
    (chars < PASSWORD_MIN_CHARS).then(|| {
        crate::error::messages::MUST_BE_AT_LEAST_N_CHARACTERS.with([PASSWORD_MIN_CHARS, chars])
    })
}

/// The window failures are counted in, in minutes.
pub const LOCKOUT_WINDOW_MINUTES: i64 = 15;
/// Failed sign-ins for one e-mail from one client address within the window that are
/// free; each one more makes the next try wait ([`backoff_retry_after`]).
pub const FREE_FAILURES_PER_EMAIL_AND_ADDRESS: usize = 5;
/// Failed sign-ins from one client address (any e-mail) within the window that are free.
pub const FREE_FAILURES_PER_ADDRESS: usize = 20;
/// Unknown API keys from one client address within the window that are free.
pub const FREE_WRONG_KEYS_PER_ADDRESS: usize = 20;
/// The wait after the first failure beyond the free ones, in seconds; it doubles with
/// every further failure.
pub const BACKOFF_FIRST_SECONDS: i64 = 30;
/// The longest wait, in seconds (15 minutes).
pub const BACKOFF_MAX_SECONDS: i64 = 15 * 60;

/// The back-off rule of sign-in and API keys (issue 29; `docs/decisions.md` § People,
/// sign-in and roles): given the times of the failures recorded for one scope (an e-mail
/// from one address, an address, an e-mail; any order), the number of failures within
/// [`LOCKOUT_WINDOW_MINUTES`] that are `free`, and `now`: the seconds until another try
/// is allowed, or `None` when one is allowed now. With `n ≥ free` failures in the window
/// the next try waits [`BACKOFF_FIRST_SECONDS`] × 2^(n − free) (at most
/// [`BACKOFF_MAX_SECONDS`]) after the last failure. Tries refused while waiting are not
/// failures. There is no hard lock: the wait ends by itself, and it only binds the scope
/// that failed. At least 1 second.
pub fn backoff_retry_after(
    failures: &[DateTime<Utc>],
    free: usize,
    now: DateTime<Utc>,
) -> Option<u64> {
    let window_start = now - Duration::minutes(LOCKOUT_WINDOW_MINUTES);
    let recent: Vec<&DateTime<Utc>> = failures.iter().filter(|t| **t > window_start).collect();
    if recent.len() < free {
        return None;
    }
    let doublings = u32::try_from(recent.len() - free)
        .unwrap_or(u32::MAX)
        .min(20);
    let delay = BACKOFF_FIRST_SECONDS
        .saturating_mul(1i64 << doublings)
        .min(BACKOFF_MAX_SECONDS);
    let last = recent.into_iter().max()?;
    let until = *last + Duration::seconds(delay);
    let seconds = (until - now).num_milliseconds();
    (seconds > 0).then(|| u64::try_from((seconds + 999) / 1000).unwrap_or(1).max(1))
}

/// Days without use after which a session key (from sign-in) stops working.
pub const SESSION_IDLE_DAYS: i64 = 30;

/// Whether a session key last used at `last_used` (its creation when never used) has
/// expired at `now`: more than [`SESSION_IDLE_DAYS`] days ago.
pub fn session_expired(last_used: DateTime<Utc>, now: DateTime<Utc>) -> bool {
    now - last_used > Duration::days(SESSION_IDLE_DAYS)
}

/// Days an invitation (password-set link) stays valid.
pub const INVITATION_DAYS: i64 = 7;

/// POST /session, POST /setup (with names) body: the credentials.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignIn {
    /// E-mail address (compared case-insensitively).
    pub email: Option<String>,
    /// Password.
    pub password: Option<String>,
    /// First name (POST /setup only).
    pub firstname: Option<String>,
    /// Last name (POST /setup only).
    pub lastname: Option<String>,
}

/// The answer of a successful sign-in: the personal session key (shown only here) and the
/// user.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct SignedIn {
    /// The session key, used as `Authorization: Token token=<api_key>`.
    pub api_key: String,
    /// Who signed in.
    pub user: User,
}

/// POST /session/password_reset body (issue 33 § Forgotten passwords): the e-mail address
/// of the person who forgot their password. The answer is always 202, whether or not the
/// address belongs to a user.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct PasswordReset {
    /// The user's e-mail address (compared without case).
    pub email: Option<String>,
}

/// How long a forgotten-password link stays valid, in minutes (issue 33: 60).
pub const PASSWORD_RESET_MINUTES: i64 = 60;

/// POST /session/invitation body: the token from the link and the new password.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AcceptInvitation {
    /// The token from the password-set link.
    pub token: Option<String>,
    /// The new password.
    pub password: Option<String>,
}

/// A one-time password-set link (shown to the admin once).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct Invitation {
    /// The link (`<origin>/set-password?token=…`).
    pub url: String,
    /// The token alone.
    pub token: String,
    /// When the link stops working (7 days after creation).
    #[serde(with = "crate::timestamp")]
    pub expires_at: DateTime<Utc>,
    /// Whether it was e-mailed to the user (only when SMTP is configured).
    pub emailed: bool,
}

/// POST /users answer: the user and its invitation.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct InvitedUser {
    /// The new user.
    pub user: User,
    /// The password-set link.
    pub invitation: Invitation,
}

/// PUT /users/{id} body (admin); absent fields stay.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpdateUser {
    /// First name.
    pub firstname: Option<String>,
    /// Last name.
    pub lastname: Option<String>,
    /// Role word.
    pub role: Option<String>,
    /// False deactivates (every key of the user fails at once).
    pub active: Option<bool>,
}

/// PUT /users/me body; absent fields stay.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpdateMe {
    /// `de` or `en`.
    pub language: Option<String>,
    /// `system`, `light` or `dark`.
    pub theme: Option<String>,
    /// First name.
    pub firstname: Option<String>,
    /// Last name.
    pub lastname: Option<String>,
}

/// PUT /users/me/password body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChangePassword {
    /// The password now.
    pub current_password: Option<String>,
    /// The new password.
    pub password: Option<String>,
}

/// The user an API key acts for, as the key list shows it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct KeyUser {
    /// User id.
    pub id: i64,
    /// "Firstname Lastname".
    pub name: String,
}

/// An API key as GET /api_keys lists it (never the secret; `api_key` only in the answer
/// of POST /api_keys).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ApiKey {
    /// Key id.
    pub id: i64,
    /// Public uuid.
    pub uuid: String,
    /// Name.
    pub name: String,
    /// GET only.
    pub read_only: bool,
    /// `api` (made by an admin or the CLI) or `session` (from sign-in).
    pub kind: String,
    /// The user it acts for.
    pub user: KeyUser,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last use (to the minute); `None` when never used.
    #[serde(default, with = "crate::timestamp::option")]
    pub last_used_at: Option<DateTime<Utc>>,
    /// Revocation time.
    #[serde(default, with = "crate::timestamp::option")]
    pub revoked_at: Option<DateTime<Utc>>,
    /// The secret: only in the answer of POST /api_keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub api_key: Option<String>,
}

/// POST /api_keys body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewApiKey {
    /// Required: a name.
    pub name: Option<String>,
    /// GET only.
    pub read_only: Option<bool>,
}

/// A user of the account (internal contact).
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct User {
    /// Record id.
    pub id: i64,
    /// First name.
    pub firstname: String,
    /// Last name.
    pub lastname: String,
    /// E-mail.
    pub email: Option<String>,
    /// What the user may do (issue 12); absent in older answers: staff.
    #[serde(default)]
    pub role: Role,
    /// False once deactivated: every key of the user fails (issue 12).
    #[serde(default = "active_default")]
    pub active: bool,
    /// Chosen language (`de`, `en`); `None` follows the browser.
    pub language: Option<String>,
    /// Chosen colour scheme.
    #[serde(default)]
    pub theme: Theme,
    /// Creation time.
    #[serde(with = "crate::timestamp")]
    pub created_at: DateTime<Utc>,
    /// Last change.
    #[serde(with = "crate::timestamp")]
    pub updated_at: DateTime<Utc>,
}

fn active_default() -> bool {
    true
}

/// POST /users body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct NewUser {
    /// Required: first name.
    pub firstname: Option<String>,
    /// Required: last name.
    pub lastname: Option<String>,
    /// E-mail.
    pub email: Option<String>,
    /// Role (`admin`, `staff`, `read_only`; issue 12); staff when absent.
    pub role: Option<String>,
}

#[cfg(test)]
mod tests {
    use super::*;
    use chrono::TimeZone;

    fn at(min: i64) -> DateTime<Utc> {
        Utc.with_ymd_and_hms(2026, 11, 23, 12, 0, 0).unwrap() + Duration::minutes(min)
    }

    #[test]
    fn roles_are_ordered() {
        assert!(Role::Admin.allows(Role::Staff));
        assert!(Role::Staff.allows(Role::Staff));
        assert!(!Role::Staff.allows(Role::Admin));
        assert!(!Role::ReadOnly.allows(Role::Staff));
        assert_eq!(Role::parse("read_only"), Some(Role::ReadOnly));
        assert_eq!(Role::parse("owner"), None);
        assert_eq!(
            serde_json::to_string(&Role::ReadOnly).unwrap(),
            "\"read_only\""
        );
        assert_eq!(Theme::parse("dark"), Some(Theme::Dark));
    }

    #[test]
    fn password_length_counts_characters() {
        assert!(password_length_error("elf-zeichen").is_some());
        assert!(password_length_error("zwölf-zeichn").is_none());
        assert!(password_length_error("äöüäöüäöüäö").unwrap().contains("12"));
    }

    fn secs(s: i64) -> DateTime<Utc> {
        at(0) + Duration::seconds(s)
    }

    #[test]
    fn failures_beyond_the_free_ones_back_off_doubling_up_to_fifteen_minutes() {
        let four: Vec<_> = (0..4).map(secs).collect();
        assert_eq!(backoff_retry_after(&four, 5, secs(4)), None);
        let mut failures: Vec<_> = (0..5).map(secs).collect();
        // The fifth failure: the next try waits 30 s after it.
        assert_eq!(backoff_retry_after(&failures, 5, secs(4)), Some(30));
        assert_eq!(backoff_retry_after(&failures, 5, secs(20)), Some(14));
        assert_eq!(backoff_retry_after(&failures, 5, secs(34)), None);
        // Each failure more doubles the wait: 60 s, 120 s, …
        failures.push(secs(40));
        assert_eq!(backoff_retry_after(&failures, 5, secs(40)), Some(60));
        failures.push(secs(100));
        assert_eq!(backoff_retry_after(&failures, 5, secs(100)), Some(120));
        // … never more than 15 minutes, and no hard lock: it ends by itself.
        let many: Vec<_> = (0..40).map(secs).collect();
        assert_eq!(backoff_retry_after(&many, 5, secs(39)), Some(15 * 60));
        assert_eq!(backoff_retry_after(&many, 5, secs(39 + 15 * 60)), None);
        // Failures older than the window do not count.
        let old: Vec<_> = (0..5).map(|m| at(0) - Duration::minutes(16 + m)).collect();
        assert_eq!(backoff_retry_after(&old, 5, at(0)), None);
        // Order does not matter.
        let mut shuffled: Vec<_> = (0..5).map(secs).collect();
        shuffled.reverse();
        assert_eq!(backoff_retry_after(&shuffled, 5, secs(4)), Some(30));
    }

    #[test]
    fn sessions_expire_after_thirty_idle_days() {
        let used = at(0);
        assert!(!session_expired(used, used + Duration::days(30)));
        assert!(session_expired(
            used,
            used + Duration::days(30) + Duration::seconds(1)
        ));
    }
}
