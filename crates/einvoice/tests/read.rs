//! Reading incoming e-invoices: every sample of `../shared/einvoice/samples/` (UBL, CII and
//! the two ZUGFeRD PDFs) gives the values the documents state (read off the files), and
//! everything else is refused with the right error.

#[path = "support/plain_pdf.rs"]
mod plain_pdf;

use chrono::NaiveDate;
use kontor_einvoice::pdf_read::embedded_xml;
use kontor_einvoice::read::{read, read_with_syntax, Syntax};
use kontor_einvoice::semantic::{Invoice, PaymentMeans, Specification, TypeCode};
use kontor_einvoice::Error;
use plain_pdf::plain_pdf;
use rust_decimal::Decimal;
use std::path::PathBuf;
use std::str::FromStr;

fn sample(name: &str) -> Vec<u8> {
    let path = PathBuf::from(env!("CARGO_MANIFEST_DIR"))
        .join("../../../shared/einvoice/samples")
        .join(name);
    std::fs::read(&path).unwrap_or_else(|e| panic!("{}: {e}", path.display()))
}

fn d(s: &str) -> Decimal {
    Decimal::from_str(s).unwrap()
}

fn date(s: &str) -> NaiveDate {
    NaiveDate::parse_from_str(s, "%Y-%m-%d").unwrap()
}

/// BT-106, BT-109, BT-110, BT-112, BT-115.
fn totals(i: &Invoice) -> [Decimal; 5] {
    let t = &i.totals;
    [
        t.line_net_total,
        t.tax_exclusive,
        t.tax_total,
        t.tax_inclusive,
        t.payable,
    ]
}

fn amounts(v: [&str; 5]) -> [Decimal; 5] {
    v.map(d)
}

#[test]
fn ubl_sample_01() {
    let (i, syntax) = read_with_syntax(&sample("01.01a-INVOICE_ubl.xml")).unwrap();
    assert_eq!(syntax, Syntax::Ubl);
    assert_eq!(i.specification, Specification::XRechnung);
    assert_eq!(i.number, "123456XX");
    assert_eq!(i.issue_date, date("2016-04-04"));
    assert_eq!(i.type_code, TypeCode::Invoice);
    assert_eq!(i.currency, "EUR");
    assert_eq!(i.lines.len(), 2);
    assert_eq!(
        totals(&i),
        amounts(["314.86", "314.86", "22.04", "336.9", "336.9"])
    );
    assert_eq!(i.seller.name, "[Seller name]");
    assert_eq!(
        i.seller.trading_name.as_deref(),
        Some("[Seller trading name]")
    );
    assert_eq!(i.seller.vat_identifier.as_deref(), Some("DE 123456789"));
    assert_eq!(i.seller.address.country_code, "DE");
    assert_eq!(i.buyer.name, "[Buyer name]");
    assert_eq!(i.buyer_reference.as_deref(), Some("04011000-12345-03"));
    assert_eq!(
        i.payment_means,
        Some(PaymentMeans::CreditTransfer {
            iban: "DE79000000001234567890".into(),
            account_name: None,
            bic: None
        })
    );
    assert_eq!(i.lines[0].net_amount, d("288.79"));
    assert_eq!(i.lines[0].rate, d("7"));
    assert_eq!(
        i.lines[0].period,
        Some((date("2016-01-01"), date("2016-12-31")))
    );
    assert_eq!(i.vat_breakdown.len(), 1);
    assert_eq!(i.vat_breakdown[0].tax_amount, d("22.04"));
}

#[test]
fn cii_sample_01_reads_like_its_ubl_twin() {
    let (cii, syntax) = read_with_syntax(&sample("01.01a-INVOICE_uncefact.xml")).unwrap();
    assert_eq!(syntax, Syntax::Cii);
    let ubl = read(&sample("01.01a-INVOICE_ubl.xml")).unwrap();
    assert_eq!(cii.number, "123456XX");
    assert_eq!(cii.issue_date, date("2016-04-04"));
    assert_eq!(cii.currency, "EUR");
    assert_eq!(cii.lines.len(), 2);
    assert_eq!(totals(&cii), totals(&ubl));
    assert_eq!(cii.seller.name, ubl.seller.name);
    assert_eq!(cii.seller.vat_identifier, ubl.seller.vat_identifier);
    assert_eq!(cii.payment_means, ubl.payment_means);
    assert_eq!(cii.lines[1].name, "Porto + Versandkosten");
    assert_eq!(cii.lines[1].net_amount, d("26.07"));
}

#[test]
fn ubl_sample_02_with_due_date_period_reference_and_zero_allowances() {
    let i = read(&sample("02.01a-INVOICE_ubl.xml")).unwrap();
    assert_eq!(i.number, "1234567");
    assert_eq!(i.issue_date, date("2018-04-13"));
    assert_eq!(i.due_date, Some(date("2018-04-13")));
    assert_eq!(i.currency, "EUR");
    assert_eq!(i.lines.len(), 2);
    assert_eq!(
        totals(&i),
        amounts(["10781.25", "10781.25", "2048.44", "12829.69", "12829.69"])
    );
    assert_eq!(i.period, Some((date("2016-01-01"), date("2016-12-31"))));
    assert_eq!(
        i.remittance_information.as_deref(),
        Some("Deb. 12345 / Fact. 9876543")
    );
    assert_eq!(i.seller.vat_identifier.as_deref(), Some("ATU123456789"));
    assert_eq!(i.seller.tax_number.as_deref(), Some("123/456/789"));
    assert_eq!((i.allowances.len(), i.charges.len()), (1, 1));
    assert_eq!(i.vat_breakdown.len(), 2);
}

#[test]
fn cii_sample_03_with_two_rates_prepaid_and_direct_debit() {
    let i = read(&sample("03.01a-INVOICE_uncefact.xml")).unwrap();
    assert_eq!(i.number, "123456789");
    assert_eq!(i.issue_date, date("2019-02-28"));
    assert_eq!(i.due_date, Some(date("2019-03-14")));
    assert_eq!(i.currency, "EUR");
    assert_eq!(i.lines.len(), 14);
    assert_eq!(
        totals(&i),
        amounts(["687.28", "687.28", "117.58", "804.86", "-225.14"])
    );
    assert_eq!(i.totals.prepaid, d("1030"));
    assert_eq!(i.period, Some((date("2018-05-01"), date("2019-01-31"))));
    let rates: Vec<_> = i
        .vat_breakdown
        .iter()
        .map(|b| (b.rate, b.taxable_amount, b.tax_amount))
        .collect();
    assert_eq!(
        rates,
        vec![
            (d("19"), d("578.89"), d("109.99")),
            (d("7"), d("108.39"), d("7.59"))
        ]
    );
    assert!(matches!(
        i.payment_means,
        Some(PaymentMeans::DirectDebit { ref debited_iban, .. }) if debited_iban == "DE79000000001234567890"
    ));
}

#[test]
fn zugferd_pdf_einfach() {
    let xml = embedded_xml(&sample("zugferd-en16931-einfach.pdf")).unwrap();
    let (i, syntax) = read_with_syntax(&xml).unwrap();
    assert_eq!(syntax, Syntax::Cii);
    assert_eq!(i.specification, Specification::En16931);
    assert_eq!(i.number, "471102");
    assert_eq!(i.issue_date, date("2018-03-05"));
    assert_eq!(i.currency, "EUR");
    assert_eq!(i.lines.len(), 2);
    assert_eq!(
        totals(&i),
        amounts(["473.00", "473.00", "56.87", "529.87", "529.87"])
    );
    assert_eq!(i.seller.name, "Lieferant GmbH");
    assert_eq!(i.seller.vat_identifier.as_deref(), Some("DE123456789"));
    assert_eq!(i.seller.tax_number.as_deref(), Some("201/113/40209"));
}

#[test]
fn zugferd_pdf_rabatte_with_allowances_and_charges() {
    let xml = embedded_xml(&sample("zugferd-en16931-rabatte.pdf")).unwrap();
    let i = read(&xml).unwrap();
    assert_eq!(i.number, "471102");
    assert_eq!(i.issue_date, date("2018-06-05"));
    assert_eq!(i.currency, "EUR");
    assert_eq!(i.lines.len(), 4);
    assert_eq!(
        totals(&i),
        amounts(["202.70", "193.77", "21.30", "215.07", "165.07"])
    );
    assert_eq!(i.totals.allowance_total, d("14.73"));
    assert_eq!(i.totals.charge_total, d("5.80"));
    let allowances: Decimal = i.allowances.iter().map(|a| a.amount).sum();
    let charges: Decimal = i.charges.iter().map(|a| a.amount).sum();
    assert_eq!((allowances, charges), (d("14.73"), d("5.80")));
}

fn not_an_invoice(bytes: &[u8]) -> String {
    match read(bytes) {
        Err(Error::NotAnInvoice(why)) => why,
        other => panic!("expected NotAnInvoice, got {other:?}"),
    }
}

#[test]
fn garbage_is_refused_with_a_reason() {
    assert!(not_an_invoice(b"").contains("empty"));
    assert!(not_an_invoice(b"  \n").contains("empty"));
    assert!(not_an_invoice(b"hello, this is text").contains("not well-formed XML"));
    assert!(not_an_invoice(&[0xff, 0xfe, 0x00, 0x3c]).contains("UTF-8"));
    let html = not_an_invoice(b"<html><body><h1>Invoice</h1></body></html>");
    assert!(html.contains("<html>"), "{html}");
    let other = not_an_invoice(
        b"<?xml version=\"1.0\"?><Invoice xmlns=\"urn:example:not-ubl\"><ID>1</ID></Invoice>",
    );
    assert!(other.contains("urn:example:not-ubl"), "{other}");
    assert!(not_an_invoice(b"<a><b></a>").contains("not well-formed"));
    assert!(not_an_invoice(b"%PDF-1.7\n").contains("PDF"));
    let too_large = vec![b' '; kontor_einvoice::read::MAX_XML + 1];
    let mut too_large = too_large;
    too_large[0] = b'<';
    assert!(not_an_invoice(&too_large).contains("larger"));
}

#[test]
fn dtds_and_entities_are_refused() {
    let bomb = br#"<?xml version="1.0"?>
<!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&lol2;</Invoice>"#;
    assert!(not_an_invoice(bomb).contains("DTD"));
    let external = br#"<?xml version="1.0"?>
<!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]>
<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2">&xxe;</Invoice>"#;
    assert!(not_an_invoice(external).contains("DTD"));
}

fn replace(xml: &[u8], from: &str, to: &str) -> Vec<u8> {
    let s = String::from_utf8(xml.to_vec()).unwrap();
    assert!(s.contains(from), "{from} not in sample");
    s.replacen(from, to, 1).into_bytes()
}

#[test]
fn missing_number_date_or_totals_are_named() {
    let ubl = sample("01.01a-INVOICE_ubl.xml");
    let why = not_an_invoice(&replace(&ubl, "<cbc:ID>123456XX</cbc:ID>", ""));
    assert!(why.contains("BT-1"), "{why}");
    let why = not_an_invoice(&replace(
        &ubl,
        "<cbc:IssueDate>2016-04-04</cbc:IssueDate>",
        "",
    ));
    assert!(why.contains("BT-2"), "{why}");
    let why = not_an_invoice(&replace(
        &ubl,
        "<cbc:IssueDate>2016-04-04</cbc:IssueDate>",
        "<cbc:IssueDate>04.04.2016</cbc:IssueDate>",
    ));
    assert!(why.contains("not a date"), "{why}");
    let why = not_an_invoice(&replace(
        &ubl,
        "<cbc:PayableAmount currencyID=\"EUR\">336.9</cbc:PayableAmount>",
        "",
    ));
    assert!(why.contains("BT-115"), "{why}");
    // Sums that do not add up are read as stated: the check names them (issue 36).
    let off = replace(
        &ubl,
        "<cbc:TaxInclusiveAmount currencyID=\"EUR\">336.9</cbc:TaxInclusiveAmount>",
        "<cbc:TaxInclusiveAmount currencyID=\"EUR\">346.9</cbc:TaxInclusiveAmount>",
    );
    assert_eq!(read(&off).unwrap().totals.tax_inclusive, d("346.9"));
    let rules: Vec<String> = kontor_einvoice::conformance::check(&off)
        .findings
        .into_iter()
        .map(|f| f.rule)
        .collect();
    assert!(rules.contains(&"BR-CO-15".to_string()), "{rules:?}");
    let cii = sample("01.01a-INVOICE_uncefact.xml");
    let why = not_an_invoice(&replace(
        &cii,
        "<ram:InvoiceCurrencyCode>EUR</ram:InvoiceCurrencyCode>",
        "",
    ));
    assert!(why.contains("BT-5"), "{why}");
    let off = replace(
        &cii,
        "<ram:LineTotalAmount>26.07</ram:LineTotalAmount>",
        "<ram:LineTotalAmount>26.08</ram:LineTotalAmount>",
    );
    assert!(read(&off).is_ok());
    let check = kontor_einvoice::conformance::check(&off);
    assert!(
        check.findings.iter().any(|f| f.rule == "BR-CO-10"),
        "{check:?}"
    );
}

#[test]
fn a_credit_note_reads_as_one() {
    let ubl = String::from_utf8(sample("01.01a-INVOICE_ubl.xml")).unwrap();
    let credit = ubl
        .replace("ubl:Invoice", "ubl:CreditNote")
        .replace(
            "urn:oasis:names:specification:ubl:schema:xsd:Invoice-2",
            "urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2",
        )
        .replace("InvoiceTypeCode>380", "CreditNoteTypeCode>381")
        .replace("</cbc:InvoiceTypeCode>", "</cbc:CreditNoteTypeCode>")
        .replace("cac:InvoiceLine", "cac:CreditNoteLine")
        .replace("cbc:InvoicedQuantity", "cbc:CreditedQuantity");
    let i = read(credit.as_bytes()).unwrap();
    assert_eq!(i.type_code, TypeCode::CreditNote);
    assert_eq!(i.lines.len(), 2);
    assert_eq!(i.totals.payable, d("336.9"));
}

fn pdf_error(bytes: &[u8]) -> String {
    match embedded_xml(bytes) {
        Err(Error::Pdf(why)) => why,
        other => panic!("expected Error::Pdf, got {:?}", other.map(|b| b.len())),
    }
}

#[test]
fn pdfs_without_an_invoice_are_refused() {
    assert!(pdf_error(b"").contains("not a PDF"));
    assert!(pdf_error(b"<xml/>").contains("not a PDF"));
    assert!(pdf_error(b"%PDF-1.7\ngarbage").contains("cannot be read"));
    // A real PDF with no attachment: a minimal one-page document.
    let why = pdf_error(&plain_pdf());
    assert!(why.contains("no embedded e-invoice"), "{why}");
}

/// Every sample booked as purchase positions sums to its BT-109 / BT-110 / BT-112.
#[test]
fn every_sample_books_to_its_own_totals() {
    use kontor_einvoice::booking::purchase_positions;
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/einvoice/samples");
    let mut seen = 0;
    for entry in std::fs::read_dir(&dir).unwrap() {
        let path = entry.unwrap().path();
        let bytes = std::fs::read(&path).unwrap();
        let xml = if bytes.starts_with(b"%PDF-") {
            embedded_xml(&bytes).unwrap()
        } else {
            bytes
        };
        let invoice = read(&xml).unwrap_or_else(|e| panic!("{}: {e}", path.display()));
        let (positions, sum) = purchase_positions(&invoice).unwrap();
        assert_eq!(
            sum.net_total,
            invoice.totals.tax_exclusive,
            "{}",
            path.display()
        );
        assert_eq!(
            sum.tax_total,
            invoice.totals.tax_total,
            "{}",
            path.display()
        );
        assert_eq!(
            sum.gross_total,
            invoice.totals.tax_inclusive,
            "{}",
            path.display()
        );
        let nonzero = invoice
            .allowances
            .iter()
            .chain(&invoice.charges)
            .filter(|a| !a.amount.is_zero())
            .count();
        assert_eq!(
            positions.len(),
            invoice.lines.len() + nonzero,
            "{}",
            path.display()
        );
        seen += 1;
    }
    assert_eq!(seen, 6);
}

#[test]
fn rabatte_allowances_are_negative_positions() {
    use kontor_einvoice::booking::purchase_positions;
    let xml = embedded_xml(&sample("zugferd-en16931-rabatte.pdf")).unwrap();
    let (positions, _) = purchase_positions(&read(&xml).unwrap()).unwrap();
    let negative: Decimal = positions
        .iter()
        .filter(|p| p.amounts.net_total.is_sign_negative())
        .map(|p| p.amounts.net_total)
        .sum();
    assert_eq!(negative, d("-14.73"));
}

#[test]
fn the_html_view_escapes_everything_and_has_no_script() {
    use kontor_einvoice::html::render_html;
    let ubl = sample("01.01a-INVOICE_ubl.xml");
    let crafted = replace(
        &ubl,
        "<cbc:Name>Porto + Versandkosten</cbc:Name>",
        "<cbc:Name>&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt;</cbc:Name>",
    );
    let html = render_html(&read(&crafted).unwrap());
    assert!(html.contains("123456XX"));
    assert!(html.contains("&lt;script&gt;alert(1)&lt;/script&gt;"));
    assert!(!html.to_ascii_lowercase().contains("<script"));
    assert!(!html.contains("<img"));
    assert!(html.contains("336.90"));
    assert!(html.contains("DE79000000001234567890"));
}

/// Every sample read, written again by Kontor's writers in both syntaxes, and read back,
/// gives the same semantic invoice (the reader and the writers agree field by field).
#[test]
fn samples_round_trip_through_the_writers() {
    use kontor_einvoice::{cii, ubl};
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../../../shared/einvoice/samples");
    let mut names: Vec<_> = std::fs::read_dir(&dir)
        .unwrap()
        .map(|e| e.unwrap().path())
        .collect();
    names.sort();
    for path in names {
        let bytes = std::fs::read(&path).unwrap();
        let xml = if bytes.starts_with(b"%PDF-") {
            embedded_xml(&bytes).unwrap()
        } else {
            bytes
        };
        let original = read(&xml).unwrap();
        for (syntax, written) in [
            ("cii", cii::write(&original)),
            ("ubl", ubl::write(&original)),
        ] {
            let written = written.unwrap_or_else(|e| panic!("{} {syntax}: {e}", path.display()));
            let again =
                read(&written).unwrap_or_else(|e| panic!("{} {syntax}: {e}", path.display()));
            assert_eq!(again, original, "{} via {syntax}", path.display());
        }
    }
}

/// A PDF written with lopdf whose `factur-x.xml` file specification is an inline dictionary
/// in the `/EmbeddedFiles` name array (no indirect object of its own), its stream
/// Flate-compressed and its name UTF-16BE.
#[test]
fn an_inline_file_specification_with_a_compressed_stream_is_found() {
    use lopdf::{dictionary, Document, Object, Stream, StringFormat};
    let xml = sample("01.01a-INVOICE_uncefact.xml");
    let mut doc = Document::with_version("1.7");
    let mut stream = Stream::new(dictionary! {"Type" => "EmbeddedFile"}, xml.clone());
    stream.compress().unwrap();
    assert!(stream.dict.get(b"Filter").is_ok(), "compressed");
    let file = doc.add_object(stream);
    let utf16: Vec<u8> = [0xFE, 0xFF]
        .into_iter()
        .chain("factur-x.xml".encode_utf16().flat_map(|u| u.to_be_bytes()))
        .collect();
    let spec = dictionary! {
        "Type" => "Filespec",
        "F" => Object::String(b"other.bin".to_vec(), StringFormat::Literal),
        "UF" => Object::String(utf16, StringFormat::Literal),
        "EF" => dictionary! {"F" => file},
    };
    let pages = doc
        .add_object(dictionary! {"Type" => "Pages", "Kids" => Vec::<Object>::new(), "Count" => 0});
    let catalog = doc.add_object(dictionary! {
        "Type" => "Catalog",
        "Pages" => pages,
        "Names" => dictionary! {"EmbeddedFiles" => dictionary! {"Names" => vec![
            Object::String(b"factur-x.xml".to_vec(), StringFormat::Literal),
            Object::Dictionary(spec),
        ]}},
    });
    doc.trailer.set("Root", catalog);
    let mut pdf = Vec::new();
    doc.save_to(&mut pdf).unwrap();
    assert_eq!(embedded_xml(&pdf).unwrap(), xml);
}

/// Where rounding per position differs from the seller's rounding per rate — three lines of
/// 0.05 at 7 %: 0.0035 → 0.00 each, but 0.15 × 7 % = 0.0105 → 0.01 for the group — the
/// booked positions still carry the document's 0.01.
#[test]
fn the_booking_takes_the_documents_vat_per_rate_not_per_position() {
    use kontor_einvoice::booking::purchase_positions;
    use kontor_einvoice::cii;
    let mut invoice = read(&sample("01.01a-INVOICE_ubl.xml")).unwrap();
    let mut line = invoice.lines[1].clone();
    line.net_amount = d("0.05");
    line.price = d("0.05");
    line.quantity = d("1");
    invoice.lines = (1..=3)
        .map(|n| {
            let mut l = line.clone();
            l.id = n.to_string();
            l
        })
        .collect();
    invoice.vat_breakdown[0].taxable_amount = d("0.15");
    invoice.vat_breakdown[0].tax_amount = d("0.01");
    let t = &mut invoice.totals;
    (t.line_net_total, t.tax_exclusive, t.tax_total) = (d("0.15"), d("0.15"), d("0.01"));
    (t.tax_inclusive, t.payable) = (d("0.16"), d("0.16"));
    // The document as a seller would send it reads (its sums hold) …
    let invoice = read(&cii::write(&invoice).unwrap()).unwrap();
    let (positions, sum) = purchase_positions(&invoice).unwrap();
    // … and books to its own totals, the cent of VAT on one position.
    assert_eq!(
        (sum.net_total, sum.tax_total, sum.gross_total),
        (d("0.15"), d("0.01"), d("0.16"))
    );
    let taxes: Vec<Decimal> = positions.iter().map(|p| p.amounts.tax_total).collect();
    assert_eq!(taxes, vec![d("0.01"), d("0"), d("0")]);
    // Rounding per position would have lost it.
    let per_position: Decimal = positions
        .iter()
        .map(|p| (p.amounts.net_total * p.tax / Decimal::ONE_HUNDRED).round_dp(2))
        .sum();
    assert_eq!(per_position, d("0"));
}

/// Issue 34: the view in German — labels, `1.234,50`-style amounts, `DD.MM.YYYY` dates,
/// unit codes and VAT categories in words.
#[test]
fn the_html_view_reads_in_german() {
    use kontor_einvoice::html::{render_html_in, ViewLanguage};
    let invoice = read(&sample("01.01a-INVOICE_ubl.xml")).unwrap();
    let html = render_html_in(&invoice, ViewLanguage::De);
    for expected in [
        "Rechnungsdatum",
        "Positionen",
        "Umsatzsteuer",
        "Zu zahlender Betrag",
        "Regelsteuersatz (S)",
        "336,90",
        "Überweisung",
    ] {
        assert!(html.contains(expected), "{expected} missing:\n{html}");
    }
    let date = invoice.issue_date.format("%d.%m.%Y").to_string();
    assert!(html.contains(&date), "{date} missing");
    for english in ["Issue date", "Amount due", "Standard rate", ">Seller<"] {
        assert!(!html.contains(english), "{english} in the German view");
    }
    let english = render_html_in(&invoice, ViewLanguage::En);
    assert!(english.contains("Standard rate (S)") && english.contains("Amount due"));
}
