//! The account and the session (`decisions.md` § Account, § Authentication and keys).

use serde::{Deserialize, Serialize};

/// A configured letter paper: `{id, name, default}`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LetterPaper {
    /// Letter paper id (`letter_paper_id`).
    pub id: i64,
    /// Name shown in choices.
    pub name: String,
    /// The default letter paper.
    pub default: bool,
}

/// GET /account: `{name, address, currencies, default_currency, letter_papers}`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Account {
    /// Account (company) name.
    pub name: String,
    /// Sender address, lines separated by `\n`.
    pub address: String,
    /// Valid currency codes; the first is the default.
    pub currencies: Vec<String>,
    /// The default currency.
    pub default_currency: String,
    /// Letter papers.
    pub letter_papers: Vec<LetterPaper>,
}

/// GET /session: `{"id": <user id>, "uuid": "<key uuid>"}` plus the key's name and access.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Session {
    /// The user the key acts for.
    pub id: i64,
    /// The key's public uuid.
    pub uuid: String,
    /// The key's name (shown in the top bar).
    #[serde(default)]
    pub name: String,
    /// True for a read-only key.
    #[serde(default)]
    pub read_only: bool,
}
