//! The Typst engine: fonts loaded once, one template per document kind, and a minimal
//! `World` per render that serves the template, the virtual `data.json` and the logo.

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
        let files = data
            .letterhead
            .logo
            .iter()
            .map(|logo| (file_id(logo.path()), Bytes::new(logo.bytes.clone())))
            .collect();
        self.render_with_files(Template::Document, data, files)
    }

    fn render_with_files(
        &self,
        template: Template,
        data: &impl Serialize,
        files: Vec<(FileId, Bytes)>,
    ) -> Result<Vec<u8>, PdfError> {
        // One render at a time keeps memory bounded; Typst itself uses all cores.
        static SERIAL: Mutex<()> = Mutex::new(());
        let json = serde_json::to_vec(data).map_err(|e| PdfError::Data(e.to_string()))?;
        let main_id = file_id("/main.typ");
        let world = RenderWorld {
            engine: self,
            main: Source::new(main_id, template.source().to_string()),
            data_id: file_id("/data.json"),
            data: Bytes::new(json),
            files,
        };
        let _serial = SERIAL.lock().unwrap_or_else(|e| e.into_inner());
        let result = typst::compile::<PagedDocument>(&world).output;
        let output = match result {
            Ok(document) => {
                let options = typst_pdf::PdfOptions {
                    tagged: false,
                    ..Default::default()
                };
                typst_pdf::pdf(&document, &options).map_err(|e| PdfError::Export(format!("{e:?}")))
            }
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

struct RenderWorld<'a> {
    engine: &'a PdfEngine,
    main: Source,
    data_id: FileId,
    data: Bytes,
    /// Further virtual files (the logo); nothing else is readable.
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
