//! Kontor's bank statement reader: turns the files a bank hands out into [`Statement`]s
//! with signed [`Transaction`]s, so incoming payments can be matched to invoices.
//!
//! Read formats ([`read`] detects them from the bytes; the file name only helps):
//! - ISO 20022 camt.052 (account report), camt.053 (statement) and camt.054
//!   (debit/credit notification), any version from .001.02 to .001.13 (see [`camt`]);
//! - SWIFT MT940 customer statements, with the German structured `:86:` subfields of
//!   the DFÜ-Abkommen (DK specification "Datenformate", Anlage 3) and the SEPA tags
//!   inside them (see [`mt940`]);
//! - ZIP archives of such files, as online banking exports them (see [`archive`]).
//!
//! Hostile files are refused before they cost much: XML with a DTD or entity
//! declarations ([`ReadError::Unsafe`]), files over [`MAX_STATEMENT_BYTES`], ZIPs that
//! inflate to more than [`MAX_ZIP_TOTAL`] bytes or [`MAX_ZIP_RATIO`] times their size or
//! hold more than [`MAX_ZIP_FILES`] files, and more than [`MAX_ENTRIES`] transactions
//! ([`ReadError::TooLarge`]). Amounts are decimal from the text, never floats.

#![deny(missing_docs)]

pub mod archive;
pub mod camt;
pub mod mt940;
mod xml_scan;

use chrono::NaiveDate;
use rust_decimal::Decimal;
use std::fmt;

/// Largest single statement file, in bytes (16 MiB), whether read directly or from a ZIP.
pub const MAX_STATEMENT_BYTES: usize = 16 * 1024 * 1024;
/// Most bytes all files of one ZIP may inflate to together (64 MiB).
pub const MAX_ZIP_TOTAL: u64 = 64 * 1024 * 1024;
/// Most a ZIP may inflate to, as a multiple of the ZIP file's own size.
pub const MAX_ZIP_RATIO: u64 = 100;
/// Most transactions one [`read`] returns, over all its statements.
pub const MAX_ENTRIES: usize = 100_000;
/// Most entries (files and folders) one ZIP may hold.
pub const MAX_ZIP_FILES: usize = 1_000;

/// Which kind of file a statement came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Format {
    /// ISO 20022 camt.052 bank-to-customer account report (intraday; `BkToCstmrAcctRpt`).
    Camt052,
    /// ISO 20022 camt.053 bank-to-customer statement (end of day; `BkToCstmrStmt`).
    Camt053,
    /// ISO 20022 camt.054 debit/credit notification (`BkToCstmrDbtCdtNtfctn`).
    Camt054,
    /// SWIFT MT940 customer statement message.
    Mt940,
}

impl Format {
    /// The format's usual short name: `"camt.052"`, `"camt.053"`, `"camt.054"` or
    /// `"mt940"`.
    pub fn as_str(self) -> &'static str {
        match self {
            Format::Camt052 => "camt.052",
            Format::Camt053 => "camt.053",
            Format::Camt054 => "camt.054",
            Format::Mt940 => "mt940",
        }
    }
}

impl fmt::Display for Format {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// One account statement (camt `Stmt`/`Rpt`/`Ntfctn`, or one MT940 message from `:20:`
/// to its closing `-`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Statement {
    /// The file format it was read from.
    pub format: Format,
    /// The account's IBAN, compact (no spaces) and upper case; `None` when the file names
    /// the account otherwise (MT940 `:25:` as bank code/account number, camt `Othr`).
    pub account_iban: Option<String>,
    /// The account currency, ISO 4217 (camt `Acct/Ccy`, else a balance's currency;
    /// MT940 the opening balance's currency).
    pub currency: Option<String>,
    /// First day covered (camt `FrToDt/FrDtTm`, date part; MT940 the opening balance date).
    pub from_date: Option<NaiveDate>,
    /// Last day covered (camt `FrToDt/ToDtTm`, date part; MT940 the closing balance date).
    pub to_date: Option<NaiveDate>,
    /// Opening booked balance (camt `OPBD`, else `PRCD`; MT940 `:60F:`/`:60M:`), in the
    /// account currency, negative for a debit balance.
    pub opening_balance: Option<Decimal>,
    /// Closing booked balance (camt `CLBD`; MT940 `:62F:`/`:62M:`), negative for a debit
    /// balance.
    pub closing_balance: Option<Decimal>,
    /// The transactions in file order; a camt batch entry gives one per `TxDtls`.
    pub entries: Vec<Transaction>,
}

/// One booked transaction on a statement.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Transaction {
    /// The day it was booked (camt `BookgDt`; MT940 the `:61:` entry date, else the
    /// value date). camt entries without a booking date fall back to the value date.
    pub booking_date: NaiveDate,
    /// The value date (camt `ValDt`; MT940 the `:61:` value date).
    pub value_date: Option<NaiveDate>,
    /// Signed amount in [`Transaction::currency`]: positive for a credit (money in),
    /// negative for a debit (money out). Decimals as written in the file (at most 5).
    pub amount: Decimal,
    /// ISO 4217 currency of [`Transaction::amount`].
    pub currency: String,
    /// The other party: the debtor (payer) of a credit, the creditor (payee) of a debit.
    pub counterparty_name: Option<String>,
    /// The other party's IBAN, compact and upper case (only when it is an IBAN).
    pub counterparty_iban: Option<String>,
    /// Unstructured remittance information: camt `RmtInf/Ustrd` lines joined by a space;
    /// MT940 the `SVWZ+` text, else the `:86:` purpose (`?20`–`?29`, `?60`–`?63`)
    /// without SEPA tags, else the whole unstructured `:86:`.
    pub remittance_information: Option<String>,
    /// The end-to-end id the payer gave (camt `Refs/EndToEndId`, MT940 `EREF+`); `None`
    /// for `NOTPROVIDED`.
    pub end_to_end_id: Option<String>,
    /// The structured creditor reference (camt `RmtInf/Strd/CdtrRefInf/Ref`; MT940 an
    /// ISO 11649 `RF…` reference with a valid check in the `SVWZ+` text).
    pub creditor_reference: Option<String>,
    /// The bank's own reference (camt `AcctSvcrRef` of the transaction, else of the
    /// entry; MT940 the `:61:` reference after `//`).
    pub bank_reference: Option<String>,
}

/// Why a file could not be read.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ReadError {
    /// The file is none of the formats read here; the message says what was expected
    /// and, in a ZIP, names the entry.
    NotAStatement(String),
    /// The XML declares a document type or entities (or refers to external ones), which
    /// statements never do; refused before parsing.
    Unsafe(String),
    /// A size limit was passed: [`MAX_STATEMENT_BYTES`], [`MAX_ZIP_TOTAL`],
    /// [`MAX_ZIP_RATIO`], [`MAX_ZIP_FILES`], [`MAX_ENTRIES`] or the XML nesting/node limits.
    TooLarge(String),
    /// A statement with a broken field; the message names the element or tag.
    Invalid(String),
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::NotAStatement(m) => write!(f, "not a bank statement: {m}"),
            ReadError::Unsafe(m) => write!(f, "unsafe statement file: {m}"),
            ReadError::TooLarge(m) => write!(f, "statement file too large: {m}"),
            ReadError::Invalid(m) => write!(f, "invalid statement: {m}"),
        }
    }
}

impl std::error::Error for ReadError {}

pub(crate) const EXPECTED: &str = "expected camt.052/053/054 XML, MT940 or a ZIP of them";

/// Reads a bank statement file: camt.052/.053/.054 XML (any version .001.02 … .001.13,
/// detected by namespace or root element), an MT940 file, or a ZIP of such files
/// (detected by its `PK\x03\x04` magic). `filename` only helps detection and error
/// messages. Returns every statement in the file (a camt document or MT940 file may hold
/// several), in file order.
///
/// Errors: [`ReadError::NotAStatement`] for anything else, [`ReadError::Unsafe`] for XML
/// with a DTD/entities, [`ReadError::TooLarge`] past one of the limits of this crate,
/// [`ReadError::Invalid`] for a broken field (naming it).
pub fn read(filename: &str, bytes: &[u8]) -> Result<Vec<Statement>, ReadError> {
    let statements = if archive::is_zip(bytes) {
        archive::read(bytes)?
    } else {
        read_one(filename, bytes)?
    };
    check_entry_count(&statements)?;
    Ok(statements)
}

/// Reads one statement file (not a ZIP).
pub(crate) fn read_one(filename: &str, bytes: &[u8]) -> Result<Vec<Statement>, ReadError> {
    if bytes.len() > MAX_STATEMENT_BYTES {
        return Err(ReadError::TooLarge(format!(
            "{filename} has {} bytes, more than the {MAX_STATEMENT_BYTES} a statement may have",
            bytes.len()
        )));
    }
    let bytes = bytes.strip_prefix(b"\xEF\xBB\xBF").unwrap_or(bytes);
    let start = bytes
        .iter()
        .position(|b| !b.is_ascii_whitespace())
        .unwrap_or(bytes.len());
    let body = &bytes[start..];
    if body.starts_with(b"<") {
        return match std::str::from_utf8(body) {
            Ok(text) => camt::parse(text),
            // Windows-1252's extra characters are taken as Latin-1 (names only).
            Err(_) if declares_latin1(body) => {
                let text: String = body.iter().map(|&b| b as char).collect();
                camt::parse(&text)
            }
            Err(_) => Err(ReadError::Invalid(format!(
                "{filename}: the XML is neither UTF-8 nor declared ISO-8859-1"
            ))),
        };
    }
    // MT940 is often ISO 8859-1 / Windows-1252: take UTF-8 when it is, else Latin-1.
    let text = match std::str::from_utf8(body) {
        Ok(text) => text.to_string(),
        Err(_) => body.iter().map(|&b| b as char).collect(),
    };
    if mt940::looks_like(&text) {
        return mt940::parse(&text);
    }
    Err(ReadError::NotAStatement(EXPECTED.to_string()))
}

/// Whether the XML declaration names ISO-8859-1 (Latin-1) or Windows-1252 as encoding.
fn declares_latin1(xml: &[u8]) -> bool {
    let head = &xml[..xml.len().min(200)];
    let end = head.windows(2).position(|w| w == b"?>").unwrap_or(0);
    let declaration = String::from_utf8_lossy(&head[..end]).to_ascii_lowercase();
    declaration.starts_with("<?xml")
        && [
            "iso-8859-1",
            "iso8859-1",
            "latin1",
            "windows-1252",
            "iso-8859-15",
        ]
        .iter()
        .any(|name| declaration.contains(name))
}

pub(crate) fn check_entry_count(statements: &[Statement]) -> Result<(), ReadError> {
    let count: usize = statements.iter().map(|s| s.entries.len()).sum();
    if count > MAX_ENTRIES {
        return Err(ReadError::TooLarge(format!(
            "{count} transactions, more than the {MAX_ENTRIES} one read may return"
        )));
    }
    Ok(())
}

/// ISO 7064 MOD 97-10 as IBANs (ISO 13616) and creditor references (ISO 11649) use it:
/// the first four characters moved to the end, letters as 10–35, the number mod 97 = 1.
fn mod97_ok(code: &str) -> bool {
    if code.len() < 5 || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
        return false;
    }
    let (head, tail) = code.split_at(4);
    let mut rest: u32 = 0;
    for c in tail.chars().chain(head.chars()) {
        let v = match c.to_digit(36) {
            Some(v) => v,
            None => return false,
        };
        rest = if v >= 10 {
            (rest * 100 + v) % 97
        } else {
            (rest * 10 + v) % 97
        };
    }
    rest == 1
}

/// `text` as a compact upper case IBAN when it is one (country letters, check digits,
/// 11–30 alphanumerics, valid MOD 97-10), else `None`.
pub(crate) fn iban(text: &str) -> Option<String> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let b = compact.as_bytes();
    let shaped = (15..=34).contains(&b.len())
        && b[..2].iter().all(u8::is_ascii_uppercase)
        && b[2..4].iter().all(u8::is_ascii_digit);
    (shaped && mod97_ok(&compact)).then_some(compact)
}

/// `text` as an ISO 11649 creditor reference (`RF`, two check digits, 1–21
/// alphanumerics, valid MOD 97-10), compact and upper case, else `None`.
pub(crate) fn creditor_reference(text: &str) -> Option<String> {
    let compact: String = text
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    let b = compact.as_bytes();
    let shaped = (5..=25).contains(&b.len())
        && compact.starts_with("RF")
        && b[2..4].iter().all(u8::is_ascii_digit);
    (shaped && mod97_ok(&compact)).then_some(compact)
}

/// Parses an unsigned decimal amount (`decimal_mark` `.` for XML, `,` for MT940) of at
/// most 18 integer digits and 5 decimals; `what` names the field for the error.
pub(crate) fn amount(text: &str, decimal_mark: char, what: &str) -> Result<Decimal, ReadError> {
    let text = text.trim();
    let bad = || ReadError::Invalid(format!("{what}: {text:?} is not an amount"));
    let (int, frac) = match text.split_once(decimal_mark) {
        Some((int, frac)) => (int, frac),
        None => (text, ""),
    };
    if int.is_empty()
        || int.len() > 18
        || frac.len() > 5
        || !int.bytes().all(|b| b.is_ascii_digit())
        || !frac.bytes().all(|b| b.is_ascii_digit())
    {
        return Err(bad());
    }
    let digits = format!("{int}{frac}");
    let mantissa: i128 = digits.parse().map_err(|_| bad())?;
    Decimal::try_from_i128_with_scale(mantissa, frac.len() as u32).map_err(|_| bad())
}

/// `text` trimmed, or `None` when that is empty.
pub(crate) fn non_empty(text: &str) -> Option<String> {
    let t = text.trim();
    (!t.is_empty()).then(|| t.to_string())
}

#[cfg(test)]
mod tests;
