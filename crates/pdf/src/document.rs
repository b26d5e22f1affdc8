//! What the document template reads (`data.json`): everything already formatted as text
//! by the caller (amounts with their currency, dates in the document's style), so the
//! template only places strings.

use crate::rich_text::Block;
use crate::words::Language;
use serde::{Serialize, Serializer};

/// The image format of a [`Logo`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LogoFormat {
    /// PNG.
    Png,
    /// SVG (sanitized before it is stored: no scripts, no external references).
    Svg,
}

/// The account's logo: the image bytes reach Typst as the virtual file [`Logo::path`]
/// (`/logo.png` or `/logo.svg`); in `data.json` a logo is only that path.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Logo {
    /// PNG or SVG.
    pub format: LogoFormat,
    /// The file's bytes.
    pub bytes: Vec<u8>,
}

impl Logo {
    /// The logo of a stored file by its content type (`image/png`, `image/svg+xml`);
    /// `None` for any other type.
    pub fn from_content_type(content_type: &str, bytes: Vec<u8>) -> Option<Logo> {
        let format = match content_type.split(';').next().unwrap_or("").trim() {
            "image/png" => LogoFormat::Png,
            "image/svg+xml" => LogoFormat::Svg,
            _ => return None,
        };
        Some(Logo { format, bytes })
    }

    /// The virtual path the template opens: `/logo.png` or `/logo.svg`.
    pub fn path(&self) -> &'static str {
        match self.format {
            LogoFormat::Png => "/logo.png",
            LogoFormat::Svg => "/logo.svg",
        }
    }
}

impl Serialize for Logo {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.path())
    }
}

/// The letter paper: sender block, logo and footer line; `show: false` for a blank paper.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Letterhead {
    /// Print the letterhead at all (false: `blank`).
    pub show: bool,
    /// Sender name (top right, bold).
    pub name: String,
    /// Sender address lines.
    pub address_lines: Vec<String>,
    /// The one-line return address above the recipient window.
    pub return_line: String,
    /// Footer line (bank, tax number, …) on every page.
    pub footer_line: String,
    /// Logo text set in the accent colour (a wordmark); empty for none. Printed only
    /// without a [`Letterhead::logo`].
    pub logo_text: String,
    /// The account's logo image (top right, at most 1.6 cm high and the sender column
    /// wide); `None` → [`Letterhead::logo_text`].
    pub logo: Option<Logo>,
    /// The legal footer (§ 14 UStG: name, address, tax number or VAT ID; bank, register,
    /// managing directors, contact) as columns of lines, on every page; empty columns are
    /// left out.
    pub footer_columns: Vec<Vec<String>>,
}

/// One row of the positions table.
#[derive(Clone, Debug, Default, Serialize)]
pub struct Row {
    /// `item`, `title`, `description`, `subtotal` or `separator` (page breaks split
    /// [`DocumentData::sections`]).
    pub kind: String,
    /// Position number of items (`"1"`, `"2"`), empty otherwise.
    pub pos: String,
    /// Title.
    pub title: String,
    /// Description as rich-text blocks.
    pub description: Vec<Block>,
    /// Quantity, formatted.
    pub quantity: String,
    /// Unit.
    pub unit: String,
    /// Unit price, formatted.
    pub unit_price: String,
    /// Net total, formatted (the running sum for subtotals).
    pub net_total: String,
    /// Optional offer position: shown, marked, not counted.
    pub optional: bool,
    /// The position's VAT rate, formatted (`"7 %"`); empty for none. The template shows
    /// the rate column only when some row has one (the caller fills it only when the
    /// document has more than one rate; issue 10).
    pub tax_rate: String,
}

/// One line of the totals block: label, amount, emphasis.
#[derive(Clone, Debug, Default, Serialize)]
pub struct TotalLine {
    /// Label, e.g. `"Net total"`.
    pub label: String,
    /// Formatted amount with currency.
    pub amount: String,
    /// Bold (the gross total).
    pub strong: bool,
}

/// Fixed words the template places itself (table header, page numbers) in the
/// document's language; everything else arrives already worded.
#[derive(Clone, Debug, Serialize)]
pub struct Labels {
    /// The document language's code (`de`, `en`): Typst's `lang` (hyphenation).
    pub lang: String,
    /// Column "Pos.".
    pub pos: String,
    /// Column "Description".
    pub description: String,
    /// Column "Quantity".
    pub quantity: String,
    /// Column "Unit".
    pub unit: String,
    /// Column "Unit price".
    pub unit_price: String,
    /// Column "Total".
    pub total: String,
    /// Column "VAT" (the rate per position, shown only with several rates).
    pub tax_rate: String,
    /// "Subtotal".
    pub subtotal: String,
    /// "optional".
    pub optional: String,
    /// "Page".
    pub page: String,
    /// "of".
    pub of: String,
}

impl Labels {
    /// The labels of `language` (from [`crate::words`]).
    pub fn of(language: Language) -> Self {
        let w = language.words();
        Labels {
            lang: language.code().into(),
            pos: w.pos.into(),
            description: w.description.into(),
            quantity: w.quantity.into(),
            unit: w.unit.into(),
            unit_price: w.unit_price.into(),
            total: w.total.into(),
            tax_rate: w.tax_rate.into(),
            subtotal: w.subtotal.into(),
            optional: w.optional.into(),
            page: w.page.into(),
            of: w.of.into(),
        }
    }
}

impl Default for Labels {
    /// The labels of the default language (German).
    fn default() -> Self {
        Labels::of(Language::default())
    }
}

/// A business document: invoice, offer, reversal, reminder.
#[derive(Clone, Debug, Default, Serialize)]
pub struct DocumentData {
    /// PDF title metadata and heading, e.g. `"Invoice R2611-001"`.
    pub heading: String,
    /// The document's subject line (its title).
    pub subject: String,
    /// Letter paper.
    pub letterhead: Letterhead,
    /// Recipient address lines.
    pub recipient_lines: Vec<String>,
    /// Key facts at the top right: (label, value), e.g. ("Date", "03.11.2026").
    pub meta: Vec<(String, String)>,
    /// Salutation blocks (before the positions).
    pub salutation: Vec<Block>,
    /// Show quantity, unit and unit price columns.
    pub detail_columns: bool,
    /// Positions split at page breaks: each section starts on a new page.
    pub sections: Vec<Vec<Row>>,
    /// Totals block.
    pub totals: Vec<TotalLine>,
    /// Payment terms and notes after the totals (plain lines).
    pub notes: Vec<String>,
    /// Footer text blocks (after the notes).
    pub footer: Vec<Block>,
    /// Fixed words.
    pub labels: Labels,
    /// The Swiss QR-bill (payment part and receipt) at the bottom of the last page, or
    /// on a page of its own; `None` for none.
    pub qr_bill: Option<crate::qr_bill::QrBillData>,
    /// A signed offer's approval page after the document (issue 31); `None` for none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub approval: Option<ApprovalPage>,
    /// The GiroCode beside the payment line (issue 32); `None` for none.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub girocode: Option<GiroCodeData>,
}

/// The GiroCode (EPC QR code, `kontor_model::girocode`) printed beside the payment line:
/// the code as an SVG document ([`crate::qr_bill::plain_qr_svg`]) and its caption.
#[derive(Clone, Debug, Default, Serialize)]
pub struct GiroCodeData {
    /// The QR code, an SVG document.
    pub svg: String,
    /// The line under it ("Pay with your banking app").
    pub caption: String,
}

/// The page that closes an offer signed online (issue 31): a heading, a sentence, the
/// signer's facts as (label, value) lines and, when drawn, the signature image (served
/// to the template as [`ApprovalPage::SIGNATURE_PATH`]).
#[derive(Clone, Debug, Default, Serialize)]
pub struct ApprovalPage {
    /// The heading ("Online approval").
    pub heading: String,
    /// "Erika Mustermann accepted offer A2611-004 online."
    pub sentence: String,
    /// (label, value): name, e-mail, time in UTC, the options taken.
    pub lines: Vec<(String, String)>,
    /// The signature label, printed above the drawing.
    pub signature_label: String,
    /// Whether a drawing is printed.
    pub has_signature: bool,
    /// The drawing (PNG bytes), if any; not part of `data.json`.
    #[serde(skip)]
    pub signature: Option<Vec<u8>>,
}

impl ApprovalPage {
    /// The virtual file the template reads the drawing from.
    pub const SIGNATURE_PATH: &'static str = "/signature.png";
}
