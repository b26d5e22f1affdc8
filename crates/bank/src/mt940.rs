//! SWIFT MT940 customer statements, as German banks export them (`.sta`, `.mt940`).
//!
//! Fields read: `:20:` (starts a statement), `:25:` account (IBAN, or bank code/account
//! number), `:60F:`/`:60M:` opening balance, `:61:` statement lines, `:86:` information to
//! the account owner, `:62F:`/`:62M:` closing balance; a line `-` ends a statement. A SWIFT
//! envelope (`{1:…}{2:…}{4:` … `-}`) is stripped.
//!
//! The `:86:` field is read as the DFÜ-Abkommen (DK "Datenformate", Anlage 3)
//! structures it: a three-digit business transaction code, then subfields `?00` posting
//! text, `?10` primanota, `?20`–`?29` and `?60`–`?63` purpose, `?30` BIC, `?31` IBAN or
//! account number, `?32`/`?33` name of the other party; inside the purpose the SEPA tags
//! `EREF+`, `KREF+`, `MREF+`, `CRED+`, `DEBT+`, `SVWZ+`, `ABWA+`, `ABWE+`, `IBAN+`,
//! `BIC+`, `COAM+`, `OAMT+`, `PURP+` … split the text. An `:86:` without subfields is
//! taken whole as the remittance information.

use crate::{amount, non_empty, Format, ReadError, Statement, Transaction, EXPECTED};
use chrono::{Datelike, NaiveDate};
use rust_decimal::Decimal;

/// Whether `text` looks like MT940: the first field tag (after an optional SWIFT
/// envelope and up to ten header lines) is `:20:`, and a `:61:`, `:60F:` or `:25:` follows.
pub fn looks_like(text: &str) -> bool {
    let body = strip_envelope(text);
    let first_tag = body
        .lines()
        .take(10)
        .map(str::trim_start)
        .find(|line| line.starts_with(':'));
    matches!(first_tag, Some(line) if line.starts_with(":20:"))
        && (body.contains(":25:") || body.contains(":60F:") || body.contains(":61:"))
}

/// The text inside a SWIFT `{4:` block (when there is one), else all of it.
fn strip_envelope(text: &str) -> &str {
    match text.find("{4:") {
        Some(pos) if text[..pos].trim_start().starts_with('{') => {
            let inner = &text[pos + 3..];
            inner.rfind("-}").map_or(inner, |end| &inner[..end])
        }
        _ => text,
    }
}

/// One field: its tag (`61`, `60F` …) and value (continuation lines joined by `\n`).
struct Field<'a> {
    tag: &'a str,
    value: String,
}

/// Splits the text into fields; a lone `-` (or `-}`) line is returned as tag `-`.
fn fields(text: &str) -> Vec<Field<'_>> {
    let mut out: Vec<Field> = Vec::new();
    for raw in text.lines() {
        let line = raw.trim_end_matches(['\r', '\n']);
        let trimmed = line.trim();
        if trimmed == "-" || trimmed == "-}" {
            out.push(Field {
                tag: "-",
                value: String::new(),
            });
            continue;
        }
        if let Some(rest) = line.strip_prefix(':') {
            if let Some(end) = rest.find(':') {
                let tag = &rest[..end];
                let b = tag.as_bytes();
                if (2..=3).contains(&b.len())
                    && b[..2].iter().all(u8::is_ascii_digit)
                    && b.get(2).is_none_or(u8::is_ascii_alphabetic)
                {
                    out.push(Field {
                        tag,
                        value: rest[end + 1..].to_string(),
                    });
                    continue;
                }
            }
        }
        if let Some(last) = out.last_mut() {
            if last.tag != "-" {
                last.value.push('\n');
                last.value.push_str(line);
            }
        }
    }
    out
}

/// Parses every statement of an MT940 file.
///
/// Errors: [`ReadError::NotAStatement`] when there is no `:20:` field,
/// [`ReadError::Invalid`] naming the broken field (`:61:`, `:60F:` …),
/// [`ReadError::TooLarge`] past [`crate::MAX_ENTRIES`].
pub fn parse(text: &str) -> Result<Vec<Statement>, ReadError> {
    let body = strip_envelope(text);
    let mut statements = Vec::new();
    let mut current: Option<Statement> = None;
    let mut count = 0usize;
    // Whether an :86: belongs to the last :61: (and not, after :62F:, to the statement).
    let mut after_line = false;
    for field in fields(body) {
        let follows_line = std::mem::replace(&mut after_line, field.tag == "61");
        if field.tag == "20" {
            statements.extend(current.take());
            current = Some(empty_statement());
            continue;
        }
        if field.tag == "-" {
            statements.extend(current.take());
            continue;
        }
        let Some(statement) = current.as_mut() else {
            continue; // Header lines before the first :20:.
        };
        let value = field.value.trim();
        match field.tag {
            "25" => statement.account_iban = account(value),
            "60F" | "60M" => {
                let (date, ccy, amount) = balance(value, field.tag)?;
                if statement.opening_balance.is_none() {
                    statement.opening_balance = Some(amount);
                    statement.from_date = Some(date);
                }
                statement.currency.get_or_insert(ccy);
            }
            "62F" | "62M" => {
                let (date, ccy, amount) = balance(value, field.tag)?;
                statement.closing_balance = Some(amount);
                statement.to_date = Some(date);
                statement.currency.get_or_insert(ccy);
            }
            "61" => {
                let currency = statement.currency.clone().ok_or_else(|| {
                    ReadError::Invalid(
                        ":61: comes before the :60F: opening balance that gives its currency"
                            .to_string(),
                    )
                })?;
                statement.entries.push(line(&field.value, currency)?);
                count += 1;
                if count > crate::MAX_ENTRIES {
                    return Err(ReadError::TooLarge(format!(
                        "more than the {} transactions one read may return",
                        crate::MAX_ENTRIES
                    )));
                }
            }
            "86" if follows_line => {
                if let Some(tx) = statement.entries.last_mut() {
                    information(&field.value, tx);
                }
            }
            _ => {}
        }
    }
    statements.extend(current.take());
    if statements.is_empty() {
        return Err(ReadError::NotAStatement(format!(
            "{EXPECTED}; the MT940 has no :20: field"
        )));
    }
    Ok(statements)
}

fn empty_statement() -> Statement {
    Statement {
        format: Format::Mt940,
        account_iban: None,
        currency: None,
        from_date: None,
        to_date: None,
        opening_balance: None,
        closing_balance: None,
        entries: Vec::new(),
    }
}

/// `:25:` is `BLZ/Kontonummer`, an IBAN, or an IBAN followed by the currency.
fn account(value: &str) -> Option<String> {
    let compact: String = value.chars().filter(|c| !c.is_whitespace()).collect();
    crate::iban(&compact).or_else(|| {
        let cut = compact.len().checked_sub(3)?;
        let (head, tail) = compact.split_at_checked(cut)?;
        tail.bytes()
            .all(|b| b.is_ascii_alphabetic())
            .then(|| crate::iban(head))?
    })
}

/// `YYMMDD` (years 00–79 are 20xx, 80–99 19xx).
fn yymmdd(text: &str, what: &str) -> Result<NaiveDate, ReadError> {
    let bad = || ReadError::Invalid(format!("{what}: {text:?} is not a date YYMMDD"));
    if text.len() != 6 || !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(bad());
    }
    let n = |r: std::ops::Range<usize>| text[r].parse::<u32>().map_err(|_| bad());
    let yy = n(0..2)? as i32;
    let year = if yy < 80 { 2000 + yy } else { 1900 + yy };
    NaiveDate::from_ymd_opt(year, n(2..4)?, n(4..6)?).ok_or_else(bad)
}

/// A balance `:60F:`/`:62F:`: `C|D`, `YYMMDD`, currency, amount with a decimal comma.
fn balance(value: &str, tag: &str) -> Result<(NaiveDate, String, Decimal), ReadError> {
    let what = format!(":{tag}:");
    let bad = || {
        ReadError::Invalid(format!(
            "{what}: {value:?} is not a balance (C/D, YYMMDD, currency, amount)"
        ))
    };
    let sign = match value.get(..1) {
        Some("C") => Decimal::ONE,
        Some("D") => Decimal::NEGATIVE_ONE,
        _ => return Err(bad()),
    };
    let date = yymmdd(value.get(1..7).ok_or_else(bad)?, &what)?;
    let ccy = value.get(7..10).ok_or_else(bad)?;
    if !ccy.bytes().all(|b| b.is_ascii_uppercase()) {
        return Err(bad());
    }
    let amount = amount(value.get(10..).ok_or_else(bad)?, ',', &what)?;
    Ok((date, ccy.to_string(), amount * sign))
}

/// A `:61:` statement line:
/// `YYMMDD[MMDD](C|D|RC|RD)[funds code]amount(N|F|S)xxx customer-ref[//bank-ref][\nsupplementary]`.
fn line(value: &str, currency: String) -> Result<Transaction, ReadError> {
    let (first, _supplementary) = value.split_once('\n').unwrap_or((value, ""));
    let s = first.trim();
    let bad = |why: &str| ReadError::Invalid(format!(":61: {s:?}: {why}"));
    let value_date = yymmdd(
        s.get(..6).ok_or_else(|| bad("too short"))?,
        ":61: value date",
    )?;
    let mut rest = &s[6..];
    let mut booking_date = value_date;
    if rest.len() >= 4 && rest.as_bytes()[..4].iter().all(u8::is_ascii_digit) {
        booking_date = entry_date(value_date, &rest[..4]).ok_or_else(|| bad("bad entry date"))?;
        rest = &rest[4..];
    }
    let (sign, after_mark) = if let Some(r) = rest.strip_prefix("RC") {
        (Decimal::NEGATIVE_ONE, r)
    } else if let Some(r) = rest.strip_prefix("RD") {
        (Decimal::ONE, r)
    } else if let Some(r) = rest.strip_prefix('C') {
        (Decimal::ONE, r)
    } else if let Some(r) = rest.strip_prefix('D') {
        (Decimal::NEGATIVE_ONE, r)
    } else {
        return Err(bad("no debit/credit mark C, D, RC or RD"));
    };
    rest = after_mark;
    if rest.as_bytes().first().is_some_and(u8::is_ascii_alphabetic) {
        rest = &rest[1..]; // Funds code (third letter of the currency).
    }
    let amount_len = rest
        .bytes()
        .take_while(|b| b.is_ascii_digit() || *b == b',')
        .count();
    let amount = amount(&rest[..amount_len], ',', ":61: amount")?;
    rest = &rest[amount_len..];
    // Transaction type: N, F or S and three characters.
    if rest.len() < 4 || !matches!(rest.as_bytes()[0], b'N' | b'F' | b'S') {
        return Err(bad(
            "no transaction type (N/F/S and three characters) after the amount",
        ));
    }
    rest = rest.get(4..).ok_or_else(|| bad("bad transaction type"))?;
    let bank_reference = rest.split_once("//").and_then(|(_, bank)| non_empty(bank));
    Ok(Transaction {
        booking_date,
        value_date: Some(value_date),
        amount: amount * sign,
        currency,
        counterparty_name: None,
        counterparty_iban: None,
        remittance_information: None,
        end_to_end_id: None,
        creditor_reference: None,
        bank_reference,
    })
}

/// The entry date `MMDD` in the year that puts it nearest the value date (a booking on
/// 30 December with value date 2 January belongs to the year before).
fn entry_date(value_date: NaiveDate, mmdd: &str) -> Option<NaiveDate> {
    let month: u32 = mmdd[..2].parse().ok()?;
    let day: u32 = mmdd[2..].parse().ok()?;
    let year = value_date.year();
    [year - 1, year, year + 1]
        .into_iter()
        .filter_map(|y| NaiveDate::from_ymd_opt(y, month, day))
        .min_by_key(|d| (*d - value_date).num_days().abs())
}

/// SEPA tags inside the `:86:` purpose.
const SEPA_TAGS: [&str; 17] = [
    "EREF+", "KREF+", "MREF+", "CRED+", "DEBT+", "SVWZ+", "ABWA+", "ABWE+", "IBAN+", "BIC+",
    "COAM+", "OAMT+", "PURP+", "MDAT+", "SQTP+", "ORCR+", "ORMR+",
];

/// Fills `tx` from an `:86:` field.
fn information(value: &str, tx: &mut Transaction) {
    // Continuation lines of :86: are wrapped mechanically: join without separator.
    let joined: String = value.lines().map(|l| l.trim_end_matches('\r')).collect();
    let structured = joined.len() >= 4
        && joined.as_bytes()[..3].iter().all(u8::is_ascii_digit)
        && !joined.as_bytes()[3].is_ascii_alphanumeric();
    if !structured {
        let text: Vec<&str> = value
            .lines()
            .map(str::trim)
            .filter(|l| !l.is_empty())
            .collect();
        tx.remittance_information = non_empty(&text.join(" "));
        return;
    }
    let separator = joined[3..].chars().next().unwrap_or('?');
    let (mut purpose, mut name, mut account) = (Vec::new(), Vec::new(), None);
    for part in joined[3..].split(separator).skip(1) {
        let (Some(code), Some(text)) = (part.get(..2), part.get(2..)) else {
            continue;
        };
        match code {
            "20" | "21" | "22" | "23" | "24" | "25" | "26" | "27" | "28" | "29" | "60" | "61"
            | "62" | "63" => purpose.push(text),
            "31" => account = crate::iban(text),
            "32" | "33" => name.push(text),
            _ => {}
        }
    }
    let purpose = join_chunks(&purpose);
    tx.counterparty_name = non_empty(&join_chunks(&name));
    tx.counterparty_iban = account;
    let tags = sepa_tags(&purpose);
    if tags.is_empty() {
        tx.remittance_information = non_empty(&purpose);
        return;
    }
    let get = |tag: &str| {
        tags.iter()
            .find(|(t, _)| *t == tag)
            .and_then(|(_, v)| non_empty(v))
    };
    let leading = &purpose[..purpose.find(tags[0].0).unwrap_or(0)];
    tx.remittance_information = get("SVWZ+").or_else(|| non_empty(leading));
    tx.end_to_end_id = get("EREF+").filter(|id| !id.eq_ignore_ascii_case("NOTPROVIDED"));
    tx.creditor_reference = get("SVWZ+").and_then(|svwz| find_rf(&svwz));
    if tx.counterparty_iban.is_none() {
        tx.counterparty_iban = get("IBAN+").and_then(|i| crate::iban(&i));
    }
}

/// Joins subfield texts: directly after a full 27-character subfield (text wrapped
/// mechanically, possibly inside a word), else with a space.
fn join_chunks(chunks: &[&str]) -> String {
    let mut out = String::new();
    let mut previous_full = false;
    for chunk in chunks {
        if !out.is_empty() && !previous_full && !out.ends_with(' ') && !chunk.starts_with(' ') {
            out.push(' ');
        }
        out.push_str(chunk);
        previous_full = chunk.chars().count() >= 27;
    }
    out.trim().to_string()
}

/// The SEPA tags in `purpose`, in order, each with its value up to the next tag.
fn sepa_tags(purpose: &str) -> Vec<(&'static str, String)> {
    let mut starts: Vec<(usize, &'static str)> = Vec::new();
    for tag in SEPA_TAGS {
        let mut from = 0;
        while let Some(pos) = purpose[from..].find(tag) {
            let at = from + pos;
            starts.push((at, tag));
            from = at + tag.len();
        }
    }
    starts.sort();
    starts
        .iter()
        .enumerate()
        .map(|(i, &(at, tag))| {
            let end = starts.get(i + 1).map_or(purpose.len(), |&(next, _)| next);
            (tag, purpose[at + tag.len()..end].trim().to_string())
        })
        .collect()
}

/// The first valid ISO 11649 reference (`RF` + check digits + up to 21 characters,
/// possibly written in groups of four) in `text`.
fn find_rf(text: &str) -> Option<String> {
    let words: Vec<&str> = text.split_whitespace().collect();
    for (i, word) in words.iter().enumerate() {
        let upper = word.to_ascii_uppercase();
        if !upper.starts_with("RF") || upper.len() < 4 {
            continue;
        }
        let mut candidate = String::new();
        let mut best = None;
        for next in &words[i..] {
            candidate.push_str(next);
            if candidate.len() > 25 {
                break;
            }
            if let Some(rf) = crate::creditor_reference(&candidate) {
                best = Some(rf);
            }
        }
        if best.is_some() {
            return best;
        }
    }
    None
}

#[cfg(test)]
mod tests;
