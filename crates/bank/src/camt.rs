//! ISO 20022 bank-to-customer cash management messages: camt.052 account reports
//! (`BkToCstmrAcctRpt/Rpt`), camt.053 statements (`BkToCstmrStmt/Stmt`) and camt.054
//! debit/credit notifications (`BkToCstmrDbtCdtNtfctn/Ntfctn`), versions .001.02 to
//! .001.13.
//!
//! Elements are matched by local name, so every version's namespace
//! (`urn:iso:std:iso:20022:tech:xsd:camt.053.001.08` …) reads alike; the few places
//! where versions differ (`Dbtr/Nm` before .001.08, `Dbtr/Pty/Nm` from it on; `TxDtls/Amt`
//! or `TxDtls/AmtDtls/TxAmt/Amt`) are handled both ways.

use crate::{amount, non_empty, ReadError, Statement, Transaction, EXPECTED};
use crate::{Format, MAX_ENTRIES};
use chrono::NaiveDate;
use roxmltree::{Document, Node, ParsingOptions};
use rust_decimal::Decimal;

/// Most XML nodes (elements, texts, attributes) one document may have.
pub const MAX_XML_NODES: u32 = 2_000_000;

/// Parses one camt.052/053/054 document (already without BOM) into its statements.
///
/// Errors: [`ReadError::Unsafe`] for a DTD or entity declaration,
/// [`ReadError::TooLarge`] past the nesting, attribute or node limits or
/// [`MAX_ENTRIES`], [`ReadError::NotAStatement`] for XML that is no camt.052/053/054,
/// [`ReadError::Invalid`] naming a broken element.
pub fn parse(xml: &str) -> Result<Vec<Statement>, ReadError> {
    if xml.len() > crate::MAX_STATEMENT_BYTES {
        return Err(ReadError::TooLarge(format!(
            "the XML has {} bytes, more than {}",
            xml.len(),
            crate::MAX_STATEMENT_BYTES
        )));
    }
    crate::xml_scan::check(xml)?;
    let options = ParsingOptions {
        allow_dtd: false,
        nodes_limit: MAX_XML_NODES,
        ..ParsingOptions::default()
    };
    let doc = Document::parse_with_options(xml, options).map_err(|e| match e {
        roxmltree::Error::NodesLimitReached => {
            ReadError::TooLarge(format!("the XML has more than {MAX_XML_NODES} nodes"))
        }
        roxmltree::Error::DtdDetected => {
            ReadError::Unsafe("the XML declares a document type (DTD)".to_string())
        }
        e => ReadError::NotAStatement(format!("{EXPECTED}; the XML is not well-formed ({e})")),
    })?;
    let root = doc.root_element();
    let (message, format) = find_message(root).ok_or_else(|| {
        let ns = root.tag_name().namespace().unwrap_or("no namespace");
        ReadError::NotAStatement(format!(
            "{EXPECTED}; the XML's root element is <{}> ({ns})",
            root.tag_name().name()
        ))
    })?;
    let part = match format {
        Format::Camt052 => "Rpt",
        Format::Camt053 => "Stmt",
        _ => "Ntfctn",
    };
    let mut statements = Vec::new();
    let mut count = 0usize;
    for node in children(message, part) {
        let statement = statement(node, format)?;
        count += statement.entries.len();
        if count > MAX_ENTRIES {
            return Err(ReadError::TooLarge(format!(
                "more than the {MAX_ENTRIES} transactions one read may return"
            )));
        }
        statements.push(statement);
    }
    if statements.is_empty() {
        return Err(ReadError::Invalid(format!(
            "<{}> holds no <{part}>",
            message.tag_name().name()
        )));
    }
    Ok(statements)
}

/// The message element (`BkToCstmrStmt` …): the root itself or a child of the root
/// (`Document`), and the format it gives. When the element names no format the
/// namespace (`…camt.053.001.xx`) decides.
fn find_message<'a, 'i>(root: Node<'a, 'i>) -> Option<(Node<'a, 'i>, Format)> {
    let by_name = |n: Node| match n.tag_name().name() {
        "BkToCstmrAcctRpt" => Some(Format::Camt052),
        "BkToCstmrStmt" => Some(Format::Camt053),
        "BkToCstmrDbtCdtNtfctn" => Some(Format::Camt054),
        _ => None,
    };
    if let Some(format) = by_name(root) {
        return Some((root, format));
    }
    let message = root.children().find(|n| n.is_element())?;
    if let Some(format) = by_name(message) {
        return Some((message, format));
    }
    let ns = root.tag_name().namespace()?;
    let format = if ns.contains(":camt.052.") {
        Format::Camt052
    } else if ns.contains(":camt.053.") {
        Format::Camt053
    } else if ns.contains(":camt.054.") {
        Format::Camt054
    } else {
        return None;
    };
    Some((message, format))
}

fn children<'a, 'i>(node: Node<'a, 'i>, name: &'static str) -> impl Iterator<Item = Node<'a, 'i>> {
    node.children()
        .filter(move |n| n.is_element() && n.tag_name().name() == name)
}

fn child<'a, 'i>(node: Node<'a, 'i>, name: &'static str) -> Option<Node<'a, 'i>> {
    children(node, name).next()
}

/// The element at `path` below `node` (first match at each step).
fn at<'a, 'i>(node: Node<'a, 'i>, path: &[&'static str]) -> Option<Node<'a, 'i>> {
    path.iter().try_fold(node, |n, name| child(n, name))
}

/// The trimmed text at `path`, `None` when missing or empty.
fn text(node: Node, path: &[&'static str]) -> Option<String> {
    at(node, path).and_then(|n| n.text()).and_then(non_empty)
}

/// A `Dt` (`YYYY-MM-DD`) or `DtTm` (`YYYY-MM-DDThh:mm:ss…`, date part) text.
fn date_text(value: &str, what: &str) -> Result<NaiveDate, ReadError> {
    let day = value.get(..10).unwrap_or(value);
    NaiveDate::parse_from_str(day, "%Y-%m-%d")
        .map_err(|_| ReadError::Invalid(format!("{what}: {value:?} is not a date")))
}

/// The date in a `…Dt` element holding `Dt` or `DtTm` (`BookgDt`, `ValDt`, `Bal/Dt`).
fn date_choice(node: Node, name: &'static str, what: &str) -> Result<Option<NaiveDate>, ReadError> {
    let Some(holder) = child(node, name) else {
        return Ok(None);
    };
    let value = text(holder, &["Dt"]).or_else(|| text(holder, &["DtTm"]));
    match value {
        Some(value) => date_text(&value, what).map(Some),
        None => Err(ReadError::Invalid(format!(
            "{what} has neither Dt nor DtTm"
        ))),
    }
}

/// An IBAN as written, without spaces and in upper case (the bank's data is taken as is).
fn compact(iban: &str) -> String {
    iban.chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase()
}

/// `CdtDbtInd`: `CRDT` → +1, `DBIT` → −1.
fn sign(node: Node, what: &str) -> Result<Option<Decimal>, ReadError> {
    match text(node, &["CdtDbtInd"]).as_deref() {
        None => Ok(None),
        Some("CRDT") => Ok(Some(Decimal::ONE)),
        Some("DBIT") => Ok(Some(Decimal::NEGATIVE_ONE)),
        Some(other) => Err(ReadError::Invalid(format!(
            "{what}/CdtDbtInd: {other:?} is neither CRDT nor DBIT"
        ))),
    }
}

/// An `Amt` element's value and its `Ccy` attribute.
fn amt(node: Node, what: &str) -> Result<(Decimal, Option<String>), ReadError> {
    let value = amount(node.text().unwrap_or(""), '.', what)?;
    Ok((value, node.attribute("Ccy").and_then(non_empty)))
}

fn statement(node: Node, format: Format) -> Result<Statement, ReadError> {
    let part = node.tag_name().name();
    let account_iban = text(node, &["Acct", "Id", "IBAN"]).map(|i| compact(&i));
    let mut currency = text(node, &["Acct", "Ccy"]);
    let from_date = match text(node, &["FrToDt", "FrDtTm"]) {
        Some(v) => Some(date_text(&v, &format!("{part}/FrToDt/FrDtTm"))?),
        None => None,
    };
    let to_date = match text(node, &["FrToDt", "ToDtTm"]) {
        Some(v) => Some(date_text(&v, &format!("{part}/FrToDt/ToDtTm"))?),
        None => None,
    };
    let (mut opbd, mut prcd, mut clbd) = (None, None, None);
    for bal in children(node, "Bal") {
        let what = format!("{part}/Bal");
        let code = text(bal, &["Tp", "CdOrPrtry", "Cd"]);
        let Some(amt_node) = child(bal, "Amt") else {
            return Err(ReadError::Invalid(format!("{what}/Amt is missing")));
        };
        let (value, ccy) = amt(amt_node, &format!("{what}/Amt"))?;
        let signed = value * sign(bal, &what)?.unwrap_or(Decimal::ONE);
        if currency.is_none() {
            currency = ccy;
        }
        match code.as_deref() {
            Some("OPBD") if opbd.is_none() => opbd = Some(signed),
            Some("PRCD") if prcd.is_none() => prcd = Some(signed),
            Some("CLBD") if clbd.is_none() => clbd = Some(signed),
            _ => {}
        }
    }
    let mut entries = Vec::new();
    for (index, ntry) in children(node, "Ntry").enumerate() {
        entry(
            ntry,
            &format!("{part}/Ntry[{}]", index + 1),
            currency.as_deref(),
            &mut entries,
        )?;
        if entries.len() > MAX_ENTRIES {
            return Err(ReadError::TooLarge(format!(
                "more than the {MAX_ENTRIES} transactions one read may return"
            )));
        }
    }
    Ok(Statement {
        format,
        account_iban,
        currency,
        from_date,
        to_date,
        opening_balance: opbd.or(prcd),
        closing_balance: clbd,
        entries,
    })
}

/// One `Ntry`: one transaction, or one per `TxDtls` of a batch.
fn entry(
    ntry: Node,
    what: &str,
    statement_currency: Option<&str>,
    out: &mut Vec<Transaction>,
) -> Result<(), ReadError> {
    let Some(amt_node) = child(ntry, "Amt") else {
        return Err(ReadError::Invalid(format!("{what}/Amt is missing")));
    };
    let (value, ccy) = amt(amt_node, &format!("{what}/Amt"))?;
    let currency = ccy
        .or_else(|| statement_currency.map(str::to_string))
        .ok_or_else(|| ReadError::Invalid(format!("{what}/Amt has no Ccy")))?;
    let entry_sign = sign(ntry, what)?
        .ok_or_else(|| ReadError::Invalid(format!("{what}/CdtDbtInd is missing")))?;
    let value_date = date_choice(ntry, "ValDt", &format!("{what}/ValDt"))?;
    let booking_date = date_choice(ntry, "BookgDt", &format!("{what}/BookgDt"))?
        .or(value_date)
        .ok_or_else(|| ReadError::Invalid(format!("{what} has neither BookgDt nor ValDt")))?;
    let entry_ref = text(ntry, &["AcctSvcrRef"]);
    let details: Vec<Node> = children(ntry, "NtryDtls")
        .flat_map(|d| children(d, "TxDtls"))
        .collect();
    let base = Transaction {
        booking_date,
        value_date,
        amount: value * entry_sign,
        currency: currency.clone(),
        counterparty_name: None,
        counterparty_iban: None,
        remittance_information: None,
        end_to_end_id: None,
        creditor_reference: None,
        bank_reference: entry_ref.clone(),
    };
    if details.len() <= 1 {
        let mut tx = base;
        if let Some(&tx_node) = details.first() {
            fill_details(&mut tx, tx_node, entry_sign);
        }
        out.push(tx);
        return Ok(());
    }
    for (index, &tx_node) in details.iter().enumerate() {
        let tx_what = format!("{what}/NtryDtls/TxDtls[{}]", index + 1);
        let amt_node = child(tx_node, "Amt").or_else(|| at(tx_node, &["AmtDtls", "TxAmt", "Amt"]));
        let Some(amt_node) = amt_node else {
            return Err(ReadError::Invalid(format!(
                "{tx_what}: a batch entry with {} TxDtls needs an Amt (or AmtDtls/TxAmt/Amt) in each",
                details.len()
            )));
        };
        let (tx_value, tx_ccy) = amt(amt_node, &format!("{tx_what}/Amt"))?;
        // A transaction's own CdtDbtInd (camt .001.05+) wins over the entry's.
        let tx_sign = sign(tx_node, &tx_what)?.unwrap_or(entry_sign);
        let mut tx = base.clone();
        tx.amount = tx_value * tx_sign;
        tx.currency = tx_ccy.unwrap_or_else(|| currency.clone());
        fill_details(&mut tx, tx_node, tx_sign);
        out.push(tx);
    }
    Ok(())
}

/// The counterparty, references and remittance information of one `TxDtls`.
fn fill_details(tx: &mut Transaction, tx_node: Node, sign: Decimal) {
    let (party, account) = if sign.is_sign_negative() {
        ("Cdtr", "CdtrAcct")
    } else {
        ("Dbtr", "DbtrAcct")
    };
    if let Some(parties) = child(tx_node, "RltdPties") {
        tx.counterparty_name =
            text(parties, &[party, "Nm"]).or_else(|| text(parties, &[party, "Pty", "Nm"]));
        tx.counterparty_iban = text(parties, &[account, "Id", "IBAN"]).map(|i| compact(&i));
    }
    if let Some(rmt) = child(tx_node, "RmtInf") {
        let lines: Vec<String> = children(rmt, "Ustrd")
            .filter_map(|n| n.text().and_then(non_empty))
            .collect();
        if !lines.is_empty() {
            tx.remittance_information = Some(lines.join(" "));
        }
        tx.creditor_reference = children(rmt, "Strd").find_map(|s| text(s, &["CdtrRefInf", "Ref"]));
    }
    tx.end_to_end_id =
        text(tx_node, &["Refs", "EndToEndId"]).filter(|id| !id.eq_ignore_ascii_case("NOTPROVIDED"));
    if let Some(reference) = text(tx_node, &["Refs", "AcctSvcrRef"]) {
        tx.bank_reference = Some(reference);
    }
}

#[cfg(test)]
mod tests;
