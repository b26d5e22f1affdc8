//! The texts of a reversal (Storno) invoice in the customer's language (issue 29 § Books
//! that stay whole; `docs/decisions.md` § State rules): a German customer's reversal says
//! "Stornorechnung zu Rechnung R2610-001 vom 01.10.2026", never English.

use crate::party::Language;
use chrono::NaiveDate;

/// The title of the reversal of invoice `number` titled `title`, in `language`:
/// `Stornorechnung zu Rechnung {number}: {title}` / `Reversal of invoice {number}: {title}`.
pub fn reversal_title(language: Language, number: &str, title: &str) -> String {
    match language {
        Language::De => format!("Stornorechnung zu Rechnung {number}: {title}"),
        Language::En => format!("Reversal of invoice {number}: {title}"),
    }
}

/// An invoice number as HTML text (`&`, `<`, `>` escaped), for the salutations of the
/// corrections: reversals here, credit notes in [`crate::credit_note`].
pub(crate) fn escape_number(number: &str) -> String {
    number
        .replace('&', "&amp;")
        .replace('<', "&lt;")
        .replace('>', "&gt;")
}

/// The salutation (HTML) of the reversal of invoice `number` dated `date`, in `language`:
/// `<p>Diese Rechnung storniert die Rechnung {number} vom {DD.MM.YYYY}.</p>` /
/// `<p>This invoice reverses invoice {number} of {D Month YYYY}.</p>`. `number` is
/// escaped for HTML.
pub fn reversal_salutation(language: Language, number: &str, date: NaiveDate) -> String {
    let number = escape_number(number);
    match language {
        Language::De => format!(
            "<p>Diese Rechnung storniert die Rechnung {number} vom {}.</p>",
            date.format("%d.%m.%Y")
        ),
        Language::En => format!(
            "<p>This invoice reverses invoice {number} of {}.</p>",
            date.format("%-d %B %Y")
        ),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_german_customer_reads_german() {
        let date = NaiveDate::from_ymd_opt(2026, 10, 1).unwrap();
        // (language, original number, original title, reversal title, salutation)
        let cases = [
            (
                Language::De,
                "R2610-001",
                "Beratung",
                "Stornorechnung zu Rechnung R2610-001: Beratung",
                "<p>Diese Rechnung storniert die Rechnung R2610-001 vom 01.10.2026.</p>",
            ),
            (
                Language::En,
                "R<1>",
                "Consulting",
                "Reversal of invoice R<1>: Consulting",
                "<p>This invoice reverses invoice R&lt;1&gt; of 1 October 2026.</p>",
            ),
        ];
        for (language, number, title, reversal, salutation) in cases {
            assert_eq!(reversal_title(language, number, title), reversal);
            assert_eq!(reversal_salutation(language, number, date), salutation);
        }
    }
}
