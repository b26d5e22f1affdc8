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
    /// The database (`--database` / `KONTOR_DATABASE`): `None` for `<data>/kontor.db`,
    /// `sqlite://PATH` for another SQLite file (`db::locate`).
    pub database: Option<String>,
    /// Where stored files live (`--files` / `KONTOR_FILES`): `None` for `<data>/files`,
    /// `s3://bucket/prefix` for an S3-compatible bucket (`storage::FileStore::open`).
    pub files: Option<String>,
    /// The account file: letter papers and layout settings, and the seed of the account
    /// settings in the database (`account::repo::seed`).
    pub account: AccountConfig,
}

/// A letter paper of the account file: what is printed around a document.
#[derive(Clone, Debug, Default, Deserialize, PartialEq)]
pub struct LetterPaperConfig {
    /// Id used as `letter_paper_id`.
    pub id: i64,
    /// Display name.
    pub name: String,
    /// Whether this is the default paper.
    #[serde(default)]
    pub default: bool,
    /// A wordmark printed as the logo (top right), e.g. the company's short name.
    #[serde(default)]
    pub logo_text: String,
    /// The footer line on every page (bank details, register, tax number).
    #[serde(default)]
    pub footer_line: String,
}

/// How to hand over e-mail (`starttls`, `tls`, `none`); the model's type, so the file,
/// the database and the API read the same words.
pub use kontor_model::account::SmtpSecurity;

/// SMTP settings of the account file (`[smtp]`). Without them, messages go to the data
/// directory's `outbox/` as `.eml` files.
#[derive(Clone, Default, Deserialize, PartialEq)]
pub struct SmtpConfig {
    /// Server host name.
    pub host: String,
    /// Port; default 587 (STARTTLS), 465 (TLS) or 25 (none).
    #[serde(default)]
    pub port: Option<u16>,
    /// Transport security.
    #[serde(default)]
    pub security: SmtpSecurity,
    /// User name for authentication, if any.
    #[serde(default)]
    pub user: Option<String>,
    /// Password (never logged).
    #[serde(default)]
    pub password: Option<String>,
}

impl std::fmt::Debug for SmtpConfig {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("SmtpConfig")
            .field("host", &self.host)
            .field("port", &self.port)
            .field("security", &self.security)
            .field("user", &self.user)
            .field("password", &self.password.as_ref().map(|_| "***"))
            .finish()
    }
}

/// The account file `kontor.toml` (in the data directory, or `--account FILE`). Since
/// issue 9 the account's own data lives in the database (`account_settings`, changed with
/// `PUT /account` on the Settings page): the file only **seeds** it on the first start
/// with that table, and afterwards only its letter papers and `print_detail_columns` are
/// read from it (`docs/decisions.md` § Account settings (issue 9)).
///
/// ```toml
/// name = "Kontor GmbH"
/// address = "Hauptstraße 1\n10115 Berlin"
/// currencies = ["EUR", "CHF", "USD"]   # the first is the default
/// email = "billing@kontor.example"      # sender of e-mails
/// [smtp]                                # optional; without it: <data>/outbox/*.eml
/// host = "smtp.example.com"
/// port = 587
/// security = "starttls"                 # or "tls", "none"
/// user = "billing@kontor.example"
/// password = "…"
/// [[letter_papers]]
/// id = 1
/// name = "White"
/// default = true
/// [[letter_papers]]
/// id = 2
/// name = "Letterhead"
/// logo_text = "Kontor"
/// footer_line = "Kontor GmbH · www.kontor.example"
/// ```
///
/// Optional seeds of the account's own data (checked like `PUT /account`; a bad value
/// stops the first start): `country_code`, `vat_identifier`, `tax_number`,
/// `register_court`, `register_number`, `managing_directors`, `phone`, `website`,
/// `account_holder`, `iban`, `bic`, `bank_name`, `default_invoice_due_days`,
/// `invoice_number_format`, `offer_number_format`, `purchase_number_format`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(default)]
pub struct AccountConfig {
    /// Seed: account name (sender).
    pub name: String,
    /// Seed: sender address, lines separated by `\n`.
    pub address: String,
    /// Seed: valid currencies; the first is the default.
    pub currencies: Vec<String>,
    /// Letter papers; exactly one should be `default`.
    pub letter_papers: Vec<LetterPaperConfig>,
    /// Seed: the account's e-mail address, also the sender (`From`) of e-mails.
    pub email: String,
    /// Layout setting: offers show quantity, unit and unit price unless a creation body
    /// says otherwise (`print_detail_columns`).
    pub print_detail_columns: bool,
    /// Seed: SMTP settings; `None` writes messages to `<data>/outbox/`.
    pub smtp: Option<SmtpConfig>,
    /// Seed: country of the address (ISO 3166-1 alpha-2).
    pub country_code: Option<String>,
    /// Seed: VAT ID.
    pub vat_identifier: Option<String>,
    /// Seed: tax number (Steuernummer).
    pub tax_number: Option<String>,
    /// Seed: register court.
    pub register_court: Option<String>,
    /// Seed: register number.
    pub register_number: Option<String>,
    /// Seed: managing directors.
    pub managing_directors: Option<String>,
    /// Seed: phone number.
    pub phone: Option<String>,
    /// Seed: website.
    pub website: Option<String>,
    /// Seed: bank account holder.
    pub account_holder: Option<String>,
    /// Seed: IBAN.
    pub iban: Option<String>,
    /// Seed: BIC.
    pub bic: Option<String>,
    /// Seed: bank name.
    pub bank_name: Option<String>,
    /// Seed: default payment term in days (default 14).
    pub default_invoice_due_days: i64,
    /// Seed: invoice number format (default `R{YY}{MM}-{NNN}`).
    pub invoice_number_format: Option<String>,
    /// Seed: offer number format (default `A{YY}{MM}-{NNN}`).
    pub offer_number_format: Option<String>,
    /// Seed: purchase number format (default `E{YY}{MM}-{NNNN}`).
    pub purchase_number_format: Option<String>,
}

impl Default for AccountConfig {
    fn default() -> Self {
        AccountConfig {
            name: "Kontor Demo GmbH".into(),
            address: "Hauptstraße 1\n10115 Berlin\nGermany".into(),
            currencies: vec!["EUR".into(), "CHF".into(), "USD".into()],
            email: "billing@kontor.example".into(),
            print_detail_columns: true,
            smtp: None,
            letter_papers: vec![
                LetterPaperConfig {
                    id: 1,
                    name: "White".into(),
                    default: true,
                    ..Default::default()
                },
                LetterPaperConfig {
                    id: 2,
                    name: "Letterhead".into(),
                    default: false,
                    logo_text: "Kontor".into(),
                    footer_line: "Kontor Demo GmbH · www.kontor.example".into(),
                },
            ],
            country_code: None,
            vat_identifier: None,
            tax_number: None,
            register_court: None,
            register_number: None,
            managing_directors: None,
            phone: None,
            website: None,
            account_holder: None,
            iban: None,
            bic: None,
            bank_name: None,
            default_invoice_due_days: 14,
            invoice_number_format: None,
            offer_number_format: None,
            purchase_number_format: None,
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
        let text = std::fs::read_to_string(path)
            .map_err(|e| format!("cannot read {}: {e}", path.display()))?;
        let config: AccountConfig = toml::from_str(&text)
            .map_err(|e| format!("invalid account file {}: {e}", path.display()))?;
        if config.currencies.is_empty() {
            return Err(format!("account file {} lists no currency", path.display()));
        }
        Ok(config)
    }

    /// The letter paper `id`, or the default one when `id` is `None`; `None` for an
    /// unknown id.
    pub fn letter_paper(&self, id: Option<i64>) -> Option<&LetterPaperConfig> {
        match id {
            Some(id) => self.letter_papers.iter().find(|p| p.id == id),
            None => self
                .letter_papers
                .iter()
                .find(|p| p.default)
                .or(self.letter_papers.first()),
        }
    }

    /// The white letter paper (offers' and time sheets' default): the first paper without
    /// logo and footer line, else the default paper.
    pub fn white_letter_paper(&self) -> Option<&LetterPaperConfig> {
        self.letter_papers
            .iter()
            .find(|p| p.logo_text.is_empty() && p.footer_line.is_empty())
            .or_else(|| self.letter_paper(None))
    }

    /// The default currency (the first listed).
    pub fn default_currency(&self) -> &str {
        self.currencies.first().map(String::as_str).unwrap_or("EUR")
    }
}
