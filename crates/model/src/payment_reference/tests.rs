use super::*;

#[test]
fn the_reference_has_iso_11649_check_digits() {
    // ISO 11649's own example.
    assert_eq!(
        payment_reference("539007547034").as_deref(),
        Some("RF18539007547034")
    );
    assert!(is_valid("RF18 5390 0754 7034"));
    assert!(!is_valid("RF19 5390 0754 7034"), "a wrong check digit");
    assert!(!is_valid("RF18"), "no body");
    assert!(!is_valid("XX18539007547034"));
    let r = payment_reference("R2611-001").unwrap();
    assert_eq!(r, "RF38R2611001");
    assert!(is_valid(&r));
    assert_eq!(printed(&r), "RF38 R261 1001");
}

#[test]
fn every_number_with_a_letter_or_digit_gets_one_and_long_ones_keep_their_end() {
    assert_eq!(payment_reference("--"), None);
    assert_eq!(payment_reference(""), None);
    let long = format!("{}-0042", "A".repeat(30));
    let r = payment_reference(&long).unwrap();
    assert_eq!(r.len(), 4 + MAX_BODY);
    assert!(r.ends_with("AAAAAAAAAAAAAAAAA0042"), "{r}");
    assert!(is_valid(&r));
    // Lower case and separators fold.
    assert_eq!(
        payment_reference("r2611/001"),
        payment_reference("R2611-001")
    );
}

#[test]
fn references_are_found_in_a_transfers_text() {
    assert_eq!(find_in("Rechnung RF38 R261 1001 danke"), ["RF38R2611001"]);
    assert_eq!(find_in("rf38r2611001"), ["RF38R2611001"]);
    assert_eq!(
        find_in("SVWZ+RF18539007547034 EREF+X"),
        ["RF18539007547034"],
        "after a SEPA field tag"
    );
    assert!(
        find_in("XRF18539007547034").is_empty(),
        "glued to a word before"
    );
    assert_eq!(find_in("EREF: x RF18539007547034"), ["RF18539007547034"]);
    assert!(
        find_in("RF19 5390 0754 7034").is_empty(),
        "an invalid check digit is no reference"
    );
    assert!(find_in("PERFORMANCE").is_empty());
}

#[test]
fn the_e_mail_placeholder_is_filled_with_the_printed_reference() {
    assert_eq!(
        fill_placeholder(
            "Bitte mit {payment_reference} überweisen",
            Some("RF38R2611001")
        ),
        "Bitte mit RF38 R261 1001 überweisen"
    );
    assert_eq!(
        fill_placeholder("Ref: {payment_reference}.", None),
        "Ref: ."
    );
    assert_eq!(
        fill_placeholder("no placeholder", Some("RF38R2611001")),
        "no placeholder"
    );
}
