//! Bank matching (issue 32 § Matching): which open invoice or purchase a bank transaction
//! pays. What is certain is booked by itself ([`Decision::Book`]); everything else becomes
//! ranked suggestions with their reasons ([`Decision::Suggest`]); nothing uncertain is
//! booked.
//!
//! Booked by itself:
//! - a credit whose structured reference or remittance text carries exactly one open
//!   invoice's payment reference ([`crate::payment_reference`]) in the transaction's
//!   currency: the amount, or the open amount when the transfer equals it; a smaller
//!   amount is a partial payment; a larger one is only suggested;
//! - a credit whose text names exactly one open invoice's number, with an amount equal to
//!   its open amount or to its gross minus the cash discount (Skonto) while the discount
//!   days run (the server then records the discount and the invoice is settled);
//! - a debit to a supplier's IBAN whose amount equals exactly one of that supplier's open
//!   purchases' open amount, or a debit whose text names exactly one open purchase's
//!   receipt number (the amount up to its open amount).
//!
//! Pure and indexed ([`Candidates::new`]) so that 10,000 entries against 100,000 open
//! invoices take a few hash lookups each. `docs/decisions.md` § Bank matching.

use crate::payment_reference::{compact, find_in};
use chrono::NaiveDate;
use rust_decimal::Decimal;
use serde::{Deserialize, Serialize};
use std::collections::HashMap;

/// A transaction as matching reads it.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct TransactionFacts {
    /// Signed amount: credit +, debit −, in `currency` units.
    pub amount: Decimal,
    /// ISO 4217 code.
    pub currency: String,
    /// The day the bank booked it.
    pub booking_date: Option<NaiveDate>,
    /// Who paid (credit) or was paid (debit).
    pub counterparty_name: Option<String>,
    /// Their IBAN, compact.
    pub counterparty_iban: Option<String>,
    /// Unstructured remittance text.
    pub remittance_information: Option<String>,
    /// Structured creditor reference (ISO 11649), if the bank gave one.
    pub creditor_reference: Option<String>,
}

/// An invoice that can still receive money.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenInvoice {
    /// Invoice id.
    pub id: i64,
    /// Its number.
    pub identifier: String,
    /// Its payment reference (`RF…`).
    pub payment_reference: Option<String>,
    /// Currency code.
    pub currency: String,
    /// What is still open, currency units (> 0).
    pub open_amount: Decimal,
    /// Gross minus the cash discount while the discount days run (`None` without one, or
    /// after the last discount day for `today`'s transactions — the server passes the
    /// invoice's discount deadline in [`OpenInvoice::discount_until`]).
    pub discounted_amount: Option<Decimal>,
    /// The last day the discounted amount settles the invoice.
    pub discount_until: Option<NaiveDate>,
    /// The invoice date.
    pub date: NaiveDate,
    /// The customer's name.
    pub customer_name: String,
    /// The customer's IBAN, compact, if known.
    pub customer_iban: Option<String>,
}

/// A purchase that is still to be paid.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenPurchase {
    /// Purchase id.
    pub id: i64,
    /// The supplier's receipt number (their invoice number), if any.
    pub receipt_identifier: Option<String>,
    /// Currency code.
    pub currency: String,
    /// What is still to pay, currency units (> 0).
    pub open_amount: Decimal,
    /// The supplier's name.
    pub supplier_name: String,
    /// The IBAN to pay (the purchase's or the supplier's), compact, if known.
    pub iban: Option<String>,
}

/// What a transaction is booked against.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Target {
    /// An invoice (money in).
    Invoice(i64),
    /// A purchase (money out).
    Purchase(i64),
}

/// Why a candidate was chosen or suggested.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
#[serde(rename_all = "snake_case")]
pub enum Reason {
    /// The text or structured reference carries the invoice's payment reference.
    PaymentReference,
    /// The text names the invoice or receipt number.
    Number,
    /// The amount equals what is open.
    AmountEqualsOpen,
    /// The amount equals gross minus the cash discount, within the discount days.
    AmountEqualsDiscounted,
    /// The counterparty's IBAN is the customer's or supplier's.
    Iban,
    /// The counterparty's name resembles the customer's or supplier's.
    Name,
    /// A number-like fragment of the text matches the end of the invoice number.
    NumberFragment,
}

/// One booking: `amount` (currency units, > 0) against `target`.
#[derive(Clone, Debug, PartialEq)]
pub struct Allocation {
    /// The invoice or purchase paid.
    pub target: Target,
    /// The amount booked, > 0.
    pub amount: Decimal,
}

/// One suggestion: `target` with the `amount` it would book, a `score` (0–100, higher is
/// more likely) and the `reasons`.
#[derive(Clone, Debug, PartialEq)]
pub struct Suggestion {
    /// The invoice or purchase suggested.
    pub target: Target,
    /// The amount it would book.
    pub amount: Decimal,
    /// 0–100.
    pub score: u8,
    /// Why.
    pub reasons: Vec<Reason>,
}

/// What matching decided for one transaction.
#[derive(Clone, Debug, PartialEq)]
pub enum Decision {
    /// Certain: book these payments.
    Book(Allocation, Vec<Reason>),
    /// Uncertain: these suggestions, best first (may be empty).
    Suggest(Vec<Suggestion>),
}

/// The most suggestions kept per transaction.
pub const MAX_SUGGESTIONS: usize = 5;

/// The open invoices and purchases, indexed for matching.
#[derive(Debug, Default)]
pub struct Candidates {
    invoices: Vec<OpenInvoice>,
    purchases: Vec<OpenPurchase>,
    by_reference: HashMap<String, Vec<usize>>,
    by_number: HashMap<String, Vec<usize>>,
    by_amount: HashMap<(String, Decimal), Vec<usize>>,
    by_iban: HashMap<String, Vec<usize>>,
    purchases_by_receipt: HashMap<String, Vec<usize>>,
    purchases_by_iban: HashMap<String, Vec<usize>>,
    purchases_by_amount: HashMap<(String, Decimal), Vec<usize>>,
    invoice_at: HashMap<i64, usize>,
    purchase_at: HashMap<i64, usize>,
}

fn key_amount(currency: &str, amount: Decimal) -> (String, Decimal) {
    (currency.to_string(), amount.normalize())
}

/// The words of `text` that contain a digit, compacted (`R2611-001,` → `R2611001`), and
/// every run of digits (`2611`, `001`) — the pieces a number may be written as.
fn number_words(text: &str) -> Vec<String> {
    let mut words: Vec<String> = text
        .split(|c: char| c.is_whitespace() || matches!(c, ',' | ';' | ':' | '+' | '(' | ')' | '/'))
        .map(compact)
        .filter(|w| w.chars().any(|c| c.is_ascii_digit()) && w.len() >= 3)
        .collect();
    words.sort();
    words.dedup();
    words
}

/// Whether two names resemble each other: after folding case and dropping legal forms
/// and punctuation, one contains the other, or they share a word of 4+ letters.
fn names_resemble(a: &str, b: &str) -> bool {
    const FORMS: [&str; 8] = ["gmbh", "ag", "kg", "ug", "ohg", "mbh", "co", "ltd"];
    let words = |s: &str| -> Vec<String> {
        s.to_lowercase()
            .split(|c: char| !c.is_alphanumeric())
            .filter(|w| !w.is_empty() && !FORMS.contains(w))
            .map(str::to_string)
            .collect()
    };
    let (wa, wb) = (words(a), words(b));
    if wa.is_empty() || wb.is_empty() {
        return false;
    }
    let (ja, jb) = (wa.join(" "), wb.join(" "));
    ja.contains(&jb)
        || jb.contains(&ja)
        || wa.iter().any(|w| w.chars().count() >= 4 && wb.contains(w))
}

impl Candidates {
    /// Indexes `invoices` (open, > 0) and `purchases` (open, > 0).
    pub fn new(invoices: Vec<OpenInvoice>, purchases: Vec<OpenPurchase>) -> Self {
        let mut c = Candidates {
            invoices,
            purchases,
            ..Default::default()
        };
        for (n, i) in c.invoices.iter().enumerate() {
            c.invoice_at.insert(i.id, n);
            if let Some(r) = &i.payment_reference {
                c.by_reference.entry(compact(r)).or_default().push(n);
            }
            c.by_number
                .entry(compact(&i.identifier))
                .or_default()
                .push(n);
            c.by_amount
                .entry(key_amount(&i.currency, i.open_amount))
                .or_default()
                .push(n);
            if let Some(d) = i.discounted_amount {
                c.by_amount
                    .entry(key_amount(&i.currency, d))
                    .or_default()
                    .push(n);
            }
            if let Some(iban) = &i.customer_iban {
                c.by_iban.entry(compact(iban)).or_default().push(n);
            }
        }
        for (n, p) in c.purchases.iter().enumerate() {
            c.purchase_at.insert(p.id, n);
            if let Some(r) = p
                .receipt_identifier
                .as_deref()
                .map(compact)
                .filter(|r| r.len() >= 3)
            {
                c.purchases_by_receipt.entry(r).or_default().push(n);
            }
            if let Some(iban) = &p.iban {
                c.purchases_by_iban
                    .entry(compact(iban))
                    .or_default()
                    .push(n);
            }
            c.purchases_by_amount
                .entry(key_amount(&p.currency, p.open_amount))
                .or_default()
                .push(n);
        }
        c
    }

    /// The number of open invoice `id` (`R2611-004`), if it is a candidate.
    pub fn invoice_identifier(&self, id: i64) -> Option<&str> {
        self.invoice_at
            .get(&id)
            .and_then(|&n| self.invoices.get(n))
            .map(|i| i.identifier.as_str())
    }

    /// Records that `amount` was just booked against `target` (within the same import):
    /// its open amount drops, its cash discount no longer applies, and once nothing is
    /// open it is no candidate any more — without indexing everything again.
    pub fn booked(&mut self, target: Target, amount: Decimal) {
        match target {
            Target::Invoice(id) => {
                if let Some(i) = self
                    .invoice_at
                    .get(&id)
                    .and_then(|&n| self.invoices.get_mut(n))
                {
                    i.open_amount = i
                        .open_amount
                        .checked_sub(amount)
                        .unwrap_or_default()
                        .max(Decimal::ZERO);
                    i.discounted_amount = None;
                }
            }
            Target::Purchase(id) => {
                if let Some(p) = self
                    .purchase_at
                    .get(&id)
                    .and_then(|&n| self.purchases.get_mut(n))
                {
                    p.open_amount = p
                        .open_amount
                        .checked_sub(amount)
                        .unwrap_or_default()
                        .max(Decimal::ZERO);
                }
            }
        }
    }

    /// Matches `tx` (see the module's rules).
    pub fn decide(&self, tx: &TransactionFacts) -> Decision {
        if tx.amount > Decimal::ZERO {
            self.decide_credit(tx)
        } else if tx.amount < Decimal::ZERO {
            self.decide_debit(tx)
        } else {
            Decision::Suggest(Vec::new())
        }
    }

    fn text(tx: &TransactionFacts) -> String {
        format!(
            "{} {}",
            tx.creditor_reference.as_deref().unwrap_or(""),
            tx.remittance_information.as_deref().unwrap_or("")
        )
    }

    /// Whether the cash-discounted amount applies to `i` on the transaction's day.
    fn discount_applies(i: &OpenInvoice, tx: &TransactionFacts, amount: Decimal) -> bool {
        i.discounted_amount == Some(amount)
            && match (i.discount_until, tx.booking_date) {
                (Some(until), Some(day)) => day <= until,
                _ => false,
            }
    }

    fn decide_credit(&self, tx: &TransactionFacts) -> Decision {
        let amount = tx.amount;
        let text = Self::text(tx);
        let same_currency = |i: &&OpenInvoice| i.currency == tx.currency;
        // 1. The payment reference.
        let referenced: Vec<&OpenInvoice> = {
            let mut hits: Vec<usize> = find_in(&text)
                .iter()
                .filter_map(|r| self.by_reference.get(r))
                .flatten()
                .copied()
                .collect();
            hits.sort_unstable();
            hits.dedup();
            hits.into_iter()
                .map(|n| &self.invoices[n])
                .filter(same_currency)
                .collect()
        };
        if let [i] = referenced.as_slice() {
            if amount <= i.open_amount || Self::discount_applies(i, tx, amount) {
                let mut reasons = vec![Reason::PaymentReference];
                if amount == i.open_amount {
                    reasons.push(Reason::AmountEqualsOpen);
                } else if Self::discount_applies(i, tx, amount) {
                    reasons.push(Reason::AmountEqualsDiscounted);
                }
                return Decision::Book(
                    Allocation {
                        target: Target::Invoice(i.id),
                        amount,
                    },
                    reasons,
                );
            }
        }
        // 2. The invoice number with the exact amount.
        let words = number_words(&text);
        let numbered: Vec<&OpenInvoice> = {
            let mut hits: Vec<usize> = words
                .iter()
                .filter_map(|w| self.by_number.get(w))
                .flatten()
                .copied()
                .collect();
            hits.sort_unstable();
            hits.dedup();
            hits.into_iter()
                .map(|n| &self.invoices[n])
                .filter(same_currency)
                .collect()
        };
        let exact: Vec<&&OpenInvoice> = numbered
            .iter()
            .filter(|i| i.open_amount == amount || Self::discount_applies(i, tx, amount))
            .collect();
        if let [i] = exact.as_slice() {
            let reason = if i.open_amount == amount {
                Reason::AmountEqualsOpen
            } else {
                Reason::AmountEqualsDiscounted
            };
            return Decision::Book(
                Allocation {
                    target: Target::Invoice(i.id),
                    amount,
                },
                vec![Reason::Number, reason],
            );
        }
        // 3. Suggestions.
        let mut scored: HashMap<usize, (u32, Vec<Reason>)> = HashMap::new();
        for i in &referenced {
            if let Some(&n) = self.invoice_at.get(&i.id) {
                add(&mut scored, n, 50, Reason::PaymentReference);
            }
        }
        for w in &words {
            if let Some(ns) = self.by_number.get(w) {
                for &n in ns {
                    add(&mut scored, n, 40, Reason::Number);
                }
            }
        }
        if let Some(ns) = self.by_amount.get(&key_amount(&tx.currency, amount)) {
            for &n in ns {
                let i = &self.invoices[n];
                if i.open_amount == amount {
                    add(&mut scored, n, 30, Reason::AmountEqualsOpen);
                } else if Self::discount_applies(i, tx, amount) {
                    add(&mut scored, n, 30, Reason::AmountEqualsDiscounted);
                }
            }
        }
        if let Some(ns) = tx
            .counterparty_iban
            .as_deref()
            .and_then(|iban| self.by_iban.get(&compact(iban)))
        {
            for &n in ns {
                add(&mut scored, n, 25, Reason::Iban);
            }
        }
        // Names and number fragments only strengthen candidates found above (scanning every
        // invoice by name would not scale and would suggest noise).
        let fragments: Vec<&String> = words
            .iter()
            .filter(|w| w.chars().all(|c| c.is_ascii_digit()))
            .collect();
        let found: Vec<usize> = scored.keys().copied().collect();
        for n in found {
            let i = &self.invoices[n];
            if let Some(name) = &tx.counterparty_name {
                if names_resemble(name, &i.customer_name) {
                    add(&mut scored, n, 15, Reason::Name);
                }
            }
            if fragments
                .iter()
                .any(|f| f.len() >= 3 && compact(&i.identifier).ends_with(f.as_str()))
            {
                add(&mut scored, n, 10, Reason::NumberFragment);
            }
        }
        let mut list: Vec<Suggestion> = scored
            .into_iter()
            .filter(|(n, _)| {
                self.invoices[*n].currency == tx.currency
                    && self.invoices[*n].open_amount > Decimal::ZERO
            })
            .map(|(n, (score, reasons))| {
                let i = &self.invoices[n];
                Suggestion {
                    target: Target::Invoice(i.id),
                    amount: amount.min(i.open_amount),
                    score: score.min(100) as u8,
                    reasons,
                }
            })
            .collect();
        rank(&mut list);
        Decision::Suggest(list)
    }

    fn decide_debit(&self, tx: &TransactionFacts) -> Decision {
        let amount = -tx.amount;
        let text = Self::text(tx);
        let words = number_words(&text);
        let same_currency = |p: &&OpenPurchase| p.currency == tx.currency;
        // 1. The supplier's IBAN with the exact open amount.
        if let Some(ns) = tx
            .counterparty_iban
            .as_deref()
            .and_then(|i| self.purchases_by_iban.get(&compact(i)))
        {
            let exact: Vec<&OpenPurchase> = ns
                .iter()
                .map(|&n| &self.purchases[n])
                .filter(same_currency)
                .filter(|p| p.open_amount == amount)
                .collect();
            if let [p] = exact.as_slice() {
                return Decision::Book(
                    Allocation {
                        target: Target::Purchase(p.id),
                        amount,
                    },
                    vec![Reason::Iban, Reason::AmountEqualsOpen],
                );
            }
        }
        // 2. The receipt number in the text.
        let named: Vec<&OpenPurchase> = {
            let mut hits: Vec<usize> = words
                .iter()
                .filter_map(|w| self.purchases_by_receipt.get(w))
                .flatten()
                .copied()
                .collect();
            hits.sort_unstable();
            hits.dedup();
            hits.into_iter()
                .map(|n| &self.purchases[n])
                .filter(same_currency)
                .collect()
        };
        if let [p] = named.as_slice() {
            if amount <= p.open_amount {
                let mut reasons = vec![Reason::Number];
                if amount == p.open_amount {
                    reasons.push(Reason::AmountEqualsOpen);
                }
                return Decision::Book(
                    Allocation {
                        target: Target::Purchase(p.id),
                        amount,
                    },
                    reasons,
                );
            }
        }
        // 3. Suggestions.
        let mut scored: HashMap<usize, (u32, Vec<Reason>)> = HashMap::new();
        for p in &named {
            if let Some(&n) = self.purchase_at.get(&p.id) {
                add(&mut scored, n, 40, Reason::Number);
            }
        }
        if let Some(ns) = self
            .purchases_by_amount
            .get(&key_amount(&tx.currency, amount))
        {
            for &n in ns {
                add(&mut scored, n, 30, Reason::AmountEqualsOpen);
            }
        }
        if let Some(ns) = tx
            .counterparty_iban
            .as_deref()
            .and_then(|i| self.purchases_by_iban.get(&compact(i)))
        {
            for &n in ns {
                add(&mut scored, n, 25, Reason::Iban);
            }
        }
        let found: Vec<usize> = scored.keys().copied().collect();
        for n in found {
            if let Some(name) = &tx.counterparty_name {
                if names_resemble(name, &self.purchases[n].supplier_name) {
                    add(&mut scored, n, 15, Reason::Name);
                }
            }
        }
        let mut list: Vec<Suggestion> = scored
            .into_iter()
            .filter(|(n, _)| {
                self.purchases[*n].currency == tx.currency
                    && self.purchases[*n].open_amount > Decimal::ZERO
            })
            .map(|(n, (score, reasons))| {
                let p = &self.purchases[n];
                Suggestion {
                    target: Target::Purchase(p.id),
                    amount: amount.min(p.open_amount),
                    score: score.min(100) as u8,
                    reasons,
                }
            })
            .collect();
        rank(&mut list);
        Decision::Suggest(list)
    }
}

/// Adds `points` for `reason` to candidate `n` (once per reason).
fn add(scored: &mut HashMap<usize, (u32, Vec<Reason>)>, n: usize, points: u32, reason: Reason) {
    let e = scored.entry(n).or_insert((0, Vec::new()));
    if !e.1.contains(&reason) {
        e.0 += points;
        e.1.push(reason);
    }
}

/// Best first (score, then the target for a stable order), at most [`MAX_SUGGESTIONS`].
fn rank(list: &mut Vec<Suggestion>) {
    list.sort_by(|a, b| b.score.cmp(&a.score).then(a.target.cmp(&b.target)));
    list.truncate(MAX_SUGGESTIONS);
}

/// Checks a hand-made split of a transfer of `amount` (> 0) over `allocations` (each >
/// 0): their sum must not exceed the transfer. Answers what remains (≥ 0). Errors: the
/// field path `allocations` with the reason (`None` sum overflow counts as too large).
pub fn remainder(amount: Decimal, allocations: &[Decimal]) -> Result<Decimal, &'static str> {
    if allocations.is_empty() {
        return Err("allocations");
    }
    let mut sum = Decimal::ZERO;
    for a in allocations {
        if *a <= Decimal::ZERO {
            return Err("allocations");
        }
        sum = sum.checked_add(*a).ok_or("allocations")?;
    }
    if sum > amount {
        return Err("allocations");
    }
    Ok(amount - sum)
}

#[cfg(test)]
mod tests;
