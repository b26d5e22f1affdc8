//! The CII and UBL writers against the official rules: every invoice shape Kontor issues
//! (single rate, 19 % + 7 %, discount as allowances, reverse charge, intra-EU, zero rated,
//! exempt, export, S + E, credit note, JPY, CHF, direct debit, Skonto, 1,000 lines,
//! prepaid, a charge) is built by hand as a `semantic::Invoice`, written in both syntaxes
//! as XRechnung (and a few as plain EN 16931), and all files go through
//! `../shared/einvoice/validate.py` in one run.

#[path = "support/validate.rs"]
mod validate;

use std::collections::BTreeMap;
use std::path::PathBuf;
use std::str::FromStr;

use chrono::NaiveDate;
use kontor_einvoice::semantic::*;
use kontor_einvoice::{cii, ubl};
use rust_decimal::{Decimal, RoundingStrategy};

fn dec(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn day(y: i32, m: u32, d: u32) -> NaiveDate {
    NaiveDate::from_ymd_opt(y, m, d).unwrap()
}

fn seller() -> Party {
    Party {
        name: "Muster Software GmbH".into(),
        trading_name: None,
        identifier: None,
        legal_registration: Some("HRB 123456".into()),
        vat_identifier: Some("DE123456789".into()),
        tax_number: Some("123/456/78901".into()),
        additional_legal_information: Some(
            "Amtsgericht Berlin, Geschäftsführer: Erika Muster".into(),
        ),
        electronic_address: Some(ElectronicAddress {
            value: "rechnung@muster.example".into(),
            scheme: "EM".into(),
        }),
        address: Address {
            lines: vec!["Hauptstraße 1".into()],
            city: Some("Berlin".into()),
            post_code: Some("10115".into()),
            subdivision: None,
            country_code: "DE".into(),
        },
        contact: Some(Contact {
            name: Some("Erika Muster".into()),
            phone: Some("+49 30 1234567".into()),
            email: Some("erika@muster.example".into()),
        }),
    }
}

fn buyer() -> Party {
    Party {
        name: "Kunde & Co. KG".into(),
        trading_name: None,
        identifier: Some("42".into()),
        legal_registration: None,
        vat_identifier: None,
        tax_number: None,
        additional_legal_information: None,
        electronic_address: Some(ElectronicAddress {
            value: "einkauf@kunde.example".into(),
            scheme: "EM".into(),
        }),
        address: Address {
            lines: vec!["Marktplatz 5".into(), "Hinterhaus".into()],
            city: Some("München".into()),
            post_code: Some("80331".into()),
            subdivision: None,
            country_code: "DE".into(),
        },
        contact: None,
    }
}

fn line(id: usize, name: &str, qty: &str, price: &str, category: VatCategory, rate: &str) -> Line {
    let quantity = dec(qty);
    let price = dec(price);
    Line {
        id: id.to_string(),
        note: None,
        quantity,
        unit_code: "HUR".into(),
        net_amount: (quantity * price)
            .round_dp_with_strategy(2, RoundingStrategy::MidpointAwayFromZero),
        price,
        name: name.into(),
        description: Some(format!("{name} <Details> & mehr")),
        category,
        rate: dec(rate),
        period: None,
    }
}

fn base(spec: Specification) -> Invoice {
    Invoice {
        specification: spec,
        number: "RE-2026-0001".into(),
        issue_date: day(2026, 11, 20),
        type_code: TypeCode::Invoice,
        currency: "EUR".into(),
        due_date: Some(day(2026, 12, 4)),
        buyer_reference: Some("04011000-12345-03".into()),
        order_reference: None,
        notes: vec!["Projekt Website-Relaunch".into()],
        preceding_invoice: None,
        seller: seller(),
        buyer: buyer(),
        delivery_date: Some(day(2026, 11, 20)),
        period: None,
        delivery_country: None,
        payment_means: Some(PaymentMeans::CreditTransfer {
            iban: "DE02120300000000202051".into(),
            account_name: Some("Muster Software GmbH".into()),
            bic: Some("BYLADEM1001".into()),
        }),
        remittance_information: Some("RE-2026-0001".into()),
        payment_terms: Some("Zahlbar bis 04.12.2026 ohne Abzug.".into()),
        allowances: vec![],
        charges: vec![],
        lines: vec![
            line(1, "Beratung", "10", "95.00", VatCategory::Standard, "19"),
            line(
                2,
                "Entwicklung",
                "2.5",
                "120.00",
                VatCategory::Standard,
                "19",
            ),
        ],
        vat_breakdown: vec![],
        totals: Totals::default(),
    }
}

/// The test-side arithmetic (the writers compute nothing): the VAT breakdown per
/// (category, rate) and the totals from lines, allowances, charges and `prepaid`.
fn complete(mut inv: Invoice, minor_units: u32, prepaid: Decimal) -> Invoice {
    let mut groups: BTreeMap<(VatCategory, Decimal), Decimal> = BTreeMap::new();
    for l in &inv.lines {
        *groups.entry((l.category, l.rate.normalize())).or_default() += l.net_amount;
    }
    for a in &inv.allowances {
        *groups.entry((a.category, a.rate.normalize())).or_default() -= a.amount;
    }
    for c in &inv.charges {
        *groups.entry((c.category, c.rate.normalize())).or_default() += c.amount;
    }
    inv.vat_breakdown = groups
        .into_iter()
        .rev() // standard rates first, higher rate first
        .map(|((category, rate), basis)| {
            let tax = if category == VatCategory::Standard {
                (basis * rate / Decimal::ONE_HUNDRED)
                    .round_dp_with_strategy(minor_units, RoundingStrategy::MidpointAwayFromZero)
            } else {
                Decimal::ZERO
            };
            let (reason, code) = match category {
                VatCategory::Exempt => (Some("Umsatzsteuerfrei gemäß § 4 Nr. 21 UStG"), None),
                VatCategory::ReverseCharge => (
                    Some("Steuerschuldnerschaft des Leistungsempfängers (§ 13b UStG)"),
                    Some("VATEX-EU-AE"),
                ),
                VatCategory::IntraCommunity => (
                    Some("Steuerfreie innergemeinschaftliche Lieferung"),
                    Some("VATEX-EU-IC"),
                ),
                VatCategory::Export => (Some("Steuerfreie Ausfuhrlieferung"), Some("VATEX-EU-G")),
                _ => (None, None),
            };
            VatBreakdown {
                category,
                rate,
                taxable_amount: basis,
                tax_amount: tax,
                exemption_reason: reason.map(str::to_string),
                exemption_reason_code: code.map(str::to_string),
            }
        })
        .collect();
    let line_net_total: Decimal = inv.lines.iter().map(|l| l.net_amount).sum();
    let allowance_total: Decimal = inv.allowances.iter().map(|a| a.amount).sum();
    let charge_total: Decimal = inv.charges.iter().map(|c| c.amount).sum();
    let tax_exclusive = line_net_total - allowance_total + charge_total;
    let tax_total: Decimal = inv.vat_breakdown.iter().map(|b| b.tax_amount).sum();
    let tax_inclusive = tax_exclusive + tax_total;
    inv.totals = Totals {
        line_net_total,
        allowance_total,
        charge_total,
        tax_exclusive,
        tax_total,
        tax_inclusive,
        prepaid,
        rounding: Decimal::ZERO,
        payable: tax_inclusive - prepaid,
    };
    inv
}

fn done(inv: Invoice) -> Invoice {
    complete(inv, 2, Decimal::ZERO)
}

fn standard(spec: Specification) -> Invoice {
    done(base(spec))
}

/// The base invoice with a third position at the reduced rate: `quantity` books
/// ("Fachbuch") at `price`, 7 % VAT.
fn with_book(spec: Specification, quantity: &str, price: &str) -> Invoice {
    let mut inv = base(spec);
    let book = line(3, "Fachbuch", quantity, price, VatCategory::Standard, "7");
    inv.lines.push(book);
    inv
}

fn mixed_rates(spec: Specification) -> Invoice {
    let mut inv = with_book(spec, "3", "24.99");
    inv.lines[2].unit_code = "H87".into();
    done(inv)
}

/// A 10 % discount on the whole invoice, written as one allowance per VAT group.
fn discount(spec: Specification) -> Invoice {
    let mut inv = with_book(spec, "4", "25.00");
    let groups = [("19", dec("1250.00")), ("7", dec("100.00"))];
    inv.allowances = groups
        .iter()
        .map(|(rate, base)| AllowanceCharge {
            amount: (*base * dec("0.10")).round_dp(2),
            base_amount: Some(*base),
            percent: Some(dec("10")),
            category: VatCategory::Standard,
            rate: dec(rate),
            reason: Some("Rabatt".into()),
            reason_code: Some("95".into()),
        })
        .collect();
    done(inv)
}

fn reverse_charge(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.buyer.vat_identifier = Some("DE987654321".into());
    let position = ("Bauleistung", "8", "65.00");
    with_one_line(inv, position, VatCategory::ReverseCharge, None)
}

fn intra_eu(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.buyer.vat_identifier = Some("ATU12345678".into());
    inv.buyer.address = Address {
        lines: vec!["Ringstraße 3".into()],
        city: Some("Wien".into()),
        post_code: Some("1010".into()),
        subdivision: None,
        country_code: "AT".into(),
    };
    inv.delivery_date = None;
    inv.period = Some((day(2026, 11, 1), day(2026, 11, 30)));
    inv.delivery_country = Some("AT".into());
    inv.lines = vec![
        line(
            1,
            "Server-Hardware",
            "2",
            "1499.00",
            VatCategory::IntraCommunity,
            "0",
        ),
        line(2, "Montage", "3", "80.00", VatCategory::IntraCommunity, "0"),
    ];
    inv.lines[0].unit_code = "H87".into();
    done(inv)
}

/// `inv` with one position at 0 % VAT of `category` (position 1: `title`, `quantity` ×
/// `price`), its unit code when given, completed.
fn with_one_line(
    mut inv: Invoice,
    (title, quantity, price): (&str, &str, &str),
    category: VatCategory,
    unit_code: Option<&str>,
) -> Invoice {
    inv.lines = vec![line(1, title, quantity, price, category, "0")];
    if let Some(code) = unit_code {
        inv.lines[0].unit_code = code.into();
    }
    done(inv)
}

fn zero_rated(spec: Specification) -> Invoice {
    let position = ("Photovoltaikanlage", "1", "8400.00");
    with_one_line(base(spec), position, VatCategory::Zero, Some("C62"))
}

fn exempt(spec: Specification) -> Invoice {
    let position = ("Unterricht", "12", "45.00");
    with_one_line(base(spec), position, VatCategory::Exempt, None)
}

fn export(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.buyer.address = Address {
        lines: vec!["Bahnhofstrasse 10".into()],
        city: Some("Zürich".into()),
        post_code: Some("8001".into()),
        subdivision: None,
        country_code: "CH".into(),
    };
    let position = ("Lizenz", "1", "2500.00");
    with_one_line(inv, position, VatCategory::Export, Some("C62"))
}

fn standard_and_exempt(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.lines
        .push(line(3, "Seminar", "1", "300.00", VatCategory::Exempt, "0"));
    done(inv)
}

fn credit_note(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.type_code = TypeCode::CreditNote;
    inv.number = "RE-2026-0002".into();
    inv.notes = vec!["Storno der Rechnung RE-2026-0001".into()];
    inv.preceding_invoice = Some(PrecedingInvoice {
        number: "RE-2026-0001".into(),
        issue_date: Some(day(2026, 11, 20)),
    });
    inv.remittance_information = Some("RE-2026-0002".into());
    done(inv)
}

fn jpy(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.currency = "JPY".into();
    inv.lines = vec![
        line(1, "Beratung", "3", "12000", VatCategory::Standard, "19"),
        line(2, "Reisekosten", "1", "4567", VatCategory::Standard, "19"),
    ];
    complete(inv, 0, Decimal::ZERO)
}

fn chf(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.currency = "CHF".into();
    inv.payment_means = Some(PaymentMeans::CreditTransfer {
        iban: "CH4431999123000889012".into(),
        account_name: None,
        bic: None,
    });
    done(inv)
}

fn direct_debit(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.payment_means = Some(PaymentMeans::DirectDebit {
        mandate_reference: "MANDAT-0042".into(),
        creditor_identifier: "DE98ZZZ09999999999".into(),
        debited_iban: "DE75512108001245126199".into(),
    });
    inv.payment_terms =
        Some("Der Betrag wird am 04.12.2026 per SEPA-Lastschrift eingezogen.".into());
    done(inv)
}

fn skonto(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.payment_terms = Some("#SKONTO#TAGE=14#PROZENT=2.00#\n".into());
    done(inv)
}

fn skonto_with_text(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.payment_terms = Some(
        "Zahlbar bis 04.12.2026 ohne Abzug, bis 27.11.2026 mit 2 % Skonto.\n#SKONTO#TAGE=7#PROZENT=2.00#\n"
            .into(),
    );
    done(inv)
}

fn thousand_lines(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.lines = (1..=1000)
        .map(|i| {
            let rate = if i % 3 == 0 { "7" } else { "19" };
            let mut l = line(
                i,
                &format!("Position {i}"),
                "1.25",
                &format!("{}.{:02}", i % 97 + 1, i % 100),
                VatCategory::Standard,
                rate,
            );
            l.description = None;
            l
        })
        .collect();
    done(inv)
}

fn prepaid(spec: Specification) -> Invoice {
    complete(base(spec), 2, dec("500.00"))
}

fn with_charge_and_periods(spec: Specification) -> Invoice {
    let mut inv = base(spec);
    inv.order_reference = Some("PO-77".into());
    inv.delivery_date = None;
    inv.period = Some((day(2026, 10, 1), day(2026, 10, 31)));
    inv.lines[0].period = Some((day(2026, 10, 1), day(2026, 10, 15)));
    inv.lines[0].note = Some("Laut Stundenzettel".into());
    inv.lines[1].quantity = dec("2.5000");
    inv.lines[1].price = dec("120.0000");
    inv.charges = vec![AllowanceCharge {
        amount: dec("25.00"),
        base_amount: None,
        percent: None,
        category: VatCategory::Standard,
        rate: dec("19"),
        reason: Some("Versandkosten".into()),
        reason_code: Some("FC".into()),
    }];
    done(inv)
}

type Shape = fn(Specification) -> Invoice;

const XRECHNUNG_SHAPES: &[(&str, Shape)] = &[
    ("standard", standard),
    ("mixed-rates", mixed_rates),
    ("discount", discount),
    ("reverse-charge", reverse_charge),
    ("intra-eu", intra_eu),
    ("zero", zero_rated),
    ("exempt", exempt),
    ("export", export),
    ("standard-and-exempt", standard_and_exempt),
    ("credit-note", credit_note),
    ("jpy", jpy),
    ("chf", chf),
    ("direct-debit", direct_debit),
    ("skonto", skonto),
    ("skonto-text", skonto_with_text),
    ("thousand-lines", thousand_lines),
    ("prepaid", prepaid),
    ("charge-periods", with_charge_and_periods),
];

const EN16931_SHAPES: &[(&str, Shape)] = &[
    ("standard", standard),
    ("discount", discount),
    ("intra-eu", intra_eu),
    ("credit-note", credit_note),
    ("direct-debit", direct_debit),
];

/// Plain EN 16931 as Factur-X writes it: no contact, no buyer reference or electronic
/// addresses (none of them is required outside XRechnung).
fn minimal_en16931(shape: Shape) -> Invoice {
    let mut inv = shape(Specification::En16931);
    inv.seller.contact = None;
    inv.seller.electronic_address = None;
    inv.buyer.electronic_address = None;
    inv.buyer_reference = None;
    inv
}

#[test]
fn every_shape_in_both_syntaxes_passes_the_official_rules() {
    let dir = validate::scratch_dir("einvoice-writers");
    let mut files: Vec<PathBuf> = Vec::new();
    let mut write = |name: String, inv: &Invoice| {
        let cii_path = dir.join(format!("{name}.cii.xml"));
        std::fs::write(&cii_path, cii::write(inv).expect("CII")).unwrap();
        files.push(cii_path);
        let ubl_path = dir.join(format!("{name}.ubl.xml"));
        std::fs::write(&ubl_path, ubl::write(inv).expect("UBL")).unwrap();
        files.push(ubl_path);
    };
    for (name, shape) in XRECHNUNG_SHAPES {
        write(format!("xr-{name}"), &shape(Specification::XRechnung));
    }
    for (name, shape) in EN16931_SHAPES {
        write(format!("en-{name}"), &minimal_en16931(*shape));
    }
    assert_eq!(
        files.len(),
        2 * (XRECHNUNG_SHAPES.len() + EN16931_SHAPES.len())
    );
    let report = validate::assert_all_pass(&files);
    assert_eq!(report.verdicts.len(), files.len());
}

#[test]
fn every_shape_is_schema_valid() {
    // Element order is what the XSDs check and the Schematron rules do not.
    let dir = validate::scratch_dir("einvoice-writers-xsd");
    let mut files: Vec<PathBuf> = Vec::new();
    for (name, shape) in XRECHNUNG_SHAPES {
        let inv = shape(Specification::XRechnung);
        for (syntax, bytes) in [("cii", cii::write(&inv)), ("ubl", ubl::write(&inv))] {
            let path = dir.join(format!("{name}.{syntax}.xml"));
            std::fs::write(&path, bytes.unwrap()).unwrap();
            files.push(path);
        }
    }
    validate::assert_schema_valid(&files);
}

#[test]
fn the_checker_rejects_a_broken_document() {
    // The validation test above can fail: a document whose totals do not add up is refused.
    let mut inv = standard(Specification::XRechnung);
    inv.totals.payable += Decimal::ONE;
    inv.buyer_reference = None;
    let dir = validate::scratch_dir("einvoice-writers-broken");
    let cii_path = dir.join("broken.cii.xml");
    let ubl_path = dir.join("broken.ubl.xml");
    std::fs::write(&cii_path, cii::write(&inv).unwrap()).unwrap();
    std::fs::write(&ubl_path, ubl::write(&inv).unwrap()).unwrap();
    let report = validate::check(&[cii_path, ubl_path]);
    assert!(!report.success, "{}", report.output);
    assert_eq!(report.failures().len(), 2, "{}", report.output);
    for failure in report.failures() {
        assert!(failure.contains("BR-DE-15"), "{failure}");
    }
}

#[test]
fn amounts_with_more_than_two_decimals_are_refused() {
    let mut inv = standard(Specification::XRechnung);
    inv.lines[0].net_amount = dec("950.001");
    for result in [cii::write(&inv), ubl::write(&inv)] {
        match result {
            Err(kontor_einvoice::Error::Write(why)) => assert!(why.contains("BT-131"), "{why}"),
            other => panic!("expected a write error, got {other:?}"),
        }
    }
}

#[test]
fn every_shape_reads_back_as_written() {
    // The reader (`read::read`) is the writers' inverse: what Kontor writes, Kontor reads.
    let mut shapes: Vec<(String, Invoice)> = XRECHNUNG_SHAPES
        .iter()
        .map(|(name, shape)| (format!("xr-{name}"), shape(Specification::XRechnung)))
        .collect();
    shapes.extend(
        EN16931_SHAPES
            .iter()
            .map(|(name, shape)| (format!("en-{name}"), minimal_en16931(*shape))),
    );
    let mut differences = Vec::new();
    for (name, inv) in &shapes {
        for (syntax, bytes) in [("cii", cii::write(inv)), ("ubl", ubl::write(inv))] {
            let back = kontor_einvoice::read::read(&bytes.unwrap())
                .unwrap_or_else(|e| panic!("{name}.{syntax}: {e}"));
            // The reader trims texts, so the Skonto line's closing line break is not kept.
            let mut expected = inv.clone();
            expected.payment_terms = inv.payment_terms.as_deref().map(|t| t.trim().to_string());
            if back != expected {
                differences.push(format!(
                    "{name}.{syntax}:\n wrote {expected:?}\n read  {back:?}"
                ));
            }
        }
    }
    assert!(differences.is_empty(), "{}", differences.join("\n"));
}
