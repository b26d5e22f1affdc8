//! Who may do what: API keys and sessions (`auth`, `session`), the role table
//! (`roles`), rate limits and the sign-in back-off (`rate_limit`, `attempts`) and password
//! hashing (`passwords`), forgotten passwords (`password_reset`).

pub mod attempts;
pub mod auth;
pub mod password_reset;
pub mod passwords;
pub mod rate_limit;
pub mod roles;
pub mod session;
