//! The account's settings row (`account_settings`, one row; `docs/decisions.md`
//! § Account settings (issue 9)): seeding it from the account file on the first start,
//! reading it, and writing it back. A repository: it knows no handler.

use crate::config::{AccountConfig, SmtpConfig};
use crate::http::error::{ApiError, ApiResult};
use crate::store::db::{now, ts, Dec};
use kontor_model::account::{
    apply_account_update, validate_account_update, Account, AccountUpdate, DocumentTexts,
    SmtpSecurity, SmtpSettings,
};
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::number_format::{
    DEFAULT_CREDIT_NOTE_FORMAT, DEFAULT_INVOICE_FORMAT, DEFAULT_OFFER_FORMAT,
    DEFAULT_PURCHASE_FORMAT,
};
use kontor_model::status::FinalizedDeletion;
use kontor_model::vat::DEFAULT_TAX_PERCENT;

/// The stored logo: file name under `<data>/files/account_logo/` and its type.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StoredLogo {
    /// Random file name (`<32 hex>.png` / `.svg`).
    pub key: String,
    /// `image/png` or `image/svg+xml`.
    pub content_type: String,
}

/// The settings row.
#[derive(Clone, Debug)]
pub struct Settings {
    /// The public fields (`logo`, `smtp` and `letter_papers` left empty here).
    pub account: Account,
    /// The logo, if one is stored.
    pub logo: Option<StoredLogo>,
    /// SMTP with its password; `None` = the outbox.
    pub smtp: Option<SmtpConfig>,
}

impl Settings {
    /// The SMTP settings as the API shows them (no password, only whether one is set).
    pub fn smtp_view(&self) -> Option<SmtpSettings> {
        self.smtp.as_ref().map(|s| SmtpSettings {
            host: s.host.clone(),
            port: s.port.unwrap_or(s.security.default_port()),
            security: s.security,
            user: s.user.clone(),
            password_set: s.password.is_some(),
        })
    }

    /// The account with `smtp` filled (what the update rules check against).
    pub fn with_smtp(&self) -> Account {
        Account {
            smtp: self.smtp_view(),
            ..self.account.clone()
        }
    }
}

const COLUMNS: &str = "name, address, country_code, vat_identifier, tax_number, \
    register_court, register_number, managing_directors, phone, email, website, \
    account_holder, iban, bic, bank_name, currencies, default_currency, default_tax, \
    default_invoice_due_days, document_texts, invoice_number_format, offer_number_format, \
    purchase_number_format, credit_note_number_format, logo_key, logo_content_type, smtp_host, smtp_port, smtp_security, \
    smtp_user, smtp_password, electronic_address, sepa_creditor_identifier, factur_x, datev, \
    finalized_invoice_deletion, offer_confirmation_on_approval, girocode";

fn corrupt(what: &str) -> ApiError {
    ApiError::Internal(format!("account_settings.{what} is corrupt"))
}

fn from_row(row: &crate::sql::Row) -> ApiResult<Settings> {
    let text = |c: &str| row.try_get::<Option<String>, _>(c);
    let currencies: String = row.try_get("currencies")?;
    let texts: String = row.try_get("document_texts")?;
    let account = Account {
        name: row.try_get("name")?,
        address: row.try_get("address")?,
        country_code: text("country_code")?,
        vat_identifier: text("vat_identifier")?,
        tax_number: text("tax_number")?,
        register_court: text("register_court")?,
        register_number: text("register_number")?,
        managing_directors: text("managing_directors")?,
        phone: text("phone")?,
        email: text("email")?,
        website: text("website")?,
        account_holder: text("account_holder")?,
        iban: text("iban")?,
        bic: text("bic")?,
        bank_name: text("bank_name")?,
        currencies: serde_json::from_str(&currencies).map_err(|_| corrupt("currencies"))?,
        default_currency: row.try_get("default_currency")?,
        default_tax: row.try_get::<Dec, _>("default_tax")?.0,
        default_invoice_due_days: row.try_get("default_invoice_due_days")?,
        document_texts: serde_json::from_str(&texts).map_err(|_| corrupt("document_texts"))?,
        invoice_number_format: row.try_get("invoice_number_format")?,
        offer_number_format: row.try_get("offer_number_format")?,
        purchase_number_format: row.try_get("purchase_number_format")?,
        credit_note_number_format: row.try_get("credit_note_number_format")?,
        letter_papers: Vec::new(),
        logo: None,
        smtp: None,
        electronic_address: text("electronic_address")?,
        sepa_creditor_identifier: text("sepa_creditor_identifier")?,
        factur_x: row.try_get("factur_x")?,
        datev: match text("datev")? {
            Some(json) => serde_json::from_str(&json).map_err(|_| corrupt("datev"))?,
            None => Default::default(),
        },
        finalized_invoice_deletion: FinalizedDeletion::parse(
            &row.try_get::<String, _>("finalized_invoice_deletion")?,
        )
        .ok_or_else(|| corrupt("finalized_invoice_deletion"))?,
        offer_confirmation_on_approval: row.try_get("offer_confirmation_on_approval")?,
        girocode: row.try_get("girocode")?,
    };
    let logo = match (text("logo_key")?, text("logo_content_type")?) {
        (Some(key), Some(content_type)) => Some(StoredLogo { key, content_type }),
        _ => None,
    };
    let smtp = match text("smtp_host")? {
        Some(host) => {
            let security = text("smtp_security")?.unwrap_or_default();
            let port: Option<i64> = row.try_get("smtp_port")?;
            Some(SmtpConfig {
                host,
                port: port
                    .map(|p| u16::try_from(p).map_err(|_| corrupt("smtp_port")))
                    .transpose()?,
                security: SmtpSecurity::parse(&security).ok_or_else(|| corrupt("smtp_security"))?,
                user: text("smtp_user")?,
                password: text("smtp_password")?,
            })
        }
        None => None,
    };
    Ok(Settings {
        account,
        logo,
        smtp,
    })
}

/// Reads the settings row. Errors: 500 when it is missing (the server seeds it at start)
/// or corrupt.
pub async fn load<'e>(db: impl crate::sql::Executor<'e>) -> ApiResult<Settings> {
    let row = crate::sql::query(&format!(
        "SELECT {COLUMNS} FROM account_settings WHERE id = 1"
    ))
    .fetch_optional(db)
    .await?
    .ok_or_else(|| ApiError::Internal("account_settings has no row".into()))?;
    from_row(&row)
}

/// Writes every column of `settings` (inside the caller's transaction, which holds the
/// write lock). Errors: 500 on database failure.
pub async fn save<'e>(db: impl crate::sql::Executor<'e>, settings: &Settings) -> ApiResult<()> {
    let columns: Vec<&str> = COLUMNS.split(", ").map(str::trim).collect();
    let sets = columns
        .iter()
        .enumerate()
        .map(|(n, c)| format!("{c} = ${}", n + 1))
        .collect::<Vec<_>>()
        .join(", ");
    let updated_at = columns.len() + 1;
    bind_all(
        crate::sql::query(&format!(
            "UPDATE account_settings SET {sets}, updated_at = ${updated_at} WHERE id = 1"
        )),
        settings,
    )
    .bind(ts(now()))
    .execute(db)
    .await?;
    Ok(())
}

/// Binds the values of [`COLUMNS`] in order.
fn bind_all<'q>(query: crate::sql::Query<'q>, s: &'q Settings) -> crate::sql::Query<'q> {
    let a = &s.account;
    let smtp = s.smtp.as_ref();
    query
        .bind(&a.name)
        .bind(&a.address)
        .bind(&a.country_code)
        .bind(&a.vat_identifier)
        .bind(&a.tax_number)
        .bind(&a.register_court)
        .bind(&a.register_number)
        .bind(&a.managing_directors)
        .bind(&a.phone)
        .bind(&a.email)
        .bind(&a.website)
        .bind(&a.account_holder)
        .bind(&a.iban)
        .bind(&a.bic)
        .bind(&a.bank_name)
        .bind(serde_json::to_string(&a.currencies).unwrap_or_else(|_| "[]".into()))
        .bind(&a.default_currency)
        .bind(a.default_tax)
        .bind(a.default_invoice_due_days)
        .bind(serde_json::to_string(&a.document_texts).unwrap_or_else(|_| "{}".into()))
        .bind(&a.invoice_number_format)
        .bind(&a.offer_number_format)
        .bind(&a.purchase_number_format)
        .bind(&a.credit_note_number_format)
        .bind(s.logo.as_ref().map(|l| l.key.clone()))
        .bind(s.logo.as_ref().map(|l| l.content_type.clone()))
        .bind(smtp.map(|m| m.host.clone()))
        .bind(smtp.and_then(|m| m.port).map(i64::from))
        .bind(smtp.map(|m| m.security.as_str()))
        .bind(smtp.and_then(|m| m.user.clone()))
        .bind(smtp.and_then(|m| m.password.clone()))
        .bind(&a.electronic_address)
        .bind(&a.sepa_creditor_identifier)
        .bind(a.factur_x)
        .bind(serde_json::to_string(&a.datev).ok())
        .bind(a.finalized_invoice_deletion.as_str())
        .bind(a.offer_confirmation_on_approval)
        .bind(a.girocode)
}

/// The settings the account file gives (`kontor.toml` seeds the database, issue 9): its
/// values checked and normalized by the same rules as `PUT /account`.
/// Errors: a value the rules refuse, as a sentence naming the file's key.
pub fn from_config(config: &AccountConfig) -> Result<Settings, String> {
    let mut account = Account {
        name: config.name.clone(),
        currencies: config.currencies.clone(),
        default_currency: config.default_currency().to_string(),
        default_tax: DEFAULT_TAX_PERCENT,
        default_invoice_due_days: 14,
        document_texts: DocumentTexts::default(),
        invoice_number_format: DEFAULT_INVOICE_FORMAT.into(),
        offer_number_format: DEFAULT_OFFER_FORMAT.into(),
        purchase_number_format: DEFAULT_PURCHASE_FORMAT.into(),
        credit_note_number_format: DEFAULT_CREDIT_NOTE_FORMAT.into(),
        ..Account::default()
    };
    let seed = AccountUpdate {
        name: Some(config.name.clone()),
        address: Some(config.address.clone()),
        country_code: config.country_code.clone(),
        vat_identifier: config.vat_identifier.clone(),
        tax_number: config.tax_number.clone(),
        register_court: config.register_court.clone(),
        register_number: config.register_number.clone(),
        managing_directors: config.managing_directors.clone(),
        phone: config.phone.clone(),
        email: Some(config.email.clone()),
        website: config.website.clone(),
        account_holder: config.account_holder.clone(),
        iban: config.iban.clone(),
        bic: config.bic.clone(),
        bank_name: config.bank_name.clone(),
        currencies: Some(config.currencies.clone()),
        default_currency: Some(config.default_currency().to_string()),
        default_invoice_due_days: Some(config.default_invoice_due_days),
        invoice_number_format: config.invoice_number_format.clone(),
        offer_number_format: config.offer_number_format.clone(),
        purchase_number_format: config.purchase_number_format.clone(),
        ..AccountUpdate::default()
    };
    let errors = validate_account_update(&seed, &account);
    if let Some((field, messages)) = errors.iter().next() {
        return Err(format!(
            "account file: {field} {}",
            messages
                .first()
                .map(|m| m.english())
                .unwrap_or("is invalid")
        ));
    }
    apply_account_update(&seed, &mut account);
    Ok(Settings {
        account,
        logo: None,
        smtp: config.smtp.clone().filter(|s| !s.host.trim().is_empty()),
    })
}

/// Seeds the settings row from the account file when the database has none yet (first
/// start with issue 9's schema); afterwards the database wins and the file is not read for
/// these values. Errors: the file's values are refused (see [`from_config`]) or the
/// database cannot be written — the server does not start then.
pub async fn seed(pool: &crate::sql::Db, config: &AccountConfig) -> Result<(), String> {
    let exists: Option<i64> =
        crate::sql::query_scalar("SELECT id FROM account_settings WHERE id = 1")
            .fetch_optional(pool)
            .await
            .map_err(|e| format!("cannot read the account settings: {e}"))?;
    if exists.is_some() {
        return Ok(());
    }
    let settings = from_config(config)?;
    let count = COLUMNS.split(", ").count();
    let placeholders = crate::sql::placeholders(1, count);
    let updated_at = count + 1;
    bind_all(
        crate::sql::query(&format!(
            "INSERT INTO account_settings (id, {COLUMNS}, updated_at) VALUES (1, {placeholders}, ${updated_at}) ON CONFLICT DO NOTHING"
        )),
        &settings,
    )
    .bind(ts(now()))
    .execute(pool)
    .await
    .map_err(|e| format!("cannot store the account settings: {e}"))?;
    Ok(())
}

/// Edits the settings row in one write transaction: reads it, applies `change` (an error
/// leaves the row as it was), stores it. Returns the settings as stored and what `change`
/// returned. The caller holds the write lock. Errors: `change`'s, the database's.
pub async fn update_settings<T>(
    pool: &crate::sql::Db,
    change: impl FnOnce(&mut Settings) -> ApiResult<T>,
) -> ApiResult<(Settings, T)> {
    let mut tx = crate::store::db::begin_write(pool).await?;
    let mut settings = load(&mut tx).await?;
    let changed = change(&mut settings)?;
    save(&mut tx, &settings).await?;
    tx.commit().await?;
    Ok((settings, changed))
}

/// The account's currencies, the default first (`docs/decisions.md` § Account settings
/// (issue 9): every currency check reads them here, not from the file). Errors: 500 when
/// the settings row is missing or corrupt.
pub async fn currencies<'e>(db: impl crate::sql::Executor<'e>) -> ApiResult<Vec<String>> {
    let text: Option<String> =
        crate::sql::query_scalar("SELECT currencies FROM account_settings WHERE id = 1")
            .fetch_optional(db)
            .await?;
    let text = text.ok_or_else(|| ApiError::Internal("account_settings has no row".into()))?;
    serde_json::from_str(&text).map_err(|_| corrupt("currencies"))
}

/// Adds "must be one of the account's currencies" under `currency` to `errors` when
/// `currency` (a code) is not one of `currencies` (the account's, from [`currencies`]).
pub fn check_currency(errors: &mut FieldErrors, currencies: &[String], currency: &str) {
    if !currencies.iter().any(|a| a == currency) {
        push_error(errors, "currency", messages::MUST_BE_ACCOUNT_CURRENCY);
    }
}

/// The account's default currency (the first of [`currencies`]). Errors: as [`currencies`].
pub async fn default_currency<'e>(db: impl crate::sql::Executor<'e>) -> ApiResult<String> {
    currencies(db)
        .await?
        .into_iter()
        .next()
        .ok_or_else(|| corrupt("currencies"))
}
