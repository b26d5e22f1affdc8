//! People, sign-in and roles (issue 12, `docs/decisions.md` § People, sign-in and roles):
//! the roles and their order, the user's display preferences, and the pure rules of
//! sign-in — password length, lockout windows, session expiry. The password strength
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
pub fn password_length_error(password: &str) -> Option<String> {
    let chars = password.chars().count();
    (chars < PASSWORD_MIN_CHARS)
        .then(|| format!("must be at least {PASSWORD_MIN_CHARS} characters long (it has {chars})"))
}

/// Failed sign-ins for one e-mail address within [`LOCKOUT_WINDOW_MINUTES`] that lock it.
pub const LOCKOUT_FAILURES_PER_EMAIL: usize = 5;
/// Failed sign-ins from one client address within the window that lock that address.
pub const LOCKOUT_FAILURES_PER_ADDRESS: usize = 20;
/// The window failures are counted in, and the length of a lock, in minutes.
pub const LOCKOUT_WINDOW_MINUTES: i64 = 15;

/// The lockout rule: given the times of the failures recorded for one e-mail or address
/// (any order; the caller passes at least the last 2 × [`LOCKOUT_WINDOW_MINUTES`]), the
/// number `limit` that locks, and `now`, the seconds until another try is allowed, or
/// `None` when not locked. `limit` failures within [`LOCKOUT_WINDOW_MINUTES`] lock for
/// [`LOCKOUT_WINDOW_MINUTES`] from the last of them (the "5th failure"); tries refused
/// while locked are not recorded. At least 1 second.
pub fn lockout_retry_after(
    failures: &[DateTime<Utc>],
    limit: usize,
    now: DateTime<Utc>,
) -> Option<u64> {
    let window = Duration::minutes(LOCKOUT_WINDOW_MINUTES);
    if limit == 0 || failures.len() < limit {
        return None;
    }
    let mut sorted = failures.to_vec();
    sorted.sort();
    let until = sorted
        .windows(limit)
        .filter_map(|w| {
            let (first, last) = (w.first()?, w.last()?);
            (*last - *first < window).then(|| last.checked_add_signed(window))?
        })
        .max()?;
    let seconds = (until - now).num_seconds();
    (seconds > 0 || until > now).then(|| u64::try_from(seconds).unwrap_or(0).max(1))
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
    #[serde(default)]
    pub email: Option<String>,
    /// Password.
    #[serde(default)]
    pub password: Option<String>,
    /// First name (POST /setup only).
    #[serde(default)]
    pub firstname: Option<String>,
    /// Last name (POST /setup only).
    #[serde(default)]
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
    pub user: crate::party::User,
}

/// POST /session/invitation body: the token from the link and the new password.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct AcceptInvitation {
    /// The token from the password-set link.
    #[serde(default)]
    pub token: Option<String>,
    /// The new password.
    #[serde(default)]
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
    pub user: crate::party::User,
    /// The password-set link.
    pub invitation: Invitation,
}

/// PUT /users/{id} body (admin); absent fields stay.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpdateUser {
    /// First name.
    #[serde(default)]
    pub firstname: Option<String>,
    /// Last name.
    #[serde(default)]
    pub lastname: Option<String>,
    /// Role word.
    #[serde(default)]
    pub role: Option<String>,
    /// False deactivates (every key of the user fails at once).
    #[serde(default)]
    pub active: Option<bool>,
}

/// PUT /users/me body; absent fields stay.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct UpdateMe {
    /// `de` or `en`.
    #[serde(default)]
    pub language: Option<String>,
    /// `system`, `light` or `dark`.
    #[serde(default)]
    pub theme: Option<String>,
    /// First name.
    #[serde(default)]
    pub firstname: Option<String>,
    /// Last name.
    #[serde(default)]
    pub lastname: Option<String>,
}

/// PUT /users/me/password body.
#[derive(Clone, Debug, Default, PartialEq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub struct ChangePassword {
    /// The password now.
    #[serde(default)]
    pub current_password: Option<String>,
    /// The new password.
    #[serde(default)]
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
    #[serde(default, with = "opt_timestamp")]
    pub last_used_at: Option<DateTime<Utc>>,
    /// Revocation time.
    #[serde(default, with = "opt_timestamp")]
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
    #[serde(default)]
    pub name: Option<String>,
    /// GET only.
    #[serde(default)]
    pub read_only: Option<bool>,
}

/// `Option<DateTime<Utc>>` as a timestamp or `null`.
mod opt_timestamp {
    use chrono::{DateTime, Utc};
    use serde::{Deserialize, Deserializer, Serializer};

    pub fn serialize<S: Serializer>(
        time: &Option<DateTime<Utc>>,
        serializer: S,
    ) -> Result<S::Ok, S::Error> {
        match time {
            Some(t) => crate::timestamp::serialize(t, serializer),
            None => serializer.serialize_none(),
        }
    }

    pub fn deserialize<'de, D: Deserializer<'de>>(
        deserializer: D,
    ) -> Result<Option<DateTime<Utc>>, D::Error> {
        Option::<String>::deserialize(deserializer)?
            .map(|text| {
                crate::timestamp::parse(&text)
                    .ok_or_else(|| serde::de::Error::custom("must be a timestamp"))
            })
            .transpose()
    }
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

    #[test]
    fn five_failures_lock_for_fifteen_minutes_from_the_fifth() {
        let failures: Vec<_> = (0..4).map(at).collect();
        assert_eq!(lockout_retry_after(&failures, 5, at(4)), None);
        let mut five = failures.clone();
        five.push(at(4));
        assert_eq!(lockout_retry_after(&five, 5, at(4)), Some(15 * 60));
        assert_eq!(lockout_retry_after(&five, 5, at(18)), Some(60));
        // The lock lasts 15 minutes from the fifth failure, not from the first.
        assert_eq!(lockout_retry_after(&five, 5, at(15)), Some(4 * 60));
        assert_eq!(lockout_retry_after(&five, 5, at(19)), None);
        // Five failures spread over more than 15 minutes do not lock.
        let spread: Vec<_> = [0, 4, 8, 12, 16].into_iter().map(at).collect();
        assert_eq!(lockout_retry_after(&spread, 5, at(16)), None);
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
