//! The Typst engine: fonts loaded once, one template per document kind, and a minimal
//! `World` per render that serves the template, the virtual `data.json`, the logo and, for
//! a PDF/A-3b document with an attached file (Factur-X), that file.

use crate::document::DocumentData;
use serde::Serialize;
use std::sync::{Mutex, OnceLock};
use typst::diag::{FileError, FileResult};
use typst::foundations::{Bytes, Datetime, Duration};
use typst::syntax::{FileId, RootedPath, Source, VirtualPath, VirtualRoot};
use typst::text::{Font, FontBook};
use typst::utils::LazyHash;
use typst::{Library, LibraryExt, World};
use typst_layout::PagedDocument;

/// The document templates.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Template {
    /// Invoices, offers, reversals: letterhead, recipient, positions, totals
    /// (reads [`crate::document::DocumentData`]).
    Document,
}

impl Template {
    fn source(self) -> &'static str {
        match self {
            Template::Document => include_str!("../templates/document.typ"),
        }
    }
}

/// A file embedded in a PDF/A-3b document as an associated file of the whole document
/// (catalog `/AF`) with the relationship `Alternative` (ISO 19005-3 § 6.8; Factur-X 1.0
/// § 6.2.2: the invoice XML is an alternative representation of the printed invoice).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Attachment {
    /// The file name written to the file specification (`/F`, `/UF`) and shown by PDF
    /// readers, e.g. `factur-x.xml`; ASCII letters, digits, `.`, `-` and `_` only (else the
    /// render fails with [`PdfError::Data`]).
    pub file_name: String,
    /// The MIME type (the embedded file stream's `/Subtype`), e.g. `text/xml`.
    pub mime_type: String,
    /// The description (`/Desc`, required by PDF/A-3).
    pub description: String,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

impl Attachment {
    /// The Factur-X / ZUGFeRD 2.x invoice XML (UN/CEFACT CII): `factur-x.xml`, `text/xml`
    /// (Factur-X 1.0 § 6.2.2: the file name is fixed).
    pub fn factur_x(cii_xml: Vec<u8>) -> Self {
        Attachment {
            file_name: "factur-x.xml".into(),
            mime_type: "text/xml".into(),
            description: "Factur-X/ZUGFeRD invoice (EN 16931, UN/CEFACT CII)".into(),
            bytes: cii_xml,
        }
    }

    fn checked_path(&self) -> Result<String, PdfError> {
        let ok = !self.file_name.is_empty()
            && !self.file_name.starts_with('.')
            && self
                .file_name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || matches!(c, '.' | '-' | '_'));
        if ok && self.file_name != "data.json" && self.file_name != "attachment.json" {
            Ok(format!("/{}", self.file_name))
        } else {
            Err(PdfError::Data(format!(
                "attachment file name {:?}: letters, digits, '.', '-', '_' only",
                self.file_name
            )))
        }
    }
}

/// Appended to the template for a PDF/A-3b render: attaches the virtual file that
/// `/attachment.json` names (an element without layout, after all content).
const ATTACH: &str = "\n#{\n  let a = json(\"/attachment.json\")\n  pdf.attach(a.path, relationship: \"alternative\", mime-type: a.mime_type, description: a.description)\n}\n";

/// What a render exports: a plain PDF, or PDF/A-3b with an attached file.
enum Export<'a> {
    Plain,
    PdfA3b(&'a Attachment),
}

/// Why a render failed (a template or engine defect; user data cannot cause it).
#[derive(Debug)]
pub enum PdfError {
    /// Typst reported errors while compiling the template with this data.
    Compile(String),
    /// The PDF export failed.
    Export(String),
    /// The data could not be serialized.
    Data(String),
}

impl std::fmt::Display for PdfError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PdfError::Compile(m) => write!(f, "PDF template error: {m}"),
            PdfError::Export(m) => write!(f, "PDF export error: {m}"),
            PdfError::Data(m) => write!(f, "PDF data error: {m}"),
        }
    }
}

impl std::error::Error for PdfError {}

/// Fonts, font book and standard library, built once and shared by every render.
pub struct PdfEngine {
    library: LazyHash<Library>,
    book: LazyHash<FontBook>,
    fonts: Vec<Font>,
}

fn file_id(path: &str) -> FileId {
    FileId::new(RootedPath::new(
        VirtualRoot::Project,
        VirtualPath::new(path).expect("valid virtual path"),
    ))
}

impl Default for PdfEngine {
    fn default() -> Self {
        Self::new()
    }
}

impl PdfEngine {
    /// Loads the fonts (DejaVu Sans regular, bold, oblique, bold oblique) and the library.
    pub fn new() -> Self {
        let faces = [
            dejavu::sans::regular(),
            dejavu::sans::bold(),
            dejavu::sans::oblique(),
            dejavu::sans::bold_oblique(),
        ];
        let fonts: Vec<Font> = faces
            .into_iter()
            .flat_map(|data| Font::iter(Bytes::new(data)))
            .collect();
        PdfEngine {
            library: LazyHash::new(Library::default()),
            book: LazyHash::new(FontBook::from_fonts(&fonts)),
            fonts,
        }
    }

    /// The process-wide engine (built on first use).
    pub fn shared() -> &'static PdfEngine {
        static ENGINE: OnceLock<PdfEngine> = OnceLock::new();
        ENGINE.get_or_init(PdfEngine::new)
    }

    /// Renders `template` with `data` (serialized to the virtual `data.json`) into PDF
    /// bytes. CPU-bound and multi-threaded: call it from a blocking task.
    ///
    /// Errors: [`PdfError`] when the template fails with this data (a defect of ours).
    pub fn render(&self, template: Template, data: &impl Serialize) -> Result<Vec<u8>, PdfError> {
        self.render_with_files(template, data, Vec::new())
    }

    /// Renders a business document with [`Template::Document`]; its letterhead's logo (if
    /// any) is served to the template as the virtual file [`crate::document::Logo::path`].
    ///
    /// Errors: [`PdfError`] when the template fails with this data (a defect of ours, or a
    /// logo image Typst cannot decode: [`PdfError::Compile`]).
    pub fn render_document(&self, data: &DocumentData) -> Result<Vec<u8>, PdfError> {
        let mut files: Vec<(FileId, Bytes)> = data
            .letterhead
            .logo
            .iter()
            .map(|logo| (file_id(logo.path()), Bytes::new(logo.bytes.clone())))
            .collect();
        if let Some(png) = data.approval.as_ref().and_then(|a| a.signature.as_ref()) {
            files.push((
                file_id(crate::document::ApprovalPage::SIGNATURE_PATH),
                Bytes::new(png.clone()),
            ));
        }
        self.render_with_files(Template::Document, data, files)
    }

    /// Renders a business document like [`PdfEngine::render_document`] but exports it as
    /// PDF/A-3b (ISO 19005-3, level B) with `attachment` embedded as an associated file of
    /// the document (`/AF` on the catalog, `/AFRelationship /Alternative`) — the Factur-X /
    /// ZUGFeRD 2.x container. The creation date (Info, XMP) and the attachment's
    /// modification date are the render time (UTC). The Factur-X XMP extension schema is
    /// not written here (Typst cannot): `kontor_einvoice::facturx::add_xmp_extension`
    /// adds it afterwards.
    ///
    /// PDF/A forbids the `.notdef` glyph: text with characters the document font (DejaVu
    /// Sans) cannot draw — which the plain render prints as empty boxes — is rendered a
    /// second time with those characters replaced by U+FFFD `�` (or `?`).
    ///
    /// Errors: [`PdfError::Data`] for a file name other than letters, digits, `.`, `-`,
    /// `_`; [`PdfError::Compile`] as for [`PdfEngine::render_document`];
    /// [`PdfError::Export`] when the document breaks another PDF/A-3b rule (e.g. a logo
    /// SVG whose text the font cannot draw).
    pub fn render_document_pdfa3(
        &self,
        data: &DocumentData,
        attachment: &Attachment,
    ) -> Result<Vec<u8>, PdfError> {
        let files: Vec<(FileId, Bytes)> = data
            .letterhead
            .logo
            .iter()
            .map(|logo| (file_id(logo.path()), Bytes::new(logo.bytes.clone())))
            .collect();
        let json = serde_json::to_vec(data).map_err(|e| PdfError::Data(e.to_string()))?;
        let export = Export::PdfA3b(attachment);
        match self.render_json(Template::Document, json, files.clone(), &export) {
            Err(PdfError::Export(message)) if message.contains("could not be displayed") => {
                let mut value =
                    serde_json::to_value(data).map_err(|e| PdfError::Data(e.to_string()))?;
                self.replace_undrawable(&mut value);
                let json = serde_json::to_vec(&value).map_err(|e| PdfError::Data(e.to_string()))?;
                self.render_json(Template::Document, json, files, &export)
            }
            result => result,
        }
    }

    /// Replaces, in every string of `value`, the characters that not every face of the
    /// document font has a glyph for (whitespace is kept) by U+FFFD or `?`.
    fn replace_undrawable(&self, value: &mut serde_json::Value) {
        let drawable = |c: char| {
            self.fonts
                .iter()
                .all(|f| f.info().coverage.contains(c as u32))
        };
        let replacement = if drawable('\u{FFFD}') {
            '\u{FFFD}'
        } else {
            '?'
        };
        match value {
            serde_json::Value::String(s)
                if s.chars().any(|c| !c.is_whitespace() && !drawable(c)) =>
            {
                *s = s
                    .chars()
                    .map(|c| {
                        if c.is_whitespace() || drawable(c) {
                            c
                        } else {
                            replacement
                        }
                    })
                    .collect();
            }
            serde_json::Value::Array(items) => {
                items.iter_mut().for_each(|v| self.replace_undrawable(v))
            }
            serde_json::Value::Object(map) => {
                map.values_mut().for_each(|v| self.replace_undrawable(v))
            }
            _ => {}
        }
    }

    fn render_with_files(
        &self,
        template: Template,
        data: &impl Serialize,
        files: Vec<(FileId, Bytes)>,
    ) -> Result<Vec<u8>, PdfError> {
        let json = serde_json::to_vec(data).map_err(|e| PdfError::Data(e.to_string()))?;
        self.render_json(template, json, files, &Export::Plain)
    }

    fn render_json(
        &self,
        template: Template,
        json: Vec<u8>,
        mut files: Vec<(FileId, Bytes)>,
        export: &Export<'_>,
    ) -> Result<Vec<u8>, PdfError> {
        // One render at a time keeps memory bounded; Typst itself uses all cores.
        static SERIAL: Mutex<()> = Mutex::new(());
        let main_id = file_id("/main.typ");
        let mut source = template.source().to_string();
        let mut options = typst_pdf::PdfOptions {
            tagged: false,
            ..Default::default()
        };
        if let Export::PdfA3b(attachment) = export {
            let path = attachment.checked_path()?;
            let spec = serde_json::json!({
                "path": path,
                "mime_type": attachment.mime_type,
                "description": attachment.description,
            });
            files.push((
                file_id("/attachment.json"),
                Bytes::new(spec.to_string().into_bytes()),
            ));
            files.push((file_id(&path), Bytes::new(attachment.bytes.clone())));
            source.push_str(ATTACH);
            options.standards = typst_pdf::PdfStandards::new(&[typst_pdf::PdfStandard::A_3b])
                .map_err(|e| PdfError::Export(e.message().to_string()))?;
            options.timestamp = Some(typst_pdf::Timestamp::new_utc(now_utc()?));
        }
        let world = RenderWorld {
            engine: self,
            main: Source::new(main_id, source),
            data_id: file_id("/data.json"),
            data: Bytes::new(json),
            files,
        };
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let result = typst::compile::<PagedDocument>(&world).output;
        let output = match result {
            Ok(document) => typst_pdf::pdf(&document, &options).map_err(|e| {
                PdfError::Export(
                    e.iter()
                        .map(|d| d.message.to_string())
                        .collect::<Vec<_>>()
                        .join("; "),
                )
            }),
            Err(diagnostics) => Err(PdfError::Compile(
                diagnostics
                    .iter()
                    .map(|d| d.message.to_string())
                    .collect::<Vec<_>>()
                    .join("; "),
            )),
        };
        // Memoized results of other documents only cost memory (see toolchain.md).
        comemo::evict(0);
        output
    }
}

/// The current time (UTC, whole seconds) as a Typst datetime.
/// Errors: [`PdfError::Data`] for a system clock before 1970 or past year 9999.
fn now_utc() -> Result<Datetime, PdfError> {
    let secs = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_err(|_| PdfError::Data("system clock before 1970".into()))?
        .as_secs();
    let days = i64::try_from(secs / 86_400).map_err(|_| PdfError::Data("clock".into()))?;
    let rest = secs % 86_400;
    let (year, month, day) = civil_from_days(days);
    let hms = |v: u64| u8::try_from(v).map_err(|_| PdfError::Data("clock".into()));
    Datetime::from_ymd_hms(
        i32::try_from(year).map_err(|_| PdfError::Data("clock".into()))?,
        month,
        day,
        hms(rest / 3600)?,
        hms(rest % 3600 / 60)?,
        hms(rest % 60)?,
    )
    .ok_or_else(|| PdfError::Data("system clock out of range".into()))
}

/// The proleptic Gregorian date of `days` since 1970-01-01 (H. Hinnant's `civil_from_days`).
fn civil_from_days(days: i64) -> (i64, u8, u8) {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    // day is in 1..=31 and month in 1..=12 by construction.
    (year, month as u8, day as u8)
}

struct RenderWorld<'a> {
    engine: &'a PdfEngine,
    main: Source,
    data_id: FileId,
    data: Bytes,
    /// Further virtual files (the logo; for PDF/A-3b the attachment and its
    /// `/attachment.json`); nothing else is readable.
    files: Vec<(FileId, Bytes)>,
}

impl World for RenderWorld<'_> {
    fn library(&self) -> &LazyHash<Library> {
        &self.engine.library
    }

    fn book(&self) -> &LazyHash<FontBook> {
        &self.engine.book
    }

    fn main(&self) -> FileId {
        self.main.id()
    }

    fn source(&self, id: FileId) -> FileResult<Source> {
        if id == self.main.id() {
            Ok(self.main.clone())
        } else {
            Err(FileError::AccessDenied)
        }
    }

    fn file(&self, id: FileId) -> FileResult<Bytes> {
        if id == self.data_id {
            return Ok(self.data.clone());
        }
        self.files
            .iter()
            .find(|(file, _)| *file == id)
            .map(|(_, bytes)| bytes.clone())
            .ok_or(FileError::AccessDenied)
    }

    fn font(&self, index: usize) -> Option<Font> {
        self.engine.fonts.get(index).cloned()
    }

    fn today(&self, _offset: Option<Duration>) -> Option<Datetime> {
        None
    }
}

#[cfg(test)]
mod tests {
    use super::civil_from_days;

    #[test]
    fn days_since_the_epoch_become_calendar_dates() {
        assert_eq!(civil_from_days(0), (1970, 1, 1));
        assert_eq!(civil_from_days(59), (1970, 3, 1));
        assert_eq!(civil_from_days(11_016), (2000, 2, 29));
        assert_eq!(civil_from_days(20_780), (2026, 11, 23));
        assert_eq!(civil_from_days(-1), (1969, 12, 31));
    }
}
