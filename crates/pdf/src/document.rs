//! What the document template reads (`data.json`): everything already formatted as text
//! by the caller (amounts with their currency, dates in the document's style), so the
//! template only places strings.

use crate::rich_text::Block;
use serde::Serialize;

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
    /// Logo text set in the accent colour (a wordmark); empty for none.
    pub logo_text: String,
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

/// Fixed words of the document in its language.
#[derive(Clone, Debug, Serialize)]
pub struct Labels {
    /// Column "Pos.".
    pub pos: String,
    /// Column "Description".
    pub description: String,
    /// Column "Qty".
    pub quantity: String,
    /// Column "Unit".
    pub unit: String,
    /// Column "Unit price".
    pub unit_price: String,
    /// Column "Total".
    pub total: String,
    /// "Subtotal".
    pub subtotal: String,
    /// "optional".
    pub optional: String,
    /// "Page".
    pub page: String,
    /// "of".
    pub of: String,
}

impl Default for Labels {
    fn default() -> Self {
        Labels {
            pos: "Pos.".into(),
            description: "Description".into(),
            quantity: "Qty".into(),
            unit: "Unit".into(),
            unit_price: "Unit price".into(),
            total: "Total".into(),
            subtotal: "Subtotal".into(),
            optional: "optional".into(),
            page: "Page".into(),
            of: "of".into(),
        }
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
}
