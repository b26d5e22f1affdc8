//! The XML syntax of an e-invoice, shared by the reader, the server's writer choice and
//! the app's download choice.

/// The XML syntax of an e-invoice.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Syntax {
    /// UN/CEFACT Cross Industry Invoice (D16B), the syntax of Factur-X / ZUGFeRD (the
    /// server's default for XRechnung XML).
    #[default]
    Cii,
    /// OASIS UBL 2.1 (Invoice or CreditNote).
    Ubl,
}

impl Syntax {
    /// `cii` or `ubl` (the wire value of `e_invoice.syntax` and the query value).
    pub fn as_str(self) -> &'static str {
        match self {
            Syntax::Cii => "cii",
            Syntax::Ubl => "ubl",
        }
    }

    /// Reads `cii` / `ubl` (anything else: CII).
    pub fn parse(value: &str) -> Self {
        if value == "ubl" {
            Syntax::Ubl
        } else {
            Syntax::Cii
        }
    }

    /// The label in a syntax choice: `CII` or `UBL`.
    pub fn label(self) -> &'static str {
        match self {
            Syntax::Cii => "CII",
            Syntax::Ubl => "UBL",
        }
    }
}
