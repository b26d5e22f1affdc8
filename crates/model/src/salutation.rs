//! How a letter or an e-mail to a customer opens and closes (issue 34: reminder letters
//! open with the customer's salutation and close with a greeting, in the customer's
//! language). German letters address a known person as "Sehr geehrte Frau Dr. Berger,"
//! / "Sehr geehrter Herr Berger,", a person of unknown gender as "Guten Tag Kim Berger,",
//! and nobody in particular as "Sehr geehrte Damen und Herren,"; English ones as "Dear
//! Ms Berger," / "Dear Mr Berger," / "Dear Kim Berger," / "Dear Sir or Madam,".

use crate::party::{Gender, Language};

/// The person a letter is addressed to: the customer's billing contact.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Addressee<'a> {
    /// Gender (`F`, `M`, `U`); `None` is treated as unknown.
    pub gender: Option<Gender>,
    /// The contact's salutation field: a title such as `Dr.` or `Prof. Dr.` (a plain
    /// "Frau"/"Herr"/"Mr"/"Ms" there is left out: the gender says it).
    pub title: Option<&'a str>,
    /// First name (may be empty).
    pub firstname: &'a str,
    /// Last name (may be empty; then the letter addresses nobody in particular).
    pub lastname: &'a str,
}

impl<'a> From<&'a crate::party::Person> for Addressee<'a> {
    /// A contact person as the addressee: gender, the salutation field as title, names.
    fn from(p: &'a crate::party::Person) -> Self {
        Addressee {
            gender: p.gender,
            title: p.salutation.as_deref(),
            firstname: &p.firstname,
            lastname: &p.lastname,
        }
    }
}

/// Words the salutation field may hold that are not a title.
const NOT_TITLES: [&str; 10] = [
    "frau", "herr", "mr", "mr.", "mrs", "mrs.", "ms", "ms.", "miss", "divers",
];

/// The opening line of a letter to `to` in `language`, ending in a comma (see the
/// module's examples); without an addressee, or one without a last name, the general
/// form.
pub fn opening(to: Option<Addressee<'_>>, language: Language) -> String {
    let Some(to) = to.filter(|a| !a.lastname.trim().is_empty()) else {
        return match language {
            Language::De => "Sehr geehrte Damen und Herren,".into(),
            Language::En => "Dear Sir or Madam,".into(),
        };
    };
    let title = to
        .title
        .map(str::trim)
        .filter(|t| !t.is_empty() && !NOT_TITLES.contains(&t.to_lowercase().as_str()));
    let last = to.lastname.trim();
    let titled = match title {
        Some(t) => format!("{t} {last}"),
        None => last.to_string(),
    };
    let full = [to.firstname.trim(), last]
        .into_iter()
        .filter(|p| !p.is_empty())
        .collect::<Vec<_>>()
        .join(" ");
    match (language, to.gender) {
        (Language::De, Some(Gender::F)) => format!("Sehr geehrte Frau {titled},"),
        (Language::De, Some(Gender::M)) => format!("Sehr geehrter Herr {titled},"),
        (Language::De, _) => format!("Guten Tag {full},"),
        (Language::En, Some(Gender::F)) => format!("Dear Ms {titled},"),
        (Language::En, Some(Gender::M)) => format!("Dear Mr {titled},"),
        (Language::En, _) => format!("Dear {full},"),
    }
}

/// Whether `text` already opens with a salutation ("Sehr geehrte…", "Guten Tag…",
/// "Hallo…", "Dear…", "Hello…", case-insensitive, after leading spaces and HTML tags), so
/// a letter does not greet twice.
pub fn opens_with_salutation(text: &str) -> bool {
    let mut rest = text.trim_start();
    while let Some(tag) = rest.strip_prefix('<') {
        match tag.find('>') {
            Some(end) => rest = tag[end + 1..].trim_start(),
            None => break,
        }
    }
    let lower = rest.to_lowercase();
    [
        "sehr geehrte",
        "guten tag",
        "hallo",
        "liebe ",
        "lieber ",
        "dear ",
        "hello",
        "hi ",
    ]
    .iter()
    .any(|p| lower.starts_with(p))
}

/// The closing greeting of a letter in `language`: "Mit freundlichen Grüßen" / "Kind
/// regards" (the sender's name follows on its own line).
pub fn closing(language: Language) -> &'static str {
    match language {
        Language::De => "Mit freundlichen Grüßen",
        Language::En => "Kind regards",
    }
}

/// The file name of a reminder letter of dunning `level` for invoice `number` in
/// `language`: `Mahnung-1-R2611-004.pdf` / `Reminder-1-R2611-004.pdf`; characters a file
/// name cannot carry (path separators, quotes, controls) become `_`.
pub fn reminder_file_name(language: Language, level: i64, number: &str) -> String {
    let word = match language {
        Language::De => "Mahnung",
        Language::En => "Reminder",
    };
    let safe: String = number
        .chars()
        .map(|c| {
            if c.is_control() || matches!(c, '/' | '\\' | '"' | ':' | '*' | '?' | '<' | '>' | '|') {
                '_'
            } else {
                c
            }
        })
        .collect();
    format!("{word}-{level}-{safe}.pdf")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn person<'a>(
        gender: Option<Gender>,
        title: Option<&'a str>,
        first: &'a str,
        last: &'a str,
    ) -> Addressee<'a> {
        Addressee {
            gender,
            title,
            firstname: first,
            lastname: last,
        }
    }

    #[test]
    fn a_known_person_is_addressed_by_gender_and_title() {
        let de = Language::De;
        let en = Language::En;
        let berger = person(Some(Gender::F), Some("Dr."), "Anna", "Berger");
        assert_eq!(opening(Some(berger), de), "Sehr geehrte Frau Dr. Berger,");
        assert_eq!(opening(Some(berger), en), "Dear Ms Dr. Berger,");
        let klein = person(Some(Gender::M), Some("Herr"), "Jan", "Klein");
        assert_eq!(opening(Some(klein), de), "Sehr geehrter Herr Klein,");
        assert_eq!(opening(Some(klein), en), "Dear Mr Klein,");
        let kim = person(Some(Gender::U), None, "Kim", "Roth");
        assert_eq!(opening(Some(kim), de), "Guten Tag Kim Roth,");
        assert_eq!(opening(Some(kim), en), "Dear Kim Roth,");
        let unknown = person(None, Some("  "), "", "Roth");
        assert_eq!(opening(Some(unknown), de), "Guten Tag Roth,");
    }

    #[test]
    fn nobody_in_particular_gets_the_general_form() {
        assert_eq!(
            opening(None, Language::De),
            "Sehr geehrte Damen und Herren,"
        );
        assert_eq!(opening(None, Language::En), "Dear Sir or Madam,");
        let nameless = person(Some(Gender::F), None, "Anna", " ");
        assert_eq!(
            opening(Some(nameless), Language::De),
            "Sehr geehrte Damen und Herren,"
        );
        assert_eq!(closing(Language::De), "Mit freundlichen Grüßen");
        assert_eq!(closing(Language::En), "Kind regards");
    }

    #[test]
    fn a_text_that_greets_already_is_not_greeted_again() {
        assert!(opens_with_salutation(
            "Sehr geehrte Damen und Herren,\nunsere Rechnung"
        ));
        assert!(opens_with_salutation("<p>Dear Ms Berger,</p>"));
        assert!(opens_with_salutation("  Guten Tag Kim,"));
        assert!(!opens_with_salutation(
            "unsere Rechnung R2611-004 vom 03.11.2026"
        ));
        assert!(!opens_with_salutation("<p>Our invoice"));
        assert!(!opens_with_salutation("<unclosed"));
    }

    #[test]
    fn the_reminder_file_is_named_in_the_customers_language() {
        assert_eq!(
            reminder_file_name(Language::De, 1, "R2611-004"),
            "Mahnung-1-R2611-004.pdf"
        );
        assert_eq!(
            reminder_file_name(Language::En, 2, "RE-2026/7"),
            "Reminder-2-RE-2026_7.pdf"
        );
        assert_eq!(
            reminder_file_name(Language::De, 3, "a\"b\nc"),
            "Mahnung-3-a_b_c.pdf"
        );
    }
}
