//! Oracle tests: the same files read by kontor-bank and by independent Python libraries
//! must give the same transactions.
//!
//! - MT940: the PyPI package `mt-940` (module `mt940`), with the options for the ?31 IBAN
//!   and the sign of `RC` reversals;
//! - camt.053: the PyPI package `pycamt` (a reader; no free camt writer is on PyPI).
//!
//! The Python comes from `KONTOR_BANK_PY`, else from `scripts/bank-oracles.sh` (which
//! creates a pinned venv). Files: the hand-written ones in `tests/data` and larger ones
//! generated here from a fixed seed (year ends, batches, reversals, long names and
//! purposes that wrap over subfields). `KONTOR_BANK_SKIP_ORACLES=1` skips the tests
//! (for machines without PyPI); otherwise a missing oracle fails them.

use kontor_bank::{read, Transaction};
use rust_decimal::Decimal;
use serde_json::Value;
use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;
use std::str::FromStr;

fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../..")
}

fn python() -> Option<String> {
    if std::env::var("KONTOR_BANK_SKIP_ORACLES").is_ok_and(|v| v == "1") {
        return None;
    }
    if let Ok(py) = std::env::var("KONTOR_BANK_PY") {
        return Some(py);
    }
    let out = Command::new("bash")
        .arg(root().join("scripts/bank-oracles.sh"))
        .output()
        .expect("run scripts/bank-oracles.sh");
    assert!(
        out.status.success(),
        "scripts/bank-oracles.sh failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    Some(
        stdout
            .lines()
            .last()
            .expect("a python path")
            .trim()
            .to_string(),
    )
}

/// The oracle's JSON for each file.
fn oracle(py: &str, kind: &str, files: &[PathBuf]) -> Vec<Value> {
    let script = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/oracle.py");
    let out = Command::new(py)
        .arg(script)
        .arg(kind)
        .args(files)
        .output()
        .expect("run the oracle");
    assert!(
        out.status.success(),
        "oracle failed: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let stdout = String::from_utf8(out.stdout).unwrap();
    let values: Vec<Value> = stdout
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    assert_eq!(values.len(), files.len());
    values
}

fn ours(path: &Path) -> Vec<kontor_bank::Statement> {
    let bytes = std::fs::read(path).unwrap();
    read(&path.display().to_string(), &bytes).unwrap()
}

fn s(value: &Value) -> Option<String> {
    value.as_str().map(str::to_string)
}

/// Text compared without any whitespace: the oracles join subfields and lines without
/// a separator, kontor-bank with a space where a subfield was not full.
fn squeeze(text: Option<&str>) -> Option<String> {
    text.map(|t| t.chars().filter(|c| !c.is_whitespace()).collect::<String>())
        .filter(|t| !t.is_empty())
}

fn compare(file: &Path, index: usize, ours: &Transaction, theirs: &Value, check_refs: bool) {
    let at = format!("{} transaction {}", file.display(), index + 1);
    let amount = Decimal::from_str(theirs["amount"].as_str().unwrap()).unwrap();
    assert_eq!(ours.amount, amount, "{at}: amount");
    assert_eq!(
        Some(ours.currency.clone()),
        s(&theirs["currency"]),
        "{at}: currency"
    );
    if let Some(booking) = s(&theirs["booking_date"]) {
        assert_eq!(ours.booking_date.to_string(), booking, "{at}: booking date");
    }
    assert_eq!(
        ours.value_date.map(|d| d.to_string()),
        s(&theirs["value_date"]),
        "{at}: value date"
    );
    // mt-940 drops a space that falls on an MT940 line break, so names are squeezed too.
    assert_eq!(
        squeeze(ours.counterparty_name.as_deref()),
        squeeze(theirs["name"].as_str()),
        "{at}: name"
    );
    assert_eq!(ours.counterparty_iban, s(&theirs["iban"]), "{at}: IBAN");
    assert_eq!(
        squeeze(ours.remittance_information.as_deref()),
        squeeze(theirs["purpose"].as_str()),
        "{at}: remittance information"
    );
    let e2e = s(&theirs["end_to_end_id"]).filter(|id| id != "NOTPROVIDED");
    assert_eq!(ours.end_to_end_id, e2e, "{at}: end-to-end id");
    if check_refs {
        assert_eq!(
            ours.bank_reference,
            s(&theirs["bank_reference"]),
            "{at}: bank reference"
        );
    }
}

/// A small deterministic generator (xorshift32).
struct Rng(u32);

impl Rng {
    fn next(&mut self) -> u32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 17;
        self.0 ^= self.0 << 5;
        self.0
    }
    fn below(&mut self, n: u32) -> u32 {
        self.next() % n
    }
    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u32) as usize]
    }
}

const IBANS: [&str; 5] = [
    "DE89370400440532013000",
    "DE02120300000000202051",
    "DE12500105170648489890",
    "DE44500105175407324931",
    "GB29NWBK60161331926819",
];
const NAMES: [&str; 5] = [
    "ACME GmbH",
    "Mueller und Soehne Handelsgesellschaft mbH",
    "Stadtwerke Beispielstadt",
    "Dr. Erika Mustermann",
    "Kontor Demo Software und Beratung KG",
];
const WORDS: [&str; 8] = [
    "Rechnung",
    "RE-2026-0042",
    "Danke",
    "Miete",
    "Januar",
    "Kundennr.",
    "4711",
    "Abschlag",
];

fn words(rng: &mut Rng, n: u32) -> String {
    let count = 1 + rng.below(n);
    (0..count)
        .map(|_| rng.pick(&WORDS))
        .collect::<Vec<_>>()
        .join(" ")
}

/// `text` in subfields of at most 27 characters from `first` on (`?20`, `?21` …).
fn subfields(out: &mut String, text: &str, first: u32) {
    let chars: Vec<char> = text.chars().collect();
    for (i, chunk) in chars.chunks(27).enumerate() {
        let chunk: String = chunk.iter().collect();
        write!(out, "?{}{chunk}", first + i as u32).unwrap();
    }
}

fn generated_mt940(seed: u32, count: u32) -> String {
    let mut rng = Rng(seed);
    let mut out = String::from(
        ":20:STARTUMSE\r\n:25:37040044/0532013000\r\n:28C:1/1\r\n:60F:C251215EUR0,00\r\n",
    );
    let start = chrono::NaiveDate::from_ymd_opt(2025, 12, 20).unwrap();
    let mut balance = Decimal::ZERO;
    for i in 0..count {
        let value = start + chrono::Days::new(u64::from(rng.below(25)));
        let entry = value + chrono::Days::new(u64::from(rng.below(5))) - chrono::Days::new(2);
        let cents = 1 + rng.below(100_000_000);
        let amount = Decimal::new(i64::from(cents), 2);
        let mark = rng.pick(&["C", "D", "C", "D", "RC", "RD"]);
        let signed = if mark == "C" || mark == "RD" {
            amount
        } else {
            -amount
        };
        balance += signed;
        let amount_text = amount.to_string().replace('.', ",");
        let bank_ref = if rng.below(2) == 0 {
            format!("//B{i:06}")
        } else {
            String::new()
        };
        write!(
            out,
            ":61:{}{}{mark}{amount_text}N{}NONREF{bank_ref}\r\n",
            value.format("%y%m%d"),
            entry.format("%m%d"),
            rng.pick(&["TRF", "DDT", "MSC", "CHG"])
        )
        .unwrap();
        if rng.below(5) == 0 {
            writeln!(
                out,
                ":86:{}\r\n{}\r",
                words(&mut rng, 4),
                words(&mut rng, 3)
            )
            .unwrap();
            continue;
        }
        let mut purpose = String::new();
        if rng.below(3) > 0 {
            let eref = if rng.below(4) == 0 {
                "NOTPROVIDED".to_string()
            } else {
                format!("E2E-{i}")
            };
            write!(purpose, "EREF+{eref}").unwrap();
        }
        write!(purpose, "SVWZ+{}", words(&mut rng, 9)).unwrap();
        let name = rng.pick(&NAMES);
        let mut field = format!(
            ":86:{}?00SEPA-UEBERWEISUNG?109310",
            rng.pick(&["166", "105", "177"])
        );
        subfields(&mut field, &purpose, 20);
        write!(field, "?30COBADEFFXXX?31{}", rng.pick(&IBANS)).unwrap();
        subfields(&mut field, name, 32);
        // Lines of at most 65 characters, as MT940 wraps them.
        let chars: Vec<char> = field.chars().collect();
        for line in chars.chunks(65) {
            out.extend(line);
            out.push_str("\r\n");
        }
    }
    let closing = if balance.is_sign_negative() { "D" } else { "C" };
    let abs = balance.abs().to_string().replace('.', ",");
    write!(out, ":62F:{closing}260115EUR{abs}\r\n-\r\n").unwrap();
    out
}

fn escape(text: &str) -> String {
    text.replace('&', "&amp;").replace('<', "&lt;")
}

fn generated_camt(seed: u32, count: u32) -> String {
    let mut rng = Rng(seed);
    let mut out = String::from(
        r#"<?xml version="1.0" encoding="UTF-8"?>
<Document xmlns="urn:iso:std:iso:20022:tech:xsd:camt.053.001.08"><BkToCstmrStmt>
<GrpHdr><MsgId>G</MsgId><CreDtTm>2026-01-02T06:00:00</CreDtTm></GrpHdr>
<Stmt><Id>S</Id><Acct><Id><IBAN>DE89370400440532013000</IBAN></Id><Ccy>EUR</Ccy></Acct>
<Bal><Tp><CdOrPrtry><Cd>OPBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">12.34</Amt><CdtDbtInd>DBIT</CdtDbtInd><Dt><Dt>2025-12-31</Dt></Dt></Bal>
<Bal><Tp><CdOrPrtry><Cd>CLBD</Cd></CdOrPrtry></Tp><Amt Ccy="EUR">56.78</Amt><CdtDbtInd>CRDT</CdtDbtInd><Dt><Dt>2026-01-31</Dt></Dt></Bal>
"#,
    );
    for i in 0..count {
        let credit = rng.below(2) == 0;
        let indicator = if credit { "CRDT" } else { "DBIT" };
        let (party, account) = if credit {
            ("Dbtr", "DbtrAcct")
        } else {
            ("Cdtr", "CdtrAcct")
        };
        let day = 1 + rng.below(28);
        let parts = if rng.below(4) == 0 {
            2 + rng.below(3)
        } else {
            1
        };
        let amounts: Vec<u32> = (0..parts).map(|_| 1 + rng.below(10_000_000)).collect();
        let total: u32 = amounts.iter().sum();
        write!(
            out,
            "<Ntry><Amt Ccy=\"EUR\">{}</Amt><CdtDbtInd>{indicator}</CdtDbtInd><Sts><Cd>BOOK</Cd></Sts>\
<BookgDt><Dt>2026-01-{day:02}</Dt></BookgDt><ValDt><DtTm>2026-01-{day:02}T12:00:00</DtTm></ValDt>\
<AcctSvcrRef>N{i}</AcctSvcrRef><NtryDtls>",
            Decimal::new(i64::from(total), 2)
        )
        .unwrap();
        for (k, cents) in amounts.iter().enumerate() {
            let e2e = if rng.below(3) == 0 {
                "NOTPROVIDED".to_string()
            } else {
                format!("E{i}-{k}")
            };
            let amt = if parts > 1 {
                format!(
                    "<Amt Ccy=\"EUR\">{}</Amt>",
                    Decimal::new(i64::from(*cents), 2)
                )
            } else {
                String::new()
            };
            let name = escape(&rng.pick(&NAMES).replace("und", "&"));
            let iban = rng.pick(&IBANS);
            let lines: String = (0..1 + rng.below(3))
                .map(|_| format!("<Ustrd>{}</Ustrd>", words(&mut rng, 5)))
                .collect();
            write!(
                out,
                "<TxDtls><Refs><EndToEndId>{e2e}</EndToEndId></Refs>{amt}<RltdPties><{party}><Pty><Nm>{name}</Nm></Pty></{party}>\
<{account}><Id><IBAN>{iban}</IBAN></Id></{account}></RltdPties><RmtInf>{lines}</RmtInf></TxDtls>"
            )
            .unwrap();
        }
        out.push_str("</NtryDtls></Ntry>\n");
    }
    out.push_str("</Stmt></BkToCstmrStmt></Document>\n");
    out
}

#[test]
fn mt940_agrees_with_the_mt_940_package() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let mut files = vec![root().join("crates/bank/tests/data/de_sepa.sta")];
    for seed in [1, 2, 3] {
        let path = dir.path().join(format!("gen{seed}.sta"));
        std::fs::write(&path, generated_mt940(seed * 7919, 300)).unwrap();
        files.push(path);
    }
    let theirs = oracle(&py, "mt940", &files);
    let mut compared = 0;
    for (file, theirs) in files.iter().zip(&theirs) {
        let statements = ours(file);
        let mine: Vec<&Transaction> = statements.iter().flat_map(|s| &s.entries).collect();
        let their_list = theirs["transactions"].as_array().unwrap();
        assert_eq!(
            mine.len(),
            their_list.len(),
            "{}: transaction count",
            file.display()
        );
        for (i, (m, t)) in mine.iter().zip(their_list).enumerate() {
            compare(file, i, m, t, true);
            compared += 1;
        }
        for s in &statements {
            let sum: Decimal = s.entries.iter().map(|t| t.amount).sum();
            assert_eq!(s.opening_balance.unwrap() + sum, s.closing_balance.unwrap());
        }
    }
    assert!(compared > 900, "{compared}");
}

#[test]
fn camt053_agrees_with_pycamt() {
    let Some(py) = python() else { return };
    let dir = tempfile::tempdir().unwrap();
    let data = root().join("crates/bank/tests/data");
    let mut files = vec![
        data.join("camt053_v02.xml"),
        data.join("camt053_v08_batch.xml"),
    ];
    for seed in [11, 12] {
        let path = dir.path().join(format!("gen{seed}.xml"));
        std::fs::write(&path, generated_camt(seed * 104_729, 200)).unwrap();
        files.push(path);
    }
    let theirs = oracle(&py, "camt", &files);
    let mut compared = 0;
    for (file, theirs) in files.iter().zip(&theirs) {
        let statements = ours(file);
        let mine: Vec<&Transaction> = statements.iter().flat_map(|s| &s.entries).collect();
        let their_list = theirs["transactions"].as_array().unwrap();
        assert_eq!(
            mine.len(),
            their_list.len(),
            "{}: transaction count",
            file.display()
        );
        for (i, (m, t)) in mine.iter().zip(their_list).enumerate() {
            // pycamt takes a batch's amounts from each TxDtls and a single one's from the entry.
            compare(file, i, m, t, false);
            compared += 1;
        }
        let their_statements = theirs["statements"].as_array().unwrap();
        assert_eq!(statements.len(), their_statements.len());
        for (m, t) in statements.iter().zip(their_statements) {
            assert_eq!(m.account_iban, s(&t["iban"]).map(|i| i.replace(' ', "")));
            let number = |v: &Value| v.as_str().map(|x| Decimal::from_str(x).unwrap());
            if let Some(closing) = number(&t["closing"]) {
                assert_eq!(m.closing_balance, Some(closing), "{}", file.display());
            }
            if let Some(opening) = number(&t["opening"]) {
                assert_eq!(m.opening_balance, Some(opening), "{}", file.display());
            }
        }
    }
    assert!(compared > 200, "{compared}");
}
