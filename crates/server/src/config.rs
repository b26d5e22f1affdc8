//! Server configuration: command-line flags / environment (listen address, data
//! directory, bundle directory, CORS origins, rate limit) and the account file
//! (`decisions.md` § Account).

use serde::Deserialize;
use std::net::SocketAddr;
use std::path::{Path, PathBuf};

/// Runtime settings of `kontor-server serve`.
#[derive(Clone, Debug)]
pub struct ServerConfig {
    /// Address to listen on (`KONTOR_LISTEN`, default `127.0.0.1:8080`).
    pub listen: SocketAddr,
    /// Data directory holding `kontor.db` (SQLite, WAL) and stored files (`KONTOR_DATA`).
    pub data_dir: PathBuf,
    /// The built browser bundle served at `/` (`KONTOR_DIST`, default `./dist`).
    pub dist_dir: Option<PathBuf>,
    /// Origins trusted for CORS besides the server's own (`KONTOR_CORS_ORIGINS`, comma-separated).
    pub cors_origins: Vec<String>,
    /// Requests per key per 2 minutes (default 1,200; 0 disables the limit).
    pub rate_limit: u32,
    /// The account (name, address, currencies, letter papers).
    pub account: AccountConfig,
}

/// A letter paper of the account file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
pub struct LetterPaperConfig {
    /// Id used as `letter_paper_id`.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// Whether this is the default paper.
    #[serde(default)]
    pub default: bool,
}

/// The account file `kontor.toml` (in the data directory, or `--account FILE`):
///
/// ```toml
/// name = "Kontor GmbH"
/// address = "Hauptstraße 1\n10115 Berlin"
/// currencies = ["EUR", "CHF", "USD"]   # the first is the default
/// [[letter_papers]]
/// id = 1
/// name = "White"
/// default = true
/// ```
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default)]
pub struct AccountConfig {
    /// Account name (sender).
    pub name: String,
    /// Sender address, lines separated by `\n`.
    pub address: String,
    /// Valid currencies; the first is the default.
    pub currencies: Vec<String>,
    /// Letter papers; exactly one should be `default`.
    pub letter_papers: Vec<LetterPaperConfig>,
}

impl Default for AccountConfig {
    fn default() -> Self {
        AccountConfig {
            name: "Kontor Demo GmbH".into(),
            address: "Hauptstraße 1\n10115 Berlin\nGermany".into(),
            currencies: vec!["EUR".into(), "CHF".into(), "USD".into()],
            letter_papers: vec![LetterPaperConfig { id: 1, name: "White".into(), default: true }],
        }
    }
}

impl AccountConfig {
    /// Reads the account file at `path`; defaults when it does not exist.
    ///
    /// Errors: the file exists but cannot be read or is not valid TOML of this shape, or it
    /// lists no currency.
    pub fn load(path: &Path) -> Result<Self, String> {
        if !path.exists() {
            return Ok(AccountConfig::default());
        }
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let config: AccountConfig = toml::from_str(&text).map_err(|e| format!("invalid account file {}: {e}", path.display()))?;
        if config.currencies.is_empty() {
            return Err(format!("account file {} lists no currency", path.display()));
        }
        Ok(config)
    }

    /// The default currency (the first listed).
    pub fn default_currency(&self) -> &str {
        self.currencies.first().map(String::as_str).unwrap_or("EUR")
    }
}
