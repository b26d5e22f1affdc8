//! A message as the inbox reads it (issue 36): its `Message-ID`, sender, subject and date,
//! and the documents it carries — every attachment that is a PDF or XML by its bytes,
//! also inside a ZIP — with limits on counts and sizes, a ZIP's entries checked while they
//! inflate. Pure and synchronous: the poll runs it as bounded CPU work.

use chrono::{DateTime, Utc};
use kontor_model::inbox::{attachment_kind, AttachmentKind};
use mail_parser::{MessageParser, MimeHeaders};
use std::io::Read;

/// Most documents taken from one message (attachments and ZIP entries together).
pub const MAX_DOCUMENTS: usize = 20;
/// Most entries of one ZIP looked at.
pub const MAX_ZIP_ENTRIES: usize = 100;
/// Most bytes all entries of one ZIP may inflate to together.
pub const MAX_ZIP_TOTAL: u64 = 50 * 1024 * 1024;

/// One document of a message: its file name (cleaned; may be empty) and bytes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// File name as attached (or the ZIP entry's, without folders).
    pub filename: String,
    /// The bytes.
    pub bytes: Vec<u8>,
    /// PDF or XML.
    pub kind: AttachmentKind,
}

/// What the inbox keeps of a message (`default()`: a message whose structure could not be
/// read — no headers, no documents).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Received {
    /// `Message-ID` without angle brackets, at most 500 characters; `None` without one.
    pub message_id: Option<String>,
    /// The sender's address (`From`, first address), `""` without one.
    pub from: String,
    /// The subject, at most 500 characters.
    pub subject: String,
    /// The `Date` header in UTC; `None` when missing or unreadable.
    pub date: Option<DateTime<Utc>>,
    /// The PDF and XML documents, in attachment order.
    pub documents: Vec<Document>,
    /// Sentences for attachments that were skipped (too large, too many, a broken ZIP).
    pub skipped: Vec<String>,
}

fn cut(text: &str, max: usize) -> String {
    text.chars()
        .filter(|c| !c.is_control())
        .take(max)
        .collect::<String>()
        .trim()
        .to_string()
}

/// Reads `raw` (an RFC 5322 message). Errors: a sentence when it is no message at all.
pub fn read(raw: &[u8]) -> Result<Received, String> {
    let message = MessageParser::default()
        .parse(raw)
        .ok_or_else(|| "the message cannot be read as an e-mail".to_string())?;
    let mut received = Received {
        message_id: message
            .message_id()
            .map(|id| cut(id.trim_matches(['<', '>']), 500))
            .filter(|id| !id.is_empty()),
        from: message
            .from()
            .and_then(|a| a.first())
            .and_then(|a| a.address())
            .map(|a| cut(a, 320))
            .unwrap_or_default(),
        subject: message.subject().map(|s| cut(s, 500)).unwrap_or_default(),
        date: message
            .date()
            .and_then(|d| DateTime::from_timestamp(d.to_timestamp(), 0)),
        documents: Vec::new(),
        skipped: Vec::new(),
    };
    for part in message.attachments() {
        let name = crate::input::uploads::clean_file_name(part.attachment_name().unwrap_or(""));
        let bytes = part.contents();
        take(&mut received, &name, bytes);
    }
    Ok(received)
}

/// Adds the document(s) of one attachment.
fn take(received: &mut Received, name: &str, bytes: &[u8]) {
    match attachment_kind(bytes) {
        AttachmentKind::Pdf | AttachmentKind::Xml => push(received, name, bytes.to_vec()),
        AttachmentKind::Zip => unzip(received, name, bytes),
        AttachmentKind::Other => {}
    }
}

fn push(received: &mut Received, name: &str, bytes: Vec<u8>) {
    let label = if name.is_empty() {
        "an attachment"
    } else {
        name
    };
    if received.documents.len() >= MAX_DOCUMENTS {
        received.skipped.push(format!(
            "{label}: more than {MAX_DOCUMENTS} documents in one message; the rest was not read"
        ));
    } else if bytes.len() > crate::purchases::MAX_DOCUMENT {
        received.skipped.push(format!(
            "{label}: larger than {} MiB",
            crate::purchases::MAX_DOCUMENT / (1024 * 1024)
        ));
    } else {
        let kind = attachment_kind(&bytes);
        received.documents.push(Document {
            filename: name.to_string(),
            bytes,
            kind,
        });
    }
}

/// The PDF and XML entries of the ZIP `bytes` (not ZIPs within it), each inflated to at
/// most the document limit plus one byte and all to at most [`MAX_ZIP_TOTAL`].
fn unzip(received: &mut Received, name: &str, bytes: &[u8]) {
    let mut archive = match zip::ZipArchive::new(std::io::Cursor::new(bytes)) {
        Ok(a) => a,
        Err(e) => {
            received
                .skipped
                .push(format!("{name}: not a readable ZIP ({e})"));
            return;
        }
    };
    let limit = crate::purchases::MAX_DOCUMENT as u64;
    let mut total = 0u64;
    for i in 0..archive.len().min(MAX_ZIP_ENTRIES) {
        let mut entry = match archive.by_index(i) {
            Ok(e) => e,
            Err(e) => {
                received
                    .skipped
                    .push(format!("{name}: entry {i} unreadable ({e})"));
                continue;
            }
        };
        if entry.is_dir() {
            continue;
        }
        let entry_name = entry
            .enclosed_name()
            .and_then(|p| p.file_name().map(|f| f.to_string_lossy().into_owned()))
            .map(|f| crate::input::uploads::clean_file_name(&f))
            .unwrap_or_default();
        let mut out = Vec::new();
        // Checked while inflating: never more than the limit plus one byte is held.
        let read = (&mut entry).take(limit + 1).read_to_end(&mut out);
        if let Err(e) = read {
            received
                .skipped
                .push(format!("{name}/{entry_name}: cannot be unpacked ({e})"));
            continue;
        }
        total += out.len() as u64;
        if out.len() as u64 > limit {
            received.skipped.push(format!(
                "{name}/{entry_name}: larger than {} MiB unpacked",
                limit / (1024 * 1024)
            ));
        } else if total > MAX_ZIP_TOTAL {
            received.skipped.push(format!(
                "{name}: unpacks to more than {} MiB; the rest was not read",
                MAX_ZIP_TOTAL / (1024 * 1024)
            ));
            return;
        } else if matches!(
            attachment_kind(&out),
            AttachmentKind::Pdf | AttachmentKind::Xml
        ) {
            push(received, &entry_name, out);
        }
    }
    if archive.len() > MAX_ZIP_ENTRIES {
        received.skipped.push(format!(
            "{name}: more than {MAX_ZIP_ENTRIES} entries; the rest was not read"
        ));
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Write;

    fn zip_of(entries: &[(&str, &[u8])]) -> Vec<u8> {
        let mut out = std::io::Cursor::new(Vec::new());
        {
            let mut w = zip::ZipWriter::new(&mut out);
            for (name, bytes) in entries {
                w.start_file(*name, zip::write::SimpleFileOptions::default())
                    .unwrap();
                w.write_all(bytes).unwrap();
            }
            w.finish().unwrap();
        }
        out.into_inner()
    }

    fn message_with(attachments: &[(&str, &str, &[u8])]) -> Vec<u8> {
        use base64::Engine;
        let mut m = String::from(
            "From: Lieferant <rechnung@lieferant.example>\r\nTo: office@example.com\r\n\
             Subject: Rechnung 4711\r\nDate: Mon, 30 Nov 2026 08:15:00 +0100\r\n\
             Message-ID: <abc@lieferant.example>\r\nMIME-Version: 1.0\r\n\
             Content-Type: multipart/mixed; boundary=\"XX\"\r\n\r\n--XX\r\n\
             Content-Type: text/plain\r\n\r\nAnbei die Rechnung.\r\n",
        );
        for (name, ty, bytes) in attachments {
            m.push_str(&format!(
                "--XX\r\nContent-Type: {ty}; name=\"{name}\"\r\nContent-Disposition: attachment; filename=\"{name}\"\r\nContent-Transfer-Encoding: base64\r\n\r\n{}\r\n",
                base64::engine::general_purpose::STANDARD.encode(bytes)
            ));
        }
        m.push_str("--XX--\r\n");
        m.into_bytes()
    }

    #[test]
    fn headers_and_documents_are_read() {
        let raw = message_with(&[
            (
                "r.xml",
                "application/xml",
                b"<?xml version=\"1.0\"?><Invoice/>",
            ),
            ("logo.png", "image/png", b"\x89PNG\r\n\x1a\n"),
            ("scan.pdf", "application/octet-stream", b"%PDF-1.4\n%%EOF"),
        ]);
        let r = read(&raw).unwrap();
        assert_eq!(r.message_id.as_deref(), Some("abc@lieferant.example"));
        assert_eq!(r.from, "rechnung@lieferant.example");
        assert_eq!(r.subject, "Rechnung 4711");
        assert_eq!(r.date.unwrap().to_rfc3339(), "2026-11-30T07:15:00+00:00");
        let names: Vec<&str> = r.documents.iter().map(|d| d.filename.as_str()).collect();
        assert_eq!(names, ["r.xml", "scan.pdf"]);
    }

    #[test]
    fn a_zip_gives_its_documents_and_a_bomb_is_cut_while_inflating() {
        let zip = zip_of(&[
            ("a/one.xml", b"<Invoice/>"),
            ("two.pdf", b"%PDF-1.7\n"),
            ("notes.txt", b"hello"),
        ]);
        let r = read(&message_with(&[("all.zip", "application/zip", &zip)])).unwrap();
        let names: Vec<&str> = r.documents.iter().map(|d| d.filename.as_str()).collect();
        assert_eq!(names, ["one.xml", "two.pdf"]);

        let big = vec![b' '; crate::purchases::MAX_DOCUMENT + 10];
        let mut xml = b"<a/>".to_vec();
        xml.extend_from_slice(&big);
        let bomb = zip_of(&[("bomb.xml", &xml)]);
        assert!(bomb.len() < 100_000, "deflated to {}", bomb.len());
        let r = read(&message_with(&[("bomb.zip", "application/zip", &bomb)])).unwrap();
        assert!(r.documents.is_empty());
        assert!(
            r.skipped[0].contains("larger than 10 MiB unpacked"),
            "{:?}",
            r.skipped
        );
    }

    #[test]
    fn broken_input_is_no_panic() {
        let r = read(&message_with(&[(
            "x.zip",
            "application/zip",
            b"PK\x03\x04broken",
        )]))
        .unwrap();
        assert!(r.documents.is_empty() && !r.skipped.is_empty());
        assert!(read(b"").is_err() || read(b"").unwrap().documents.is_empty());
        let many: Vec<(&str, &str, &[u8])> = (0..25)
            .map(|_| ("n.xml", "text/xml", &b"<x/>"[..]))
            .collect();
        let r = read(&message_with(&many)).unwrap();
        assert_eq!(r.documents.len(), MAX_DOCUMENTS);
    }
}
