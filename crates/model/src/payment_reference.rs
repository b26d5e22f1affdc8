//! The payment reference of an invoice (issue 32 § Payment references): an ISO 11649
//! creditor reference (`RF`, two check digits, 1–21 letters or digits) derived from the
//! invoice number. It is printed in the payment line, carried by the GiroCode
//! ([`crate::girocode`]), the Swiss QR-bill ([`crate::qr_bill`]) and the e-invoice's
//! remittance information (EN 16931 BT-83), and it is what bank matching looks for in a
//! transfer's text.
//!
//! Pure: one rule for the app and the server. `docs/decisions.md` § Payment references.

/// The most letters and digits after `RF` and the check digits (ISO 11649).
pub const MAX_BODY: usize = 21;

/// ISO 7064 MOD 97-10 remainder of `text` with letters as 10–35 (`A` = 10); `None` for
/// characters other than ASCII letters and digits.
fn mod97(text: &str) -> Option<u32> {
    let mut remainder: u32 = 0;
    for c in text.chars() {
        let value = c.to_ascii_uppercase().to_digit(36)?;
        remainder = if value >= 10 {
            (remainder * 100 + value) % 97
        } else {
            (remainder * 10 + value) % 97
        };
    }
    Some(remainder)
}

/// The letters and digits of `text`, upper-cased (`r2611-001` → `R2611001`).
pub fn compact(text: &str) -> String {
    text.chars()
        .filter(|c| c.is_ascii_alphanumeric())
        .map(|c| c.to_ascii_uppercase())
        .collect()
}

/// The creditor reference of `invoice_number`: its letters and digits upper-cased
/// (`R2611-001` → `R2611001`; of a longer number the last [`MAX_BODY`], where its counter
/// is) after `RF` and the two MOD 97-10 check digits: `RF38R2611001`. `None` when the
/// number has no letter or digit (then the invoice has no payment reference).
///
/// Unique per invoice as long as no two invoice numbers differ only in separators (or,
/// beyond 21 characters, only in their beginning) — see `docs/decisions.md`.
pub fn payment_reference(invoice_number: &str) -> Option<String> {
    let body = compact(invoice_number);
    if body.is_empty() {
        return None;
    }
    let body = &body[body.len().saturating_sub(MAX_BODY)..];
    let remainder = mod97(&format!("{body}RF00"))?;
    Some(format!("RF{:02}{body}", 98 - remainder))
}

/// Whether `reference` (spaces ignored, any case) is an ISO 11649 creditor reference:
/// `RF`, two check digits, 1–21 letters or digits, MOD 97-10 remainder 1.
pub fn is_valid(reference: &str) -> bool {
    let r: String = reference
        .chars()
        .filter(|c| !c.is_whitespace())
        .collect::<String>()
        .to_ascii_uppercase();
    if !(5..=25).contains(&r.len())
        || !r.starts_with("RF")
        || !r[2..4].chars().all(|c| c.is_ascii_digit())
        || !r.chars().all(|c| c.is_ascii_alphanumeric())
    {
        return false;
    }
    mod97(&format!("{}{}", &r[4..], &r[..4])) == Some(1)
}

/// `reference` as printed: groups of four (`RF38 R261 1001`), the form ISO 11649 gives
/// for paper.
pub fn printed(reference: &str) -> String {
    compact(reference)
        .as_bytes()
        .chunks(4)
        .map(|c| String::from_utf8_lossy(c).into_owned())
        .collect::<Vec<_>>()
        .join(" ")
}

/// The valid creditor references written in `text` (a transfer's remittance information
/// or structured reference), compacted and upper-cased, in order: `RF` followed by
/// digits and letters, with or without spaces in groups of four (`RF38 R261 1001`).
pub fn find_in(text: &str) -> Vec<String> {
    let upper = text.to_ascii_uppercase();
    let bytes = upper.as_bytes();
    let mut found = Vec::new();
    let mut i = 0;
    while i + 1 < bytes.len() {
        let starts_word = i == 0 || !bytes[i - 1].is_ascii_alphanumeric();
        if starts_word && &bytes[i..i + 2] == b"RF" {
            // Collect letters and digits, allowing single spaces between groups.
            let mut body = String::from("RF");
            let mut j = i + 2;
            let mut best: Option<String> = None;
            while j < bytes.len() && body.len() < 4 + MAX_BODY {
                let c = bytes[j] as char;
                if c.is_ascii_alphanumeric() {
                    body.push(c);
                    if body.len() >= 5 && is_valid(&body) {
                        best = Some(body.clone());
                    }
                    j += 1;
                } else if c == ' '
                    && j + 1 < bytes.len()
                    && (bytes[j + 1] as char).is_ascii_alphanumeric()
                {
                    j += 1;
                } else {
                    break;
                }
            }
            if let Some(b) = best {
                found.push(b);
            }
        }
        i += 1;
    }
    found.dedup();
    found
}

/// The placeholder an invoice e-mail's subject or text may name for the payment reference
/// (issue 32); the server fills it in when it sends ([`fill_placeholder`]).
pub const PLACEHOLDER: &str = "{payment_reference}";

/// `text` with every [`PLACEHOLDER`] replaced by `reference` printed in groups of four
/// ([`printed`]), or by nothing when the invoice has none.
pub fn fill_placeholder(text: &str, reference: Option<&str>) -> String {
    text.replace(PLACEHOLDER, &reference.map(printed).unwrap_or_default())
}

#[cfg(test)]
mod tests;
