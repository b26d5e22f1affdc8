//! The catalogue of the server's and the rules' field messages (issue 30: "server messages
//! in German and English through message codes with parameters"; `docs/decisions.md`
//! § Message codes).
//!
//! Every message a rule or a handler writes is one of these entries: a stable `code` (the
//! wire's `error_codes`), its English text (the interface's language and the fallback) and
//! its German text. `{}` stands for a parameter, in order; a German text may name them by
//! position (`{2}`, 1-based) where German orders them differently. A message is made with
//! [`Text::with`] (parameters) or `Message::from(TEXT)` (none), so a message without German
//! cannot be written: editing the English no longer loses the German.

use super::message::{Message, Text, VERBATIM};

/// Declares the catalogue: one `pub const NAME: Text` per entry, and [`ALL`].
macro_rules! catalogue {
    ($($(#[$doc:meta])* $name:ident = $code:literal, $en:literal, $de:literal;)*) => {
        $( $(#[$doc])* pub const $name: Text = Text { code: $code, en: $en, de: $de }; )*
        /// Every entry, for a lookup by code ([`super::message::Message::from_code`]).
        pub const ALL: &[Text] = &[$($name),*];
    };
}

catalogue! {
    /// "is required"
    IS_REQUIRED = "is_required", "is required", "ist erforderlich";
    /// "does not exist"
    DOES_NOT_EXIST = "does_not_exist", "does not exist", "existiert nicht";
    /// "must not be negative"
    MUST_NOT_BE_NEGATIVE = "must_not_be_negative", "must not be negative", "darf nicht negativ sein";
    /// "is not an e-mail address"
    IS_NOT_E_MAIL_ADDRESS = "is_not_e_mail_address", "is not an e-mail address", "ist keine E-Mail-Adresse";
    /// "{} is not an e-mail address"
    N_IS_NOT_E_MAIL_ADDRESS = "n_is_not_e_mail_address", "{} is not an e-mail address", "{} ist keine E-Mail-Adresse";
    /// "must not be before the date"
    MUST_NOT_BE_BEFORE_DATE = "must_not_be_before_date", "must not be before the date", "darf nicht vor dem Datum liegen";
    /// "must not be before the reminder date"
    MUST_NOT_BE_BEFORE_REMINDER_DATE = "must_not_be_before_reminder_date", "must not be before the reminder date", "darf nicht vor dem Mahndatum liegen";
    /// "must not be before service_period_from"
    MUST_NOT_BE_BEFORE_SERVICE_PERIOD_FROM = "must_not_be_before_service_period_from", "must not be before service_period_from", "darf nicht vor dem Beginn des Leistungszeitraums liegen";
    /// "must not be before next_date"
    MUST_NOT_BE_BEFORE_NEXT_DATE = "must_not_be_before_next_date", "must not be before next_date", "darf nicht vor dem nächsten Termin liegen";
    /// "must not be before from"
    MUST_NOT_BE_BEFORE_FROM = "must_not_be_before_from", "must not be before from", "darf nicht vor dem Anfang liegen";
    /// "must be at most {} characters"
    MUST_BE_AT_MOST_N_CHARACTERS = "must_be_at_most_n_characters", "must be at most {} characters", "darf höchstens {} Zeichen lang sein";
    /// "must be at least {} characters long (it has {})"
    MUST_BE_AT_LEAST_N_CHARACTERS = "must_be_at_least_n_characters", "must be at least {} characters long (it has {})", "muss mindestens {} Zeichen lang sein (es sind {})";
    /// "must be a number"
    MUST_BE_NUMBER = "must_be_number", "must be a number", "muss eine Zahl sein";
    /// "must be an integer"
    MUST_BE_INTEGER = "must_be_integer", "must be an integer", "muss eine ganze Zahl sein";
    /// "must not be empty"
    MUST_NOT_BE_EMPTY = "must_not_be_empty", "must not be empty", "darf nicht leer sein";
    /// "must not be blank"
    MUST_NOT_BE_BLANK = "must_not_be_blank", "must not be blank", "darf nicht leer sein";
    /// "is empty"
    IS_EMPTY = "is_empty", "is empty", "ist leer";
    /// "must hold at most {} positions"
    MUST_HOLD_AT_MOST_N_POSITIONS = "must_hold_at_most_n_positions", "must hold at most {} positions", "darf höchstens {} Positionen enthalten";
    /// "must be one of the account's currencies ({})"
    MUST_BE_ACCOUNT_CURRENCY_OF_N = "must_be_account_currency_of_n", "must be one of the account's currencies ({})", "muss eine der Währungen des Kontos sein ({})";
    /// "must be one of the account's currencies"
    MUST_BE_ACCOUNT_CURRENCY = "must_be_account_currency", "must be one of the account's currencies", "muss eine der Währungen des Kontos sein";
    /// "must be the invoice's currency ({})"
    MUST_BE_INVOICES_CURRENCY_N = "must_be_invoices_currency_n", "must be the invoice's currency ({})", "muss die Währung der Rechnung sein ({})";
    /// "must match the {}'s currency ({})"
    MUST_MATCH_N_S_CURRENCY_N = "must_match_n_s_currency_n", "must match the {}'s currency ({})", "muss zur Währung von {} passen ({})";
    /// "must be greater than 0 for a {} position"
    MUST_BE_GREATER_THAN_0_FOR_N_POSITION = "must_be_greater_than_0_for_n_position", "must be greater than 0 for a {} position", "muss bei einer Position „{}“ größer als 0 sein";
    /// "must be greater than 0"
    MUST_BE_GREATER_THAN_0 = "must_be_greater_than_0", "must be greater than 0", "muss größer als 0 sein";
    /// "must be 0 for a {} position"
    MUST_BE_0_FOR_N_POSITION = "must_be_0_for_n_position", "must be 0 for a {} position", "muss bei einer Position „{}“ 0 sein";
    /// "must be a non-empty tag without commas"
    MUST_BE_NON_EMPTY_TAG_WITHOUT_COMMAS = "must_be_non_empty_tag_without_commas", "must be a non-empty tag without commas", "muss ein nicht leeres Schlagwort ohne Komma sein";
    /// "is not a valid IBAN (checksum)"
    IS_NOT_VALID_IBAN_CHECKSUM = "is_not_valid_iban_checksum", "is not a valid IBAN (checksum)", "ist keine gültige IBAN (Prüfsumme)";
    /// "is not a valid IBAN (country, check digits, account)"
    IS_NOT_VALID_IBAN_FORMAT = "is_not_valid_iban_format", "is not a valid IBAN (country, check digits, account)", "ist keine gültige IBAN (Land, Prüfziffern, Konto)";
    /// "is not a valid IBAN"
    IS_NOT_VALID_IBAN = "is_not_valid_iban", "is not a valid IBAN", "ist keine gültige IBAN";
    /// "is not a configured letter paper"
    IS_NOT_CONFIGURED_LETTER_PAPER = "is_not_configured_letter_paper", "is not a configured letter paper", "ist kein eingerichtetes Briefpapier";
    /// "has a wrong check digit"
    HAS_WRONG_CHECK_DIGIT = "has_wrong_check_digit", "has a wrong check digit", "hat eine falsche Prüfziffer";
    /// "does not fit"
    DOES_NOT_FIT = "does_not_fit", "does not fit", "passt nicht";
    /// "is out of range"
    IS_OUT_OF_RANGE = "is_out_of_range", "is out of range", "liegt außerhalb des zulässigen Bereichs";
    /// "must contain at least one position"
    MUST_CONTAIN_AT_LEAST_ONE_POSITION = "must_contain_at_least_one_position", "must contain at least one position", "muss mindestens eine Position enthalten";
    /// "must contain at least one item position"
    MUST_CONTAIN_AT_LEAST_ONE_ITEM_POSITION = "must_contain_at_least_one_item_position", "must contain at least one item position", "muss mindestens eine Artikelposition enthalten";
    /// "must be pending or approved"
    MUST_BE_PENDING_OR_APPROVED = "must_be_pending_or_approved", "must be pending or approved", "muss offen oder freigegeben sein";
    /// "must be open, won or lost"
    MUST_BE_OPEN_WON_OR_LOST = "must_be_open_won_or_lost", "must be open, won or lost", "muss offen, gewonnen oder verloren sein";
    /// "must be created or draft"
    MUST_BE_CREATED_OR_DRAFT = "must_be_created_or_draft", "must be created or draft", "muss angelegt oder Entwurf sein";
    /// "must be offer or customer"
    MUST_BE_OFFER_OR_CUSTOMER = "must_be_offer_or_customer", "must be offer or customer", "muss Angebot oder Kunde sein";
    /// "must be invoice, project or customer"
    MUST_BE_INVOICE_PROJECT_OR_CUSTOMER = "must_be_invoice_project_or_customer", "must be invoice, project or customer", "muss Rechnung, Projekt oder Kunde sein";
    /// "must be one of {}"
    MUST_BE_ONE_OF_N = "must_be_one_of_n", "must be one of {}", "muss einer der Werte {} sein";
    /// "must be between {} and {} (exclusive) with at most {} decimal places"
    MUST_BE_BETWEEN_N_AND_N_EXCLUSIVE = "must_be_between_n_and_n_exclusive", "must be between {} and {} (exclusive) with at most {} decimal places", "muss zwischen {} und {} liegen (ausschließlich), mit höchstens {} Nachkommastellen";
    /// "must be between 0 and 100 with at most {} decimal places"
    MUST_BE_PERCENT_WITH_N_DECIMALS = "must_be_percent_with_n_decimals", "must be between 0 and 100 with at most {} decimal places", "muss zwischen 0 und 100 liegen, mit höchstens {} Nachkommastellen";
    /// "must be between 0 and {} days"
    MUST_BE_BETWEEN_0_AND_N_DAYS = "must_be_between_0_and_n_days", "must be between 0 and {} days", "muss zwischen 0 und {} Tagen liegen";
    /// "must be between {} and {}"
    MUST_BE_BETWEEN_N_AND_N = "must_be_between_n_and_n", "must be between {} and {}", "muss zwischen {} und {} liegen";
    /// "must be more than 0 and at most {} with at most {} decimal places"
    MUST_BE_POSITIVE_AT_MOST_N_WITH_N_DECIMALS = "must_be_positive_at_most_n_with_n_decimals", "must be more than 0 and at most {} with at most {} decimal places", "muss größer als 0 und höchstens {} sein, mit höchstens {} Nachkommastellen";
    /// "must have at most {} decimal places in {}"
    MUST_HAVE_AT_MOST_N_DECIMALS_IN_N = "must_have_at_most_n_decimals_in_n", "must have at most {} decimal places in {}", "darf in {2} höchstens {1} Nachkommastellen haben";
    /// "must be below {} (docs/decisions.md § Amount ranges)"
    MUST_BE_BELOW_N = "must_be_below_n", "must be below {} (docs/decisions.md § Amount ranges)", "muss kleiner als {} sein";
    /// "is too large: amounts must stay below 10^15 currency units"
    AMOUNT_TOO_LARGE = "amount_too_large", "is too large: amounts must stay below 10^15 currency units", "ist zu groß: Beträge müssen unter 10^15 Währungseinheiten bleiben";
    /// "is too large: amounts and totals must stay below {} currency units"
    AMOUNT_OR_TOTAL_TOO_LARGE_N = "amount_or_total_too_large_n", "is too large: amounts and totals must stay below {} currency units", "ist zu groß: Beträge und Summen müssen unter {} Währungseinheiten bleiben";
    /// "is required with service_period_to"
    IS_REQUIRED_WITH_SERVICE_PERIOD_TO = "is_required_with_service_period_to", "is required with service_period_to", "ist zusammen mit dem Ende des Leistungszeitraums erforderlich";
    /// "is required with service_period_from"
    IS_REQUIRED_WITH_SERVICE_PERIOD_FROM = "is_required_with_service_period_from", "is required with service_period_from", "ist zusammen mit dem Beginn des Leistungszeitraums erforderlich";
    /// "is required with a unit price"
    IS_REQUIRED_WITH_UNIT_PRICE = "is_required_with_unit_price", "is required with a unit price", "ist zusammen mit einem Einzelpreis erforderlich";
    /// "is required with a quantity"
    IS_REQUIRED_WITH_QUANTITY = "is_required_with_quantity", "is required with a quantity", "ist zusammen mit einer Menge erforderlich";
    /// "is required for an exempt position"
    IS_REQUIRED_FOR_EXEMPT_POSITION = "is_required_for_exempt_position", "is required for an exempt position", "ist für eine steuerbefreite Position erforderlich";
    /// "is required for a {} position: the document's tax rate is 0"
    IS_REQUIRED_FOR_N_POSITION_TAX_0 = "is_required_for_n_position_tax_0", "is required for a {} position: the document's tax rate is 0", "ist für eine Position „{}“ erforderlich: der Steuersatz des Belegs ist 0";
    /// "is required for the QR-bill"
    IS_REQUIRED_FOR_QR_BILL = "is_required_for_qr_bill", "is required for the QR-bill", "ist für die QR-Rechnung erforderlich";
    /// "is required for the DATEV export: set it in the settings"
    IS_REQUIRED_FOR_DATEV_EXPORT = "is_required_for_datev_export", "is required for the DATEV export: set it in the settings", "ist für den DATEV-Export erforderlich: in den Einstellungen eintragen";
    /// "is required (multipart part named file)"
    IS_REQUIRED_MULTIPART_FILE = "is_required_multipart_file", "is required (multipart part named file)", "ist erforderlich (Multipart-Teil „file“)";
    /// "is not a web address"
    IS_NOT_WEB_ADDRESS = "is_not_web_address", "is not a web address", "ist keine Webadresse";
    /// "must be a web address such as https://www.example.com"
    MUST_BE_WEB_ADDRESS = "must_be_web_address", "must be a web address such as https://www.example.com", "muss eine Webadresse wie https://www.example.com sein";
    /// "is not a phone number"
    IS_NOT_PHONE_NUMBER = "is_not_phone_number", "is not a phone number", "ist keine Telefonnummer";
    /// "is not a host name"
    IS_NOT_HOST_NAME = "is_not_host_name", "is not a host name", "ist kein Hostname";
    /// "must not contain control characters" (folder names, issue 36)
    MUST_NOT_CONTAIN_CONTROL_CHARACTERS = "must_not_contain_control_characters", "must not contain control characters", "darf keine Steuerzeichen enthalten";
    /// "must differ from the folder that is read" (the inbox's processed folder, issue 36)
    MUST_DIFFER_FROM_READ_FOLDER = "must_differ_from_read_folder", "must differ from the folder that is read", "muss sich vom gelesenen Ordner unterscheiden";
    /// "is not a currency code such as EUR"
    IS_NOT_CURRENCY_CODE = "is_not_currency_code", "is not a currency code such as EUR", "ist kein Währungscode wie EUR";
    /// "is not numeric"
    IS_NOT_NUMERIC = "is_not_numeric", "is not numeric", "ist nicht numerisch";
    /// "is not a finite number"
    IS_NOT_FINITE_NUMBER = "is_not_finite_number", "is not a finite number", "ist keine endliche Zahl";
    /// "is not a number; write it like {} (groups of three digits)"
    IS_NOT_NUMBER_WRITE_LIKE_N = "is_not_number_write_like_n", "is not a number; write it like {} (groups of three digits)", "ist keine Zahl; schreiben Sie sie wie {} (Dreiergruppen)";
    /// "has the wrong type for this field"
    HAS_WRONG_TYPE_FOR_THIS_FIELD = "has_wrong_type_for_this_field", "has the wrong type for this field", "hat den falschen Typ für dieses Feld";
    /// "must be a timestamp"
    MUST_BE_TIMESTAMP = "must_be_timestamp", "must be a timestamp", "muss ein Zeitstempel sein";
    /// "must be a month YYYY-MM"
    MUST_BE_MONTH = "must_be_month", "must be a month YYYY-MM", "muss ein Monat JJJJ-MM sein";
    /// "must be a date YYYY-MM-DD with a year from 1900 to 2999"
    MUST_BE_DATE = "must_be_date", "must be a date YYYY-MM-DD with a year from 1900 to 2999", "muss ein Datum JJJJ-MM-TT mit einem Jahr von 1900 bis 2999 sein";
    /// "must be an ISO 3166-1 country code such as DE"
    MUST_BE_COUNTRY_CODE = "must_be_country_code", "must be an ISO 3166-1 country code such as DE", "muss ein Ländercode nach ISO 3166-1 wie DE sein";
    /// "must be an ISO 3166-1 alpha-2 country code (e.g. DE)"
    MUST_BE_COUNTRY_CODE_ALPHA_2 = "must_be_country_code_alpha_2", "must be an ISO 3166-1 alpha-2 country code (e.g. DE)", "muss ein Ländercode nach ISO 3166-1 Alpha-2 sein (z. B. DE)";
    /// "must start with an EU country prefix (e.g. DE, AT, NL), GB, XI or CHE"
    MUST_START_WITH_VAT_PREFIX = "must_start_with_vat_prefix", "must start with an EU country prefix (e.g. DE, AT, NL), GB, XI or CHE", "muss mit einem EU-Länderkürzel (z. B. DE, AT, NL), GB, XI oder CHE beginnen";
    /// "must be DE + 9 digits"
    MUST_BE_DE_9_DIGITS = "must_be_de_9_digits", "must be DE + 9 digits", "muss DE und 9 Ziffern sein";
    /// "must be a BIC of 8 or 11 characters (e.g. COBADEFFXXX)"
    MUST_BE_BIC_EXAMPLE = "must_be_bic_example", "must be a BIC of 8 or 11 characters (e.g. COBADEFFXXX)", "muss eine BIC mit 8 oder 11 Zeichen sein (z. B. COBADEFFXXX)";
    /// "must be a BIC of 8 or 11 characters"
    MUST_BE_BIC = "must_be_bic", "must be a BIC of 8 or 11 characters", "muss eine BIC mit 8 oder 11 Zeichen sein";
    /// "must be a SEPA creditor identifier such as DE98ZZZ09999999999"
    MUST_BE_SEPA_CREDITOR_IDENTIFIER = "must_be_sepa_creditor_identifier", "must be a SEPA creditor identifier such as DE98ZZZ09999999999", "muss eine Gläubiger-Identifikationsnummer wie DE98ZZZ09999999999 sein";
    /// "must list at least one currency"
    MUST_LIST_AT_LEAST_ONE_CURRENCY = "must_list_at_least_one_currency", "must list at least one currency", "muss mindestens eine Währung nennen";
    /// "belongs to another customer"
    BELONGS_TO_ANOTHER_CUSTOMER = "belongs_to_another_customer", "belongs to another customer", "gehört zu einem anderen Kunden";
    /// "{} belongs to another customer"
    N_BELONGS_TO_ANOTHER_CUSTOMER = "n_belongs_to_another_customer", "{} belongs to another customer", "{} gehört zu einem anderen Kunden";
    /// "is another customer's offer"
    IS_ANOTHER_CUSTOMERS_OFFER = "is_another_customers_offer", "is another customer's offer", "ist das Angebot eines anderen Kunden";
    /// "{} does not exist"
    N_DOES_NOT_EXIST = "n_does_not_exist", "{} does not exist", "{} existiert nicht";
    /// "{} is already billed"
    N_IS_ALREADY_BILLED = "n_is_already_billed", "{} is already billed", "{} ist bereits abgerechnet";
    /// "{} is not billable"
    N_IS_NOT_BILLABLE = "n_is_not_billable", "{} is not billable", "{} ist nicht abrechenbar";
    /// "cannot be repeated: time and expenses are billed once"
    CANNOT_REPEAT_BILLED_TIME = "cannot_repeat_billed_time", "cannot be repeated: time and expenses are billed once", "kann nicht wiederholt werden: Zeiten und Auslagen werden einmal abgerechnet";
    /// "cannot be repeated: an offer is billed once"
    CANNOT_REPEAT_BILLED_OFFER = "cannot_repeat_billed_offer", "cannot be repeated: an offer is billed once", "kann nicht wiederholt werden: ein Angebot wird einmal abgerechnet";
    /// "is a draft; finalize it before recording payments"
    IS_DRAFT_NO_PAYMENTS = "is_draft_no_payments", "is a draft; finalize it before recording payments", "ist ein Entwurf; erst abschließen, dann Zahlungen erfassen";
    /// "is a draft; only final invoices can be reminded of"
    IS_DRAFT_NO_REMINDERS = "is_draft_no_reminders", "is a draft; only final invoices can be reminded of", "ist ein Entwurf; nur abgeschlossene Rechnungen können gemahnt werden";
    /// "is paid; there is nothing to remind of"
    IS_PAID_NO_REMINDERS = "is_paid_no_reminders", "is paid; there is nothing to remind of", "ist bezahlt; es gibt nichts zu mahnen";
    /// "is already on purchase {} of this supplier"
    IS_ALREADY_ON_PURCHASE_N_OF_THIS = "is_already_on_purchase_n_of_this", "is already on purchase {} of this supplier", "steht bereits auf der Eingangsrechnung {} dieses Lieferanten";
    /// "is already used by another user"
    IS_ALREADY_USED_BY_ANOTHER_USER = "is_already_used_by_another_user", "is already used by another user", "wird bereits von einer anderen Person verwendet";
    /// "must be admin, staff or read_only"
    MUST_BE_ADMIN_STAFF_OR_READ_ONLY = "must_be_admin_staff_or_read_only", "must be admin, staff or read_only", "muss admin, staff oder read_only sein";
    /// "must be de or en"
    MUST_BE_DE_OR_EN = "must_be_de_or_en", "must be de or en", "muss de oder en sein";
    /// "must be system, light or dark"
    MUST_BE_SYSTEM_LIGHT_OR_DARK = "must_be_system_light_or_dark", "must be system, light or dark", "muss system, light oder dark sein";
    /// "is wrong"
    IS_WRONG = "is_wrong", "is wrong", "ist falsch";
    /// "is too easy to guess: {}"
    PASSWORD_TOO_EASY_N = "password_too_easy_n", "is too easy to guess: {}", "ist zu leicht zu erraten: {}";
    /// "is too easy to guess; add more words or characters"
    PASSWORD_TOO_EASY = "password_too_easy", "is too easy to guess; add more words or characters", "ist zu leicht zu erraten; fügen Sie Wörter oder Zeichen hinzu";
    /// "The link is invalid or has expired."
    LINK_INVALID_OR_EXPIRED = "link_invalid_or_expired", "The link is invalid or has expired.", "Der Link ist ungültig oder abgelaufen.";
    /// "E-mail or password is wrong."
    SIGN_IN_FAILED = "sign_in_failed", "E-mail or password is wrong.", "E-Mail-Adresse oder Passwort ist falsch.";
    /// "Missing, malformed or unknown API key."
    API_KEY_REFUSED = "api_key_refused", "Missing, malformed or unknown API key.", "Der API-Schlüssel fehlt, ist fehlerhaft oder unbekannt.";
    /// "Too many sign-in attempts. Try again in 1 minute."
    SIGN_IN_LOCKED_ONE_MINUTE = "sign_in_locked_one_minute", "Too many sign-in attempts. Try again in 1 minute.", "Zu viele Anmeldeversuche. Bitte in 1 Minute erneut versuchen.";
    /// "Too many sign-in attempts. Try again in {} minutes."
    SIGN_IN_LOCKED_N_MINUTES = "sign_in_locked_n_minutes", "Too many sign-in attempts. Try again in {} minutes.", "Zu viele Anmeldeversuche. Bitte in {} Minuten erneut versuchen.";
    /// "Rate limit exceeded; retry in {} seconds."
    RATE_LIMITED_N_SECONDS = "rate_limited_n_seconds", "Rate limit exceeded; retry in {} seconds.", "Zu viele Anfragen; bitte in {} Sekunden erneut versuchen.";
    /// "the last active admin must stay an active admin"
    LAST_ACTIVE_ADMIN = "last_active_admin", "the last active admin must stay an active admin", "der letzte aktive Admin muss aktiver Admin bleiben";
    /// "the user is deactivated"
    USER_IS_DEACTIVATED = "user_is_deactivated", "the user is deactivated", "die Person ist deaktiviert";
    /// "no recipient: give emails_to or set a billing e-mail address on the customer or project"
    NO_RECIPIENT = "no_recipient", "no recipient: give emails_to or set a billing e-mail address on the customer or project", "kein Empfänger: emails_to angeben oder beim Kunden oder Projekt eine Rechnungs-E-Mail-Adresse hinterlegen";
    /// "enter at least one recipient"
    ENTER_AT_LEAST_ONE_RECIPIENT = "enter_at_least_one_recipient", "enter at least one recipient", "mindestens einen Empfänger angeben";
    /// "names must not be blank"
    NAMES_MUST_NOT_BE_BLANK = "names_must_not_be_blank", "names must not be blank", "Namen dürfen nicht leer sein";
    /// "can't be blank"
    CAN_T_BE_BLANK = "can_t_be_blank", "can't be blank", "darf nicht leer sein";
    /// "only items with quantity and unit price can bill activities or expenses"
    ONLY_PRICED_ITEMS_BILL_ACTIVITIES = "only_priced_items_bill_activities", "only items with quantity and unit price can bill activities or expenses", "nur Positionen mit Menge und Einzelpreis können Zeiten oder Auslagen abrechnen";
    /// "only a person at a company can be its billing contact"
    BILLING_CONTACT_MUST_BE_AT_COMPANY = "billing_contact_must_be_at_company", "only a person at a company can be its billing contact", "nur eine Person der Firma kann ihr Rechnungskontakt sein";
    /// "is longer than 70 characters for the QR-bill"
    QR_BILL_TOO_LONG = "qr_bill_too_long", "is longer than 70 characters for the QR-bill", "ist für die QR-Rechnung länger als 70 Zeichen";
    /// "needs a line with post code and town for the QR-bill"
    QR_BILL_NEEDS_TOWN_LINE = "qr_bill_needs_town_line", "needs a line with post code and town for the QR-bill", "braucht für die QR-Rechnung eine Zeile mit Postleitzahl und Ort";
    /// "has a street longer than 70 characters for the QR-bill"
    QR_BILL_STREET_TOO_LONG = "qr_bill_street_too_long", "has a street longer than 70 characters for the QR-bill", "hat für die QR-Rechnung eine Straße mit mehr als 70 Zeichen";
    /// "has a town over 35 or a post code over 16 characters for the QR-bill"
    QR_BILL_TOWN_TOO_LONG = "qr_bill_town_too_long", "has a town over 35 or a post code over 16 characters for the QR-bill", "hat für die QR-Rechnung einen Ort über 35 oder eine Postleitzahl über 16 Zeichen";
    /// "must be a Swiss or Liechtenstein IBAN for the QR-bill"
    QR_BILL_NEEDS_SWISS_IBAN = "qr_bill_needs_swiss_iban", "must be a Swiss or Liechtenstein IBAN for the QR-bill", "muss für die QR-Rechnung eine IBAN aus der Schweiz oder Liechtenstein sein";
    /// "must be CHF or EUR for the QR-bill"
    QR_BILL_NEEDS_CHF_OR_EUR = "qr_bill_needs_chf_or_eur", "must be CHF or EUR for the QR-bill", "muss für die QR-Rechnung CHF oder EUR sein";
    /// "give a company, a deal or a project"
    GIVE_COMPANY_DEAL_OR_PROJECT = "give_company_deal_or_project", "give a company, a deal or a project", "eine Firma, einen Deal oder ein Projekt angeben";
    /// "must have at least one level"
    MUST_HAVE_AT_LEAST_ONE_LEVEL = "must_have_at_least_one_level", "must have at least one level", "muss mindestens eine Mahnstufe haben";
    /// "must have at least one row"
    MUST_HAVE_AT_LEAST_ONE_ROW = "must_have_at_least_one_row", "must have at least one row", "muss mindestens eine Zeile haben";
    /// "must have at most 200 rows"
    MUST_HAVE_AT_MOST_200_ROWS = "must_have_at_most_200_rows", "must have at most 200 rows", "darf höchstens 200 Zeilen haben";
    /// "must be later than the row before (rows in date order, each date once)"
    MUST_BE_LATER_THAN_ROW_BEFORE = "must_be_later_than_row_before", "must be later than the row before (rows in date order, each date once)", "muss nach der Zeile davor liegen (Zeilen nach Datum, jedes Datum einmal)";
    /// "has nothing open to remind of"
    HAS_NOTHING_OPEN_TO_REMIND_OF = "has_nothing_open_to_remind_of", "has nothing open to remind of", "hat nichts Offenes, an das erinnert werden könnte";
    /// "is too large to compute"
    IS_TOO_LARGE_TO_COMPUTE = "is_too_large_to_compute", "is too large to compute", "ist zu groß zum Berechnen";
    /// "you cannot deactivate yourself"
    YOU_CANNOT_DEACTIVATE_YOURSELF = "you_cannot_deactivate_yourself", "you cannot deactivate yourself", "Sie können sich nicht selbst deaktivieren";
    /// "send needs a default recipient: give the customer (or project) a billing e-mail address"
    SEND_NEEDS_DEFAULT_RECIPIENT = "send_needs_default_recipient", "send needs a default recipient: give the customer (or project) a billing e-mail address", "Versand braucht einen Standardempfänger: beim Kunden (oder Projekt) eine Rechnungs-E-Mail-Adresse hinterlegen";
    /// "is not valid base64"
    IS_NOT_VALID_BASE64 = "is_not_valid_base64", "is not valid base64", "ist kein gültiges Base64";
    /// "takes too long to read (over 10 seconds); Kontor cannot import it"
    TAKES_TOO_LONG_TO_IMPORT = "takes_too_long_to_import", "takes too long to read (over 10 seconds); Kontor cannot import it", "braucht zu lange zum Lesen (über 10 Sekunden); Kontor kann sie nicht importieren";
    /// "is an e-invoice whose amounts are too large or whose totals cannot be booked"
    E_INVOICE_AMOUNTS_TOO_LARGE = "e_invoice_amounts_too_large", "is an e-invoice whose amounts are too large or whose totals cannot be booked", "ist eine E-Rechnung, deren Beträge zu groß sind oder deren Summen sich nicht buchen lassen";
    /// "is the key this request uses; sign out instead, or revoke it with another key"
    IS_KEY_OF_THIS_REQUEST = "is_key_of_this_request", "is the key this request uses; sign out instead, or revoke it with another key", "ist der Schlüssel dieser Anfrage; melden Sie sich stattdessen ab oder widerrufen Sie ihn mit einem anderen Schlüssel";
    /// "the invoice's customer no longer exists"
    INVOICE_CUSTOMER_GONE = "invoice_customer_gone", "the invoice's customer no longer exists", "der Kunde der Rechnung existiert nicht mehr";
    /// "the invoice's payments add up to more than an amount can hold"
    INVOICE_PAYMENTS_TOO_LARGE = "invoice_payments_too_large", "the invoice's payments add up to more than an amount can hold", "die Zahlungen der Rechnung ergeben mehr, als ein Betrag fassen kann";
    /// "was used for another request (another body or path) within 24 hours"
    IDEMPOTENCY_KEY_REUSED = "idempotency_key_reused", "was used for another request (another body or path) within 24 hours", "wurde innerhalb von 24 Stunden für eine andere Anfrage (anderer Inhalt oder Pfad) verwendet";
    /// "must be 1 to 255 printable ASCII characters"
    MUST_BE_1_TO_255_PRINTABLE_ASCII = "must_be_1_to_255_printable_ascii", "must be 1 to 255 printable ASCII characters", "muss aus 1 bis 255 druckbaren ASCII-Zeichen bestehen";
    /// "is larger than 1 MiB"
    IS_LARGER_THAN_1_MIB = "is_larger_than_1_mib", "is larger than 1 MiB", "ist größer als 1 MiB";
    /// "must be a PNG or SVG file (judged by its content)"
    MUST_BE_PNG_OR_SVG = "must_be_png_or_svg", "must be a PNG or SVG file (judged by its content)", "muss eine PNG- oder SVG-Datei sein (nach ihrem Inhalt beurteilt)";
    /// "takes too long to read"
    TAKES_TOO_LONG_TO_READ = "takes_too_long_to_read", "takes too long to read", "braucht zu lange zum Lesen";
    /// "invalid type: {}, expected {}"
    INVALID_TYPE_N_EXPECTED_N = "invalid_type_n_expected_n", "invalid type: {}, expected {}", "ungültiger Typ: {}, erwartet: {}";
    /// "invalid value: {}, expected {}"
    INVALID_VALUE_N_EXPECTED_N = "invalid_value_n_expected_n", "invalid value: {}, expected {}", "ungültiger Wert: {}, erwartet: {}";
    /// "unknown variant {}, expected {}"
    UNKNOWN_VARIANT_N_EXPECTED_N = "unknown_variant_n_expected_n", "unknown variant {}, expected {}", "unbekannter Wert {}, erwartet: {}";
    /// "missing field {}"
    MISSING_FIELD_N = "missing_field_n", "missing field {}", "Feld {} fehlt";
    // Messages that had no German before issue 30.
    /// "must be {}"
    MUST_BE_FORM_N = "must_be_form_n", "must be {}", "muss die Form {} haben";
    /// "{} is not a currency code such as EUR"
    N_IS_NOT_CURRENCY_CODE = "n_is_not_currency_code", "{} is not a currency code such as EUR", "{} ist kein Währungscode wie EUR";
    /// "{} is listed twice"
    N_IS_LISTED_TWICE = "n_is_listed_twice", "{} is listed twice", "{} ist doppelt aufgeführt";
    /// "{} is not one of the account's currencies"
    N_IS_NOT_ACCOUNT_CURRENCY = "n_is_not_account_currency", "{} is not one of the account's currencies", "{} ist keine der Währungen des Kontos";
    /// "must lie in the fiscal year of from ({} to {}): a DATEV batch holds one fiscal year"
    MUST_LIE_IN_FISCAL_YEAR_N_N = "must_lie_in_fiscal_year_n_n", "must lie in the fiscal year of from ({} to {}): a DATEV batch holds one fiscal year", "muss im Geschäftsjahr des Anfangs liegen ({} bis {}): ein DATEV-Stapel umfasst ein Geschäftsjahr";
    /// "must be an account number of 1 to {} digits"
    MUST_BE_ACCOUNT_NUMBER_N_DIGITS = "must_be_account_number_n_digits", "must be an account number of 1 to {} digits", "muss eine Kontonummer mit 1 bis {} Ziffern sein";
    /// "must be one of the account's levels 1–{}"
    MUST_BE_ACCOUNT_LEVEL_N = "must_be_account_level_n", "must be one of the account's levels 1–{}", "muss eine der Mahnstufen des Kontos sein (1–{})";
    /// "the invoice has had the last level ({}) already; give a level to repeat one"
    LAST_LEVEL_REACHED_N = "last_level_reached_n", "the invoice has had the last level ({}) already; give a level to repeat one", "die Rechnung hatte die letzte Stufe ({}) bereits; geben Sie eine Stufe an, um sie zu wiederholen";
    /// "is not overdue on the reminder's date: it is due on {}"
    NOT_OVERDUE_DUE_ON_N = "not_overdue_due_on_n", "is not overdue on the reminder's date: it is due on {}", "ist am Mahndatum nicht überfällig: sie ist am {} fällig";
    /// "is required: the base-rate table has no rate for {}"
    NO_BASE_RATE_FOR_N = "no_base_rate_for_n", "is required: the base-rate table has no rate for {}", "ist erforderlich: die Basiszinstabelle hat keinen Satz für {}";
    /// "must be between {} and {} percent with at most two decimal places"
    MUST_BE_PERCENT_BETWEEN_N_AND_N = "must_be_percent_between_n_and_n", "must be between {} and {} percent with at most two decimal places", "muss zwischen {} und {} Prozent liegen, mit höchstens zwei Nachkommastellen";
    /// "must have at most {} levels"
    MUST_HAVE_AT_MOST_N_LEVELS = "must_have_at_most_n_levels", "must have at most {} levels", "darf höchstens {} Mahnstufen haben";
    /// "must be {} (levels are numbered 1, 2, 3, … in order)"
    MUST_BE_LEVEL_N = "must_be_level_n", "must be {} (levels are numbered 1, 2, 3, … in order)", "muss {} sein (Stufen sind der Reihe nach 1, 2, 3, … nummeriert)";
    /// "has an unknown placeholder {} (known: {})"
    UNKNOWN_PLACEHOLDER_N_KNOWN_N = "unknown_placeholder_n_known_n", "has an unknown placeholder {} (known: {})", "enthält einen unbekannten Platzhalter {} (bekannt: {})";
    /// "must be between {} and {} (exclusive)"
    MUST_BE_BETWEEN_N_AND_N_EXCLUSIVE_ONLY = "must_be_between_n_and_n_exclusive_only", "must be between {} and {} (exclusive)", "muss zwischen {} und {} liegen (ausschließlich)";
    /// "{} must be between {} and {} (exclusive)"
    N_MUST_BE_BETWEEN_N_AND_N_EXCLUSIVE = "n_must_be_between_n_and_n_exclusive", "{} must be between {} and {} (exclusive)", "{} muss zwischen {} und {} liegen (ausschließlich)";
    /// "must be between 0.01 and 999 999 999.99 for the QR-bill"
    QR_BILL_AMOUNT_OUT_OF_RANGE = "qr_bill_amount_out_of_range", "must be between 0.01 and 999 999 999.99 for the QR-bill", "muss für die QR-Rechnung zwischen 0,01 und 999 999 999,99 liegen";
    /// "needs a digit for the QR reference"
    QR_REFERENCE_NEEDS_DIGIT = "qr_reference_needs_digit", "needs a digit for the QR reference", "braucht eine Ziffer für die QR-Referenz";
    /// "has more than 26 digits for the QR reference"
    QR_REFERENCE_TOO_MANY_DIGITS = "qr_reference_too_many_digits", "has more than 26 digits for the QR reference", "hat mehr als 26 Ziffern für die QR-Referenz";
    /// "give quantity and unit price, or a lump-sum net total"
    GIVE_QUANTITY_AND_UNIT_PRICE = "give_quantity_and_unit_price", "give quantity and unit price, or a lump-sum net total", "Menge und Einzelpreis oder einen Pauschalbetrag (netto) angeben";
    /// "has wrong check digits (not a SEPA creditor identifier)"
    CREDITOR_IDENTIFIER_CHECK_DIGITS = "creditor_identifier_check_digits", "has wrong check digits (not a SEPA creditor identifier)", "hat falsche Prüfziffern (keine Gläubiger-Identifikationsnummer)";
    /// "must use only letters A–Z, digits and / - ? : ( ) . , ' + (not {})"
    MUST_USE_SEPA_CHARACTERS_NOT_N = "must_use_sepa_characters_not_n", "must use only letters A–Z, digits and / - ? : ( ) . , ' + (not {})", "darf nur Buchstaben A–Z, Ziffern und / - ? : ( ) . , ' + enthalten (nicht {})";
    /// "must not start or end with / or contain //"
    MUST_NOT_START_OR_END_WITH_SLASH = "must_not_start_or_end_with_slash", "must not start or end with / or contain //", "darf nicht mit / beginnen oder enden und kein // enthalten";
    /// "SVG {}"
    SVG_N = "svg_n", "SVG {}", "SVG {}";
    /// "may list at most {} addresses"
    MAY_LIST_AT_MOST_N_ADDRESSES = "may_list_at_most_n_addresses", "may list at most {} addresses", "darf höchstens {} Adressen enthalten";
    /// "lists {} twice"
    LISTS_N_TWICE = "lists_n_twice", "lists {} twice", "nennt {} doppelt";
    /// "{}: more than one ZIP holds; choose a shorter period"
    MORE_THAN_ONE_ZIP_N = "more_than_one_zip_n", "{}: more than one ZIP holds; choose a shorter period", "{}: mehr, als ein ZIP fasst; wählen Sie einen kürzeren Zeitraum";
    /// "is larger than {} MiB"
    IS_LARGER_THAN_N_MIB = "is_larger_than_n_mib", "is larger than {} MiB", "ist größer als {} MiB";
    /// "must be a {} file (judged by its content)"
    MUST_BE_FILE_OF_KIND_N = "must_be_file_of_kind_n", "must be a {} file (judged by its content)", "muss eine Datei vom Typ {} sein (nach ihrem Inhalt beurteilt)";
    /// "is not an e-invoice (XRechnung or Factur-X/ZUGFeRD): {}"
    NOT_AN_E_INVOICE_N = "not_an_e_invoice_n", "is not an e-invoice (XRechnung or Factur-X/ZUGFeRD): {}", "ist keine E-Rechnung (XRechnung oder Factur-X/ZUGFeRD): {}";
    /// "must name 1–{} invoices, each once"
    MUST_NAME_1_TO_N_INVOICES = "must_name_1_to_n_invoices", "must name 1–{} invoices, each once", "muss 1–{} Rechnungen nennen, jede einmal";
    /// "is a reversal invoice; it cannot be reminded of"
    IS_REVERSAL_NO_REMINDERS = "is_reversal_no_reminders", "is a reversal invoice; it cannot be reminded of", "ist eine Stornorechnung; sie kann nicht gemahnt werden";
    /// "has been reversed; it cannot be reminded of"
    IS_REVERSED_NO_REMINDERS = "is_reversed_no_reminders", "has been reversed; it cannot be reminded of", "wurde storniert; sie kann nicht gemahnt werden";
    /// "is {} × {} pixels; an image may be at most {} pixels wide and high (scale it down)"
    IMAGE_TOO_LARGE_N_N_N = "image_too_large_n_n_n", "is {} × {} pixels; an image may be at most {} pixels wide and high (scale it down)", "hat {} × {} Pixel; ein Bild darf höchstens {} Pixel breit und hoch sein (bitte verkleinern)";
    /// "is an image whose header cannot be read"
    IMAGE_HEADER_UNREADABLE = "image_header_unreadable", "is an image whose header cannot be read", "ist ein Bild, dessen Kopfdaten sich nicht lesen lassen";
    /// "An invoice that is {} cannot be moved to {}."
    INVOICE_CANNOT_MOVE_N_N = "invoice_cannot_move_n_n", "An invoice that is {} cannot be moved to {}.", "Eine Rechnung im Status „{}“ kann nicht auf „{}“ gesetzt werden.";
    /// "was imported before (purchase {})"
    WAS_IMPORTED_BEFORE_N = "was_imported_before_n", "was imported before (purchase {})", "wurde bereits importiert (Eingangsrechnung {})";
    /// "has too many digits"
    HAS_TOO_MANY_DIGITS = "has_too_many_digits", "has too many digits", "hat zu viele Ziffern";
    // Refusals: a state rule refuses a request (422 without a field, `ApiError::Refused`).
    /// "This reminder was sent; a sent reminder stays on record."
    REMINDER_SENT_STAYS = "reminder_sent_stays", "This reminder was sent; a sent reminder stays on record.", "Diese Mahnung wurde versendet; eine versendete Mahnung bleibt erhalten.";
    /// "An approved purchase cannot be edited; move it back to pending first."
    PURCHASE_APPROVED_NOT_EDITABLE = "purchase_approved_not_editable", "An approved purchase cannot be edited; move it back to pending first.", "Ein freigegebener Beleg kann nicht bearbeitet werden; heben Sie zuerst die Freigabe auf.";
    /// "An approved purchase cannot be deleted; move it back to pending first."
    PURCHASE_APPROVED_NOT_DELETABLE = "purchase_approved_not_deletable", "An approved purchase cannot be deleted; move it back to pending first.", "Ein freigegebener Beleg kann nicht gelöscht werden; heben Sie zuerst die Freigabe auf.";
    /// "A purchase with payments cannot be deleted."
    PURCHASE_WITH_PAYMENTS_NOT_DELETABLE = "purchase_with_payments_not_deletable", "A purchase with payments cannot be deleted.", "Ein Beleg mit Zahlungen kann nicht gelöscht werden.";
    /// "{} has {}; archive it instead" (the company, what refers to it: "3 invoices, 1 project")
    COMPANY_HAS_N_ARCHIVE_INSTEAD = "company_has_n_archive_instead", "{} has {}; archive it instead", "{} hat {}; archivieren Sie die Firma stattdessen";
    /// "{} is still referenced; archive it instead"
    COMPANY_STILL_REFERENCED = "company_still_referenced", "{} is still referenced; archive it instead", "{} wird noch verwendet; archivieren Sie die Firma stattdessen";
    /// "is already the number of {}" (a debtor or creditor number another company has;
    /// issue 31)
    ACCOUNT_NUMBER_TAKEN_BY_N = "account_number_taken_by_n", "is already the number of {}", "ist bereits die Nummer von {}";
    /// "is already another company's number" (the same, when the name is not known)
    ACCOUNT_NUMBER_TAKEN = "account_number_taken", "is already another company's number", "ist bereits die Nummer einer anderen Firma";
    /// "is already the number of the article {}" (an article number another article has,
    /// regardless of case; issue 33)
    ARTICLE_NUMBER_TAKEN_BY_N = "article_number_taken_by_n", "is already the number of the article {}", "ist bereits die Nummer des Artikels {}";
    /// "is already another article's number" (the same, when the title is not known)
    ARTICLE_NUMBER_TAKEN = "article_number_taken", "is already another article's number", "ist bereits die Nummer eines anderen Artikels";
    /// "{} is the contact of 1 offer"
    PERSON_CONTACT_OF_ONE_OFFER = "person_contact_of_one_offer", "{} is the contact of 1 offer", "{} ist Ansprechpartner eines Angebots";
    /// "{} is the contact of {} offers"
    PERSON_CONTACT_OF_N_OFFERS = "person_contact_of_n_offers", "{} is the contact of {} offers", "{} ist Ansprechpartner von {} Angeboten";
    /// "{} is still referenced"
    PERSON_STILL_REFERENCED = "person_still_referenced", "{} is still referenced", "{} wird noch verwendet";
    /// "The invoice cannot be written as an e-invoice."
    INVOICE_NOT_E_INVOICE = "invoice_not_e_invoice", "The invoice cannot be written as an e-invoice.", "Die Rechnung kann nicht als E-Rechnung geschrieben werden.";
    /// "This invoice has already been reversed."
    INVOICE_ALREADY_REVERSED = "invoice_already_reversed", "This invoice has already been reversed.", "Diese Rechnung wurde bereits storniert.";
    /// "Only item positions of the invoice can be credited."
    CREDIT_NOTE_NOT_AN_ITEM = "credit_note_not_an_item", "is not an item position of this invoice", "ist keine Position dieser Rechnung mit Betrag";
    /// "is credited twice in this credit note"
    CREDIT_NOTE_POSITION_TWICE = "credit_note_position_twice", "is credited twice in this credit note", "wird in dieser Rechnungskorrektur zweimal gutgeschrieben";
    /// "must be more than 0 and at most the position's quantity {}"
    CREDIT_NOTE_QUANTITY = "credit_note_quantity", "must be more than 0 and at most the position's quantity {}", "muss größer als 0 und höchstens die Menge der Position ({}) sein";
    /// "cannot be given for a lump-sum position (it is credited in full)"
    CREDIT_NOTE_LUMP_SUM_QUANTITY = "credit_note_lump_sum_quantity", "cannot be given for a lump-sum position (it is credited in full)", "ist bei einer Pauschalposition nicht möglich (sie wird ganz gutgeschrieben)";
    /// "must name a position ({id}) or be a free position ({type: item, title, quantity, unit_price})"
    CREDIT_NOTE_ITEM_SHAPE = "credit_note_item_shape", "must name a position (id) or be a free position (type item, title, quantity, unit_price)", "muss eine Position (id) nennen oder eine freie Position sein (type item, title, quantity, unit_price)";
    /// "The credit notes of an invoice cannot exceed its gross total; {} is left to credit."
    CREDIT_NOTE_TOO_LARGE = "credit_note_too_large", "The credit notes of an invoice cannot exceed its gross total; {} is left to credit.", "Rechnungskorrekturen dürfen den Bruttobetrag der Rechnung nicht übersteigen; gutschreibbar sind noch {}.";
    /// "A credit note must credit an amount."
    CREDIT_NOTE_EMPTY = "credit_note_empty", "must credit an amount", "muss einen Betrag gutschreiben";
    /// "is not a down-payment invoice"
    NOT_A_DOWN_PAYMENT = "not_a_down_payment", "is not a down-payment invoice", "ist keine Abschlagsrechnung";
    /// "is a draft; finalize the down payment first"
    DOWN_PAYMENT_IS_DRAFT = "down_payment_is_draft", "is a draft; finalize the down payment first", "ist ein Entwurf; stellen Sie die Abschlagsrechnung zuerst fertig";
    /// "was reversed"
    DOWN_PAYMENT_REVERSED = "down_payment_reversed", "was reversed", "wurde storniert";
    /// "belongs to another customer"
    DOWN_PAYMENT_OTHER_CUSTOMER = "down_payment_other_customer", "belongs to another customer", "gehört zu einem anderen Kunden";
    /// "is in another currency"
    DOWN_PAYMENT_OTHER_CURRENCY = "down_payment_other_currency", "is in another currency", "lautet auf eine andere Währung";
    /// "is already deducted by another final invoice"
    DOWN_PAYMENT_ALREADY_DEDUCTED = "down_payment_already_deducted", "is already deducted by another final invoice", "wird bereits in einer anderen Schlussrechnung abgezogen";
    /// "is named twice"
    NAMED_TWICE = "named_twice", "is named twice", "ist doppelt genannt";
    /// "only a final invoice deducts down payments"
    ONLY_FINAL_DEDUCTS = "only_final_deducts", "only a final invoice deducts down payments", "nur eine Schlussrechnung zieht Abschlagsrechnungen ab";
    /// "The down payments exceed this invoice at {}; they would leave a negative amount."
    DEDUCTIONS_TOO_LARGE = "deductions_too_large", "The down payments exceed this invoice at {}; they would leave a negative amount.", "Die Abschlagsrechnungen übersteigen diese Rechnung bei {}; es bliebe ein negativer Betrag.";
    /// "This down payment is deducted by a final invoice; reverse that one first."
    DEDUCTED_NOT_REVERSIBLE = "deducted_not_reversible", "This down payment is deducted by a final invoice; reverse that one first.", "Diese Abschlagsrechnung wird in einer Schlussrechnung abgezogen; stornieren Sie zuerst diese.";
    /// "A draft cannot be credited; edit it instead."
    DRAFT_NOT_CREDITABLE = "draft_not_creditable", "A draft cannot be credited; edit it instead.", "Ein Entwurf kann nicht korrigiert werden; bearbeiten Sie ihn stattdessen.";
    /// "A reversal invoice or a credit note cannot be credited."
    CORRECTION_NOT_CREDITABLE = "correction_not_creditable", "A reversal invoice or a credit note cannot be credited.", "Eine Stornorechnung oder Rechnungskorrektur kann nicht korrigiert werden.";
    /// "A reversed invoice cannot be credited."
    REVERSED_NOT_CREDITABLE = "reversed_not_creditable", "A reversed invoice cannot be credited.", "Eine stornierte Rechnung kann nicht korrigiert werden.";
    /// "This message is being sent again right now; look at the list in a moment."
    EMAIL_RESEND_RUNNING = "email_resend_running", "This message is being sent again right now; look at the list in a moment.", "Diese Nachricht wird gerade erneut gesendet; sehen Sie gleich in der Liste nach.";
    /// "This message was not kept, so it cannot be sent again."
    EMAIL_NOT_RESENDABLE = "email_not_resendable", "This message was not kept (it carried a password link, or it is not about a document), so it cannot be sent again.", "Diese Nachricht wurde nicht aufbewahrt (sie enthielt einen Passwort-Link oder betrifft keinen Beleg) und kann nicht erneut gesendet werden.";
    /// The 502 of a mail server that cannot be reached or speaks no SMTP (issue 29).
    MAIL_SERVER_UNREACHABLE = "mail_server_unreachable", "The mail server could not be reached or did not answer as a mail server. Nothing was marked as sent.", "Der Mailserver war nicht erreichbar oder antwortete nicht wie ein Mailserver. Nichts wurde als gesendet markiert.";
    /// The 502 of a mail server that refused the message for good.
    MAIL_SERVER_REFUSED = "mail_server_refused", "The mail server refused the message (check the SMTP login, the sender and the recipients). Nothing was marked as sent.", "Der Mailserver hat die Nachricht abgelehnt (prüfen Sie SMTP-Anmeldung, Absender und Empfänger). Nichts wurde als gesendet markiert.";
    /// The 502 of a mail server that asked to try later.
    MAIL_SERVER_LATER = "mail_server_later", "The mail server did not accept the message right now; try again later. Nothing was marked as sent.", "Der Mailserver hat die Nachricht gerade nicht angenommen; versuchen Sie es später erneut. Nichts wurde als gesendet markiert.";
    /// "A credit note cannot be reversed."
    CREDIT_NOTE_NOT_REVERSIBLE = "credit_note_not_reversible", "A credit note cannot be reversed.", "Eine Rechnungskorrektur kann nicht storniert werden.";
    /// "This invoice has credit notes; credit what is left instead of reversing it."
    CREDITED_NOT_REVERSIBLE = "credited_not_reversible", "This invoice has credit notes; credit what is left instead of reversing it.", "Zu dieser Rechnung gibt es Rechnungskorrekturen; korrigieren Sie den Rest, statt sie zu stornieren.";
    /// "A draft cannot be reversed; delete it instead."
    DRAFT_NOT_REVERSIBLE = "draft_not_reversible", "A draft cannot be reversed; delete it instead.", "Ein Entwurf kann nicht storniert werden; löschen Sie ihn stattdessen.";
    /// "A reversal invoice cannot be reversed."
    REVERSAL_NOT_REVERSIBLE = "reversal_not_reversible", "A reversal invoice cannot be reversed.", "Eine Stornorechnung kann nicht storniert werden.";
    /// "Only draft invoices can be edited; this one is final."
    INVOICE_FINAL_NOT_EDITABLE = "invoice_final_not_editable", "Only draft invoices can be edited; this one is final.", "Nur Entwürfe lassen sich bearbeiten; diese Rechnung ist abgeschlossen.";
    /// "A draft cannot be sent; finalize it first."
    DRAFT_NOT_SENDABLE = "draft_not_sendable", "A draft cannot be sent; finalize it first.", "Ein Entwurf kann nicht versendet werden; schließen Sie ihn zuerst ab.";
    /// "A reversal invoice cannot be deleted: it belongs to the books with the invoice it reverses."
    REVERSAL_NOT_DELETABLE = "reversal_not_deletable", "A reversal invoice or credit note cannot be deleted: it belongs to the books with the invoice it corrects.", "Eine Stornorechnung oder Rechnungskorrektur kann nicht gelöscht werden: Sie gehört mit der korrigierten Rechnung zur Buchführung.";
    /// "A reversed invoice cannot be deleted: it belongs to the books with its reversal."
    REVERSED_NOT_DELETABLE = "reversed_not_deletable", "A reversed or credited invoice cannot be deleted: it belongs to the books with its reversal or credit notes.", "Eine stornierte oder korrigierte Rechnung kann nicht gelöscht werden: Sie gehört mit ihrer Stornorechnung oder ihren Rechnungskorrekturen zur Buchführung.";
    /// "A locked invoice cannot be deleted; reverse it instead."
    LOCKED_NOT_DELETABLE = "locked_not_deletable", "A locked invoice cannot be deleted; reverse it instead.", "Eine gesperrte Rechnung kann nicht gelöscht werden; stornieren Sie sie stattdessen.";
    /// "This account does not allow deleting finalized invoices; reverse it instead."
    FINALIZED_DELETION_NEVER = "finalized_deletion_never", "This account does not allow deleting finalized invoices; reverse it instead.", "Dieses Konto erlaubt nicht, abgeschlossene Rechnungen zu löschen; stornieren Sie die Rechnung stattdessen.";
    /// "Only an admin may delete a finalized invoice."
    FINALIZED_DELETION_ADMIN_ONLY = "finalized_deletion_admin_only", "Only an admin may delete a finalized invoice.", "Nur ein Administrator darf eine abgeschlossene Rechnung löschen.";
    /// "A reason is required to delete an invoice that is not a draft."
    DELETION_REASON_REQUIRED = "deletion_reason_required", "A reason is required to delete an invoice that is not a draft.", "Um eine Rechnung zu löschen, die kein Entwurf ist, ist eine Begründung erforderlich.";
    /// "The invoice changed meanwhile (sent, paid or reversed); it was not deleted."
    INVOICE_CHANGED_NOT_DELETED = "invoice_changed_not_deleted", "The invoice changed meanwhile (sent, paid or reversed); it was not deleted.", "Die Rechnung wurde inzwischen geändert (versendet, bezahlt oder storniert); sie wurde nicht gelöscht.";
    /// "Only created or sent offers can be edited; this one is accepted, billed or archived."
    OFFER_NOT_EDITABLE = "offer_not_editable", "Only created or sent offers can be edited; this one is accepted, billed or archived.", "Nur offene oder versendete Angebote lassen sich bearbeiten; dieses ist angenommen, abgerechnet oder archiviert.";
    /// "Only offers that were never sent can be deleted; archive this one instead."
    OFFER_NOT_DELETABLE = "offer_not_deletable", "Only offers that were never sent can be deleted; archive this one instead.", "Nur nie versendete Angebote lassen sich löschen; archivieren Sie dieses stattdessen.";
    /// "An invoice refers to this offer; it cannot be deleted."
    OFFER_INVOICED_NOT_DELETABLE = "offer_invoiced_not_deletable", "An invoice refers to this offer; it cannot be deleted.", "Eine Rechnung bezieht sich auf dieses Angebot; es kann nicht gelöscht werden.";
    /// "must be accepted"
    MUST_BE_ACCEPTED = "must_be_accepted", "must be accepted", "muss akzeptiert werden";
    /// "must be a PNG image as a data URL (data:image/png;base64,…)"
    MUST_BE_PNG_DATA_URL = "must_be_png_data_url", "must be a PNG image as a data URL (data:image/png;base64,…)", "muss ein PNG-Bild als Data-URL sein (data:image/png;base64,…)";
    /// "names {}, which is no optional position of this offer"
    IS_NO_OPTIONAL_POSITION_N = "is_no_optional_position_n", "names {}, which is no optional position of this offer", "nennt {}, keine optionale Position dieses Angebots";
    /// "is not a PNG image"
    IS_NOT_PNG = "is_not_png", "is not a PNG image", "ist kein PNG-Bild";
    /// "must be at most {} bytes"
    MUST_BE_AT_MOST_N_BYTES = "must_be_at_most_n_bytes", "must be at most {} bytes", "darf höchstens {} Bytes groß sein";
    /// "This offer has already been billed; it can no longer be signed."
    OFFER_ALREADY_BILLED = "offer_already_billed", "This offer has already been billed; it can no longer be signed.", "Dieses Angebot wurde bereits abgerechnet; es kann nicht mehr unterschrieben werden.";
    /// "This offer has been archived; it can no longer be signed."
    OFFER_ARCHIVED = "offer_archived", "This offer has been archived; it can no longer be signed.", "Dieses Angebot wurde archiviert; es kann nicht mehr unterschrieben werden.";
    /// "This offer has already been accepted."
    OFFER_ALREADY_ACCEPTED = "offer_already_accepted", "This offer has already been accepted.", "Dieses Angebot wurde bereits angenommen.";
    /// "This offer has expired; please ask for a new one."
    OFFER_EXPIRED = "offer_expired", "This offer has expired; please ask for a new one.", "Dieses Angebot ist abgelaufen; bitte fragen Sie ein neues an.";
    /// "This offer has already been signed."
    OFFER_ALREADY_SIGNED = "offer_already_signed", "This offer has already been signed.", "Dieses Angebot wurde bereits unterschrieben.";
    /// "This offer has already been declined."
    OFFER_ALREADY_DECLINED = "offer_already_declined", "This offer has already been declined.", "Dieses Angebot wurde bereits abgelehnt.";
    /// "names the approval link, but the server's public address is not known (set KONTOR_PUBLIC_URL)"
    APPROVAL_LINK_NEEDS_PUBLIC_URL = "approval_link_needs_public_url", "names the approval link, but the server's public address is not known (set KONTOR_PUBLIC_URL)", "nennt den Freigabe-Link, aber die öffentliche Adresse des Servers ist nicht bekannt (KONTOR_PUBLIC_URL setzen)";
    /// "Online approval is not activated for this offer."
    APPROVAL_NOT_ACTIVATED = "approval_not_activated", "Online approval is not activated for this offer.", "Die Online-Freigabe ist für dieses Angebot nicht aktiviert.";
    /// "Only an accepted or partially billed offer can have an order confirmation."
    OFFER_NOT_ACCEPTED_FOR_CONFIRMATION = "offer_not_accepted_for_confirmation", "Only an accepted or partially billed offer can have an order confirmation.", "Nur ein angenommenes oder teilweise abgerechnetes Angebot kann eine Auftragsbestätigung erhalten.";
    /// "The account has no e-mail address to send from; set one in Settings."
    ACCOUNT_HAS_NO_E_MAIL = "account_has_no_e_mail", "The account has no e-mail address to send from; set one in Settings.", "Das Konto hat keine Absenderadresse; tragen Sie eine in den Einstellungen ein.";
    /// "is not one of unmatched, suggested, matched, ignored"
    IS_NOT_TRANSACTION_STATE = "is_not_transaction_state", "is not one of unmatched, suggested, matched, ignored", "ist keiner von unmatched, suggested, matched, ignored";
    /// "names neither an invoice nor a purchase (or both)"
    NAMES_NO_DOCUMENT = "names_no_document", "must name exactly one of invoice_id and purchase_id", "muss genau eines von invoice_id und purchase_id nennen";
    /// "is not a bank statement: {}"
    NOT_A_BANK_STATEMENT_N = "not_a_bank_statement_n", "is not a bank statement (camt.052/053/054, MT940 or a ZIP of them): {}", "ist kein Kontoauszug (camt.052/053/054, MT940 oder ein ZIP davon): {}";
    /// "is too large: {}"
    STATEMENT_TOO_LARGE_N = "statement_too_large_n", "is too large: {}", "ist zu groß: {}";
    /// "a credit (money in) pays invoices only"
    BANK_CREDIT_PAYS_INVOICES = "bank_credit_pays_invoices", "a credit (money in) pays invoices only", "eine Gutschrift (Geldeingang) bezahlt nur Rechnungen";
    /// "a debit (money out) pays purchases only"
    BANK_DEBIT_PAYS_PURCHASES = "bank_debit_pays_purchases", "a debit (money out) pays purchases only", "eine Lastschrift (Geldausgang) bezahlt nur Ausgaben";
    /// "is in another currency than the transaction"
    BANK_OTHER_CURRENCY = "bank_other_currency", "is in another currency than the transaction", "hat eine andere Währung als die Buchung";
    /// "is more than is open"
    BANK_MORE_THAN_OPEN = "bank_more_than_open", "is more than is open", "ist mehr als offen ist";
    /// "add up to more than the transaction"
    BANK_MORE_THAN_TRANSFER = "bank_more_than_transfer", "add up to more than the transaction, or an amount is not above 0", "ergeben mehr als die Buchung, oder ein Betrag ist nicht größer als 0";
    /// "Only an unmatched or suggested transaction can be matched or ignored."
    BANK_TRANSACTION_DONE = "bank_transaction_done", "The transaction is already matched or ignored.", "Die Buchung ist bereits zugeordnet oder ignoriert.";
    /// "A statement with matched transactions cannot be deleted."
    BANK_STATEMENT_MATCHED = "bank_statement_matched", "A statement with matched transactions cannot be deleted; undo the matches first.", "Ein Auszug mit zugeordneten Buchungen kann nicht gelöscht werden; heben Sie die Zuordnungen zuerst auf.";
    /// "Not found: {}." — the parameter names the record ("invoice 7"); its German names
    /// it in German ("Rechnung 7", `crate::error_text::record_german`). A 404 (issue 34).
    NOT_FOUND_N = "not_found_n", "Not found: {}.", "Nicht gefunden: {}.";
    /// "This needs the {} role; you are {}." — the parameters are role names (`admin`,
    /// `staff`, `read_only`), put into German too (`crate::error_text::role_german`). A 403.
    ROLE_NEEDED_N_N = "role_needed_n_n", "This needs the {} role; you are {}.", "Dafür ist die Rolle „{}“ nötig; Ihre Rolle ist „{}“.";
    /// "This API key is read-only." A 403.
    API_KEY_READ_ONLY = "api_key_read_only", "This API key is read-only.", "Dieser API-Schlüssel darf nur lesen.";
    /// "This file link is invalid or has expired." A 403.
    FILE_LINK_INVALID = "file_link_invalid", "This file link is invalid or has expired.", "Dieser Dateilink ist ungültig oder abgelaufen.";
    /// "Method not allowed on this path." A 405.
    METHOD_NOT_ALLOWED = "method_not_allowed", "Method not allowed on this path.", "Diese Methode ist für diese Adresse nicht erlaubt.";
    /// "Request body larger than {} bytes." A 413.
    BODY_LARGER_THAN_N_BYTES = "body_larger_than_n_bytes", "Request body larger than {} bytes.", "Die Anfrage ist größer als {} Bytes.";
    /// "The request body must be sent as {}." A 415.
    BODY_MUST_BE_SENT_AS_N = "body_must_be_sent_as_n", "The request body must be sent as {}.", "Der Inhalt der Anfrage muss als {} gesendet werden.";
    /// "The {} is not available right now; …" — the parameter is `database` or `file store`
    /// (put into German too). A 503.
    UNAVAILABLE_N_N = "unavailable_n_n", "The {} is not available right now; nothing was changed. Try again in {} seconds.", "{} ist gerade nicht erreichbar; nichts wurde geändert. Bitte in {} Sekunden erneut versuchen.";
    /// "Kontor is busy {} right now; …" — the parameter names the work. A 503.
    BUSY_N_N = "busy_n_n", "Kontor is busy {} right now; nothing was changed. Try again in {} seconds.", "Kontor ist gerade ausgelastet ({}); nichts wurde geändert. Bitte in {} Sekunden erneut versuchen.";
    /// An inbox message's reason (issue 36): a plain PDF became a purchase to complete.
    INBOX_PDF_TO_COMPLETE = "inbox_pdf_to_complete", "A PDF without e-invoice data became a purchase to be completed.", "Ein PDF ohne E-Rechnungsdaten wurde zu einem Beleg, der noch vervollständigt werden muss.";
    /// An inbox message's reason (issue 36): nothing to read in it.
    INBOX_NO_DOCUMENTS = "inbox_no_documents", "The message has no PDF, XML or ZIP attachment.", "Die Nachricht hat keinen PDF-, XML- oder ZIP-Anhang.";
    /// An inbox message's reason (issue 36): too large to read (the limit in MiB).
    INBOX_MESSAGE_TOO_LARGE_N = "inbox_message_too_large_n", "The message is larger than {} MiB and was not read; please file its documents by hand.", "Die Nachricht ist größer als {} MiB und wurde nicht gelesen; bitte legen Sie ihre Belege von Hand ab.";
    /// An inbox message's reason (issue 36): a document became a purchase whose e-invoice
    /// has a content defect (the attachment, the rules).
    INBOX_CONTENT_DEFECT_N_N = "inbox_content_defect_n_n", "{}: the e-invoice has a content defect ({}); ask for a corrected invoice before deducting input VAT.", "{}: Die E-Rechnung hat einen inhaltlichen Fehler ({}); fordern Sie eine berichtigte Rechnung an, bevor Sie die Vorsteuer abziehen.";
    /// An inbox message's reason (issue 36): a document became a purchase but is no valid
    /// e-invoice (a formal defect; the attachment, the rules).
    INBOX_FORMAL_DEFECT_N_N = "inbox_formal_defect_n_n", "{}: the document is not a valid e-invoice ({}); ask for a corrected invoice.", "{}: Das Dokument ist keine gültige E-Rechnung ({}); fordern Sie eine berichtigte Rechnung an.";
    /// Approving a purchase whose e-invoice has a formal or content defect without an
    /// override reason (issue 36). A 422 on `status`.
    EINVOICE_DEFECT_HOLDS_APPROVAL = "einvoice_defect_holds_approval", "cannot be approved: the e-invoice has a formal or content defect. Ask for a corrected invoice, or an admin approves it giving a reason (override_reason)", "kann nicht freigegeben werden: Die E-Rechnung hat einen formalen oder inhaltlichen Fehler. Fordern Sie eine berichtigte Rechnung an, oder ein Admin gibt sie mit Begründung frei (override_reason)";
    /// A non-admin gave an override reason (issue 36). A 403.
    EINVOICE_OVERRIDE_ADMIN_ONLY = "einvoice_override_admin_only", "Only an admin can approve a purchase whose e-invoice has a formal or content defect.", "Nur ein Admin kann einen Beleg freigeben, dessen E-Rechnung einen formalen oder inhaltlichen Fehler hat.";
    /// A correction request for a purchase without findings (issue 36). A 422.
    EINVOICE_NOTHING_TO_CORRECT = "einvoice_nothing_to_correct", "This purchase has no e-invoice findings; there is nothing to ask the seller to correct.", "Dieser Beleg hat keine Befunde zur E-Rechnung; es gibt nichts, was der Verkäufer berichtigen müsste.";
    /// A correction request without a known address (issue 36). A 422 on `to`.
    EINVOICE_NO_REPLY_ADDRESS = "einvoice_no_reply_address", "is required: the e-invoice names no seller e-mail and it did not come by mail", "ist erforderlich: Die E-Rechnung nennt keine E-Mail-Adresse des Verkäufers und kam nicht per E-Mail";
    /// "The inbox is not set up: …" (POST /inbox/poll and /inbox/test, issue 36). A 422.
    INBOX_NOT_SET_UP = "inbox_not_set_up", "The inbox is not set up: Settings → Inbox needs a server and a user.", "Der Posteingang ist nicht eingerichtet: Unter Einstellungen → Posteingang fehlen Server und Benutzer.";
    /// "Internal error." A 500.
    INTERNAL_ERROR = "internal_error", "Internal error.", "Interner Fehler.";
}

impl Message {
    /// The message of the entry named `code` with `params`, as a client reads it from a
    /// body's `error_codes`; `None` for a code this build does not know.
    pub fn from_code(code: &str, params: Vec<String>) -> Option<Self> {
        if code == VERBATIM {
            return params.first().map(|p| Message::verbatim(p.clone()));
        }
        ALL.iter()
            .find(|t| t.code == code)
            .map(|t| Message::new(*t, params))
    }

    /// The message whose English text is `text`, for words that passed through a library
    /// that carries only strings (serde's error of a custom deserializer, or serde's own
    /// "invalid type: …, expected …"): an entry without parameters whose text is `text`,
    /// else an entry with parameters whose text matches it (`{}` matching any non-empty
    /// text, shortest first), else [`Message::verbatim`].
    pub fn from_english(text: &str) -> Self {
        if let Some(entry) = ALL.iter().find(|t| t.param_count() == 0 && t.en == text) {
            return Message::from(*entry);
        }
        ALL.iter()
            .filter(|t| t.param_count() > 0)
            .find_map(|t| captures(t.en, text).map(|params| Message::new(*t, params)))
            .unwrap_or_else(|| Message::verbatim(text))
    }
}

/// The texts standing for the `{}`s of `pattern` in `message`, or `None` when it does not
/// match.
fn captures(pattern: &str, message: &str) -> Option<Vec<String>> {
    let parts: Vec<&str> = pattern.split("{}").collect();
    let (first, rest) = parts.split_first()?;
    let mut tail = message.strip_prefix(first)?;
    let mut found = Vec::new();
    for (i, literal) in rest.iter().enumerate() {
        if i + 1 == rest.len() {
            found.push(tail.strip_suffix(literal)?.to_string());
            tail = "";
        } else {
            let at = tail.find(literal).filter(|_| !literal.is_empty())?;
            found.push(tail[..at].to_string());
            tail = &tail[at + literal.len()..];
        }
    }
    (tail.is_empty() && found.iter().all(|c| !c.is_empty())).then_some(found)
}

#[cfg(test)]
mod tests;
