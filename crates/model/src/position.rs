//! Position types of invoice and offer items (interface.md § Position types).

use serde::{Deserialize, Serialize};
use std::fmt;

/// An item's `type`: `title`, `description`, `item`, `subtotal`, `page-break`, `separator`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(feature = "openapi", derive(utoipa::ToSchema))]
pub enum PositionType {
    /// A section heading; net_total 0.
    #[serde(rename = "title")]
    Title,
    /// Free text; net_total 0.
    #[serde(rename = "description")]
    Description,
    /// A billed item: quantity × unit price, or a lump sum (net_total only).
    #[serde(rename = "item")]
    Item,
    /// Sum of the items since the previous subtotal; not counted again in the total.
    #[serde(rename = "subtotal")]
    Subtotal,
    /// Starts a new page in the PDF; net_total 0.
    #[serde(rename = "page-break")]
    PageBreak,
    /// A horizontal rule; net_total 0.
    #[serde(rename = "separator")]
    Separator,
}

impl PositionType {
    /// All six types in the order the editor offers them.
    pub const ALL: [PositionType; 6] = [
        PositionType::Item,
        PositionType::Title,
        PositionType::Description,
        PositionType::Subtotal,
        PositionType::PageBreak,
        PositionType::Separator,
    ];

    /// The wire name (`"page-break"`).
    pub fn as_str(self) -> &'static str {
        match self {
            PositionType::Title => "title",
            PositionType::Description => "description",
            PositionType::Item => "item",
            PositionType::Subtotal => "subtotal",
            PositionType::PageBreak => "page-break",
            PositionType::Separator => "separator",
        }
    }

    /// Parses a wire name; `None` for anything else.
    pub fn parse(text: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|t| t.as_str() == text)
    }

    /// A label for people (`"Page break"`).
    pub fn label(self) -> &'static str {
        match self {
            PositionType::Title => "Title",
            PositionType::Description => "Description",
            PositionType::Item => "Item",
            PositionType::Subtotal => "Subtotal",
            PositionType::PageBreak => "Page break",
            PositionType::Separator => "Separator",
        }
    }
}

impl fmt::Display for PositionType {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}
