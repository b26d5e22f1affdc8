//! Factur-X PDFs (issue 10 § Issuing): a real 1-page invoice rendered by Typst as PDF/A-3b
//! with the sample CII attached, plus the Factur-X XMP extension in one incremental
//! update, passes the official checker (`validate.py`), and the update is well-formed:
//! lopdf, poppler (pdftotext, pdfinfo) and pypdf (strict) read the result, the original
//! bytes are kept as they were, and the embedded XML comes back byte for byte.

#[path = "support/validate.rs"]
mod validate;

use kontor_einvoice::facturx::{add_xmp_extension, CONFORMANCE_EN16931};
use kontor_einvoice::pdf_read::embedded_xml;
use kontor_einvoice::Error;
use kontor_pdf::document::{DocumentData, TotalLine};
use kontor_pdf::rich_text::blocks;
use kontor_pdf::sample;
use kontor_pdf::{Attachment, PdfEngine};
use std::process::Command;

fn sample_cii() -> Vec<u8> {
    std::fs::read(validate::einvoice_dir().join("samples/03.01a-INVOICE_uncefact.xml"))
        .expect("the sample CII invoice")
}

fn one_page_invoice() -> DocumentData {
    DocumentData {
        heading: "Rechnung R2611-001".into(),
        subject: "Website relaunch".into(),
        letterhead: sample::letterhead(),
        recipient_lines: vec!["Müller & Söhne GmbH".into(), "80331 München".into()],
        meta: vec![("Rechnungsnr.".into(), "R2611-001".into())],
        salutation: blocks("<p>Sehr geehrte Damen und Herren,</p>"),
        detail_columns: true,
        sections: vec![sample::item_rows(8)],
        totals: vec![TotalLine {
            label: "Gesamtbetrag".into(),
            amount: "2.261,00 €".into(),
            strong: true,
        }],
        notes: vec!["Zahlbar bis 17.11.2026.".into()],
        ..Default::default()
    }
}

fn factur_x() -> (Vec<u8>, Vec<u8>) {
    let rendered = PdfEngine::shared()
        .render_document_pdfa3(&one_page_invoice(), &Attachment::factur_x(sample_cii()))
        .expect("renders as PDF/A-3b");
    let out = add_xmp_extension(&rendered, "factur-x.xml", CONFORMANCE_EN16931)
        .expect("adds the XMP extension");
    (rendered, out)
}

fn run(program: &str, args: &[&std::ffi::OsStr]) -> String {
    let out = Command::new(program)
        .args(args)
        .output()
        .unwrap_or_else(|e| panic!("{program} is installed: {e}"));
    assert!(
        out.status.success(),
        "{program} failed: {}{}",
        String::from_utf8_lossy(&out.stdout),
        String::from_utf8_lossy(&out.stderr)
    );
    String::from_utf8_lossy(&out.stdout).into_owned()
}

#[test]
fn a_rendered_invoice_with_the_xmp_extension_passes_the_official_checker() {
    let (_, pdf) = factur_x();
    let dir = validate::scratch_dir("facturx-validate");
    let file = dir.join("R2611-001.pdf");
    std::fs::write(&file, &pdf).unwrap();
    validate::assert_all_pass(std::slice::from_ref(&file));
}

#[test]
fn without_the_extension_the_checker_refuses_the_pdf() {
    // Proves the checker looks at what add_xmp_extension adds.
    let (rendered, _) = factur_x();
    let dir = validate::scratch_dir("facturx-plain");
    let file = dir.join("typst-only.pdf");
    std::fs::write(&file, &rendered).unwrap();
    let report = validate::check(std::slice::from_ref(&file));
    assert!(!report.success, "{}", report.output);
    assert!(
        report.output.contains("XMP lacks fx:DocumentType"),
        "{}",
        report.output
    );
}

#[test]
fn the_incremental_update_is_well_formed() {
    let (rendered, pdf) = factur_x();
    // One update appended: the original bytes unchanged, then one more revision.
    assert!(pdf.starts_with(&rendered));
    let tail = &pdf[rendered.len()..];
    let tail_text = String::from_utf8_lossy(tail);
    assert_eq!(tail_text.matches("%%EOF").count(), 1, "{tail_text}");
    assert_eq!(
        tail_text.matches(" obj\n").count(),
        2,
        "metadata stream and catalog"
    );
    assert!(tail_text.contains("/Type/Metadata/Subtype/XML/Length "));
    assert!(
        !tail_text.contains("/Filter"),
        "the metadata stream is unfiltered"
    );
    assert!(tail_text.contains("/Prev "));

    // lopdf follows /Prev: the catalog's /Metadata is the new stream, the XML is intact.
    let doc = lopdf::Document::load_mem(&pdf).expect("lopdf reads the update");
    let root = doc.trailer.get(b"Root").unwrap().as_reference().unwrap();
    let catalog = doc.get_dictionary(root).unwrap();
    let meta_id = catalog.get(b"Metadata").unwrap().as_reference().unwrap();
    assert_eq!(meta_id.0, doc.max_id, "a new object");
    let xmp = String::from_utf8(
        doc.get_object(meta_id)
            .unwrap()
            .as_stream()
            .unwrap()
            .content
            .clone(),
    )
    .unwrap();
    for needle in [
        "<pdfaid:part>3</pdfaid:part>",
        "<pdfaid:conformance>B</pdfaid:conformance>",
        "<fx:DocumentType>INVOICE</fx:DocumentType>",
        "<fx:DocumentFileName>factur-x.xml</fx:DocumentFileName>",
        "<fx:Version>1.0</fx:Version>",
        "<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>",
        "<pdfaSchema:namespaceURI>urn:factur-x:pdfa:CrossIndustryDocument:invoice:1p0#</pdfaSchema:namespaceURI>",
    ] {
        assert!(xmp.contains(needle), "{needle} in {xmp}");
    }
    assert!(catalog.get(b"AF").is_ok(), "the catalog keeps /AF");
    assert_eq!(embedded_xml(&pdf).unwrap(), sample_cii());

    let dir = validate::scratch_dir("facturx-wellformed");
    let file = dir.join("R2611-001.pdf");
    std::fs::write(&file, &pdf).unwrap();

    // poppler: the text and the new XMP.
    let text = run(
        "pdftotext",
        &["-layout".as_ref(), file.as_os_str(), "-".as_ref()],
    );
    assert!(
        text.contains("Rechnung R2611-001") && text.contains("2.261,00 €"),
        "{text}"
    );
    let meta = run("pdfinfo", &["-meta".as_ref(), file.as_os_str()]);
    assert!(
        meta.contains("<fx:ConformanceLevel>EN 16931</fx:ConformanceLevel>"),
        "{meta}"
    );
    let info = run("pdfinfo", &[file.as_os_str()]);
    assert!(
        info.lines()
            .any(|l| l.starts_with("Pages:") && l.split_whitespace().nth(1) == Some("1")),
        "{info}"
    );

    // pypdf in strict mode, and the factur-x package's own reader.
    let script = r#"
import sys
from pypdf import PdfReader
import facturx
path = sys.argv[1]
r = PdfReader(path, strict=True)
assert len(r.pages) == 1, len(r.pages)
xmp = r.trailer["/Root"]["/Metadata"].get_object().get_data().decode()
assert "fx:DocumentType" in xmp and "pdfaid:part>3<" in xmp
assert "factur-x.xml" in r.attachments
assert "Rechnung R2611-001" in r.pages[0].extract_text()
name, xml = facturx.get_xml_from_pdf(open(path, "rb").read(), check_xsd=False)
assert name == "factur-x.xml", name
print("ok")
"#;
    let python = validate::python();
    let out = run(
        python.to_str().unwrap(),
        &["-c".as_ref(), script.as_ref(), file.as_os_str()],
    );
    assert!(out.starts_with("ok"), "{out}");
}

#[test]
fn a_plain_pdf_is_refused() {
    let plain = PdfEngine::shared()
        .render_document(&one_page_invoice())
        .unwrap();
    let result = add_xmp_extension(&plain, "factur-x.xml", CONFORMANCE_EN16931);
    assert!(matches!(result, Err(Error::Pdf(_))), "{result:?}");
    assert!(matches!(
        add_xmp_extension(b"not a pdf", "factur-x.xml", "EN 16931"),
        Err(Error::Pdf(_))
    ));
}
