//! Uploaded files (`decisions.md` § Files): base64 decoding, judging the content by its
//! magic bytes (never by name or declared type), size limits, and atomic storage.

use crate::http::error::{ApiError, ApiResult};
use base64::Engine;
use kontor_model::error::messages;
use kontor_model::offer::FileUpload;

/// File kinds Kontor accepts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// `%PDF-`
    Pdf,
    /// PNG signature.
    Png,
    /// JPEG SOI marker.
    Jpeg,
}

impl Kind {
    /// MIME type.
    pub fn content_type(self) -> &'static str {
        match self {
            Kind::Pdf => "application/pdf",
            Kind::Png => "image/png",
            Kind::Jpeg => "image/jpeg",
        }
    }

    /// File extension.
    pub fn extension(self) -> &'static str {
        match self {
            Kind::Pdf => "pdf",
            Kind::Png => "png",
            Kind::Jpeg => "jpg",
        }
    }

    /// The kind of `bytes` judged by their first bytes, if it is one of ours.
    pub fn sniff(bytes: &[u8]) -> Option<Kind> {
        if bytes.starts_with(b"%PDF-") {
            Some(Kind::Pdf)
        } else if bytes.starts_with(&[0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A]) {
            Some(Kind::Png)
        } else if bytes.starts_with(&[0xFF, 0xD8, 0xFF]) {
            Some(Kind::Jpeg)
        } else {
            None
        }
    }
}

/// A checked upload.
pub struct CheckedFile {
    /// File name (path parts removed).
    pub filename: String,
    /// Judged kind.
    pub kind: Kind,
    /// Content.
    pub bytes: Vec<u8>,
}

/// Checks bytes already decoded: non-empty, at most `max` bytes, one of `allowed` kinds.
/// `field` names the content field in errors (422).
pub fn check_bytes(
    filename: &str,
    bytes: Vec<u8>,
    field: &str,
    allowed: &[Kind],
    max: usize,
) -> ApiResult<CheckedFile> {
    if bytes.len() > max {
        return Err(ApiError::field(
            field,
            messages::IS_LARGER_THAN_N_MIB.with([max / (1024 * 1024)]),
        ));
    }
    let names: Vec<_> = allowed
        .iter()
        .map(|k| k.extension().to_uppercase())
        .collect();
    let kind = Kind::sniff(&bytes)
        .filter(|k| allowed.contains(k))
        .ok_or_else(|| {
            ApiError::field(
                field,
                messages::MUST_BE_FILE_OF_KIND_N.with([names.join(", ")]),
            )
        })?;
    let filename = clean_file_name(filename);
    let filename = if filename.is_empty() {
        format!("document.{}", kind.extension())
    } else {
        filename
    };
    Ok(CheckedFile {
        filename,
        kind,
        bytes,
    })
}

/// Whether `c` reorders or hides text direction: the bidi embeddings and overrides
/// U+202A–U+202E, the isolates U+2066–U+2069, and the marks U+200E, U+200F, U+061C.
fn is_bidi_control(c: char) -> bool {
    matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}')
}

/// Widest and highest image Kontor draws into a document (the logo, an image inside an
/// SVG logo): 2,048 pixels. A logo is printed about 5 cm wide, 600 pixels at 300 dpi; a
/// 30,000 × 30,000 pixel PNG fits in 1 MiB and made every PDF take seconds (issue 29).
pub const MAX_IMAGE_SIDE: u32 = 2048;

/// Why a PNG or JPEG cannot be drawn into a document: `None` when its header is readable
/// and it is at most [`MAX_IMAGE_SIDE`] pixels wide and high. Only the header is read (the
/// `image` crate's `into_dimensions`), never the pixels.
pub fn image_size_error(bytes: &[u8]) -> Option<kontor_model::error::Message> {
    let reader = image::ImageReader::new(std::io::Cursor::new(bytes))
        .with_guessed_format()
        .ok()?;
    match reader.into_dimensions() {
        Ok((w, h)) if w <= MAX_IMAGE_SIDE && h <= MAX_IMAGE_SIDE => None,
        Ok((w, h)) => Some(messages::IMAGE_TOO_LARGE_N_N_N.with([w, h, MAX_IMAGE_SIDE])),
        Err(_) => Some(messages::IMAGE_HEADER_UNREADABLE.into()),
    }
}

/// The file name as stored and shown (`docs/decisions.md` § Server hardening): the last
/// path part (after `/` or `\`), without control characters (CR, LF, NUL, every other C0
/// and C1 character, DEL) and without bidi controls, so `"\u{202E}fdp.exe"` is stored
/// as `"fdp.exe"` and cannot pose as `exe.pdf`; surrounding spaces trimmed. Everything
/// else (letters of any script, spaces, punctuation) is kept. May be empty.
pub fn clean_file_name(name: &str) -> String {
    name.rsplit(['/', '\\'])
        .next()
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control() && !is_bidi_control(*c))
        .collect::<String>()
        .trim()
        .to_string()
}

/// Decodes and checks a `{filename, base64}` upload; `prefix` names it in errors
/// (`attachment.base64`). Errors: 422 for a missing name or content, bad base64, a wrong
/// kind or a file over `max` bytes.
pub fn decode_upload(
    upload: &FileUpload,
    prefix: &str,
    allowed: &[Kind],
    max: usize,
) -> ApiResult<CheckedFile> {
    let field = format!("{prefix}.base64");
    let filename = upload
        .filename
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty())
        .ok_or_else(|| ApiError::field(format!("{prefix}.filename"), messages::IS_REQUIRED))?;
    let encoded = upload
        .base64
        .as_deref()
        .filter(|b| !b.is_empty())
        .ok_or_else(|| ApiError::field(&field, messages::IS_REQUIRED))?;
    // Accept data URLs and line-wrapped base64 as browsers and mail tools produce them.
    let encoded = encoded
        .split_once(";base64,")
        .map(|(_, b)| b)
        .unwrap_or(encoded);
    let cleaned: String = encoded.chars().filter(|c| !c.is_whitespace()).collect();
    if cleaned.len() / 4 * 3 > max + 3 {
        return Err(ApiError::field(
            &field,
            messages::IS_LARGER_THAN_N_MIB.with([max / (1024 * 1024)]),
        ));
    }
    let bytes = base64::engine::general_purpose::STANDARD
        .decode(cleaned.as_bytes())
        .map_err(|_| ApiError::field(&field, messages::IS_NOT_VALID_BASE64))?;
    check_bytes(filename, bytes, &field, allowed, max)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn file_names_lose_controls_and_bidi_characters() {
        assert_eq!(clean_file_name("\u{202E}fdp.exe"), "fdp.exe");
        assert_eq!(clean_file_name("a\r\nb\0c.pdf"), "abc.pdf");
        assert_eq!(
            clean_file_name("x\u{2066}y\u{2069}\u{200E}\u{200F}.pdf"),
            "xy.pdf"
        );
        assert_eq!(
            clean_file_name("\u{7}\u{1b}[31m\u{85}red.pdf"),
            "[31mred.pdf"
        );
        assert_eq!(
            clean_file_name("C:\\docs\\Rechnung März.pdf"),
            "Rechnung März.pdf"
        );
        assert_eq!(clean_file_name("../../etc/passwd"), "passwd");
        assert_eq!(
            clean_file_name("  Übersicht 2026 (final).pdf "),
            "Übersicht 2026 (final).pdf"
        );
        assert_eq!(clean_file_name("\u{202E}\r\n"), "");
    }

    #[test]
    fn judges_by_content_not_name() {
        let pdf = FileUpload {
            filename: Some("x.txt".into()),
            base64: Some(base64::engine::general_purpose::STANDARD.encode(b"%PDF-1.7 body")),
        };
        assert_eq!(
            decode_upload(&pdf, "attachment", &[Kind::Pdf], 100)
                .unwrap()
                .kind,
            Kind::Pdf
        );
        let text = FileUpload {
            filename: Some("x.pdf".into()),
            base64: Some(base64::engine::general_purpose::STANDARD.encode(b"hello")),
        };
        assert!(decode_upload(&text, "attachment", &[Kind::Pdf], 100).is_err());
        let bad = FileUpload {
            filename: Some("x.pdf".into()),
            base64: Some("%%%".into()),
        };
        assert!(decode_upload(&bad, "attachment", &[Kind::Pdf], 100).is_err());
        let big = FileUpload {
            filename: Some("x.pdf".into()),
            base64: Some(base64::engine::general_purpose::STANDARD.encode([b'%'; 200])),
        };
        assert!(decode_upload(&big, "attachment", &[Kind::Pdf], 100).is_err());
    }
}
