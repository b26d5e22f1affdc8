use super::*;
use crate::{read, Format};
use std::io::Write;
use zip::write::SimpleFileOptions;
use zip::{CompressionMethod, ZipWriter};

const V02: &str = include_str!("../../tests/data/camt053_v02.xml");
const DE: &str = include_str!("../../tests/data/de_sepa.sta");

fn zip_of(files: &[(&str, &[u8])]) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default().compression_method(CompressionMethod::Deflated);
    for (name, content) in files {
        if name.ends_with('/') {
            writer.add_directory(*name, options).unwrap();
        } else {
            writer.start_file(*name, options).unwrap();
            writer.write_all(content).unwrap();
        }
    }
    writer.finish().unwrap().into_inner()
}

fn too_large(bytes: &[u8]) -> String {
    match read("export.zip", bytes) {
        Err(ReadError::TooLarge(m)) => m,
        other => panic!("expected TooLarge, got {other:?}"),
    }
}

#[test]
fn a_zip_with_two_statements_a_folder_and_a_readme() {
    let zip = zip_of(&[
        ("2026/", b""),
        ("2026/camt053.xml", V02.as_bytes()),
        ("2026/umsatz.STA", DE.as_bytes()),
        ("README.txt", b"Exported by online banking.\n"),
        ("logo.png", b"\x89PNG\r\n\x1a\n"),
        ("__MACOSX/2026/._camt053.xml", b"\0\x05\x16\x07"),
    ]);
    assert!(is_zip(&zip));
    let statements = read("export.zip", &zip).unwrap();
    let formats: Vec<Format> = statements.iter().map(|s| s.format).collect();
    assert_eq!(formats, [Format::Camt053, Format::Mt940, Format::Mt940]);
    assert_eq!(statements[0].entries.len(), 2);
}

#[test]
fn a_deflate_bomb_stops_at_the_limits() {
    // 70 MiB of spaces deflate to about 70 KiB: over the ratio, the per-file and the total limit.
    let zip = bomb(70);
    assert!(zip.len() < 1024 * 1024, "{}", zip.len());
    let started = std::time::Instant::now();
    let m = too_large(&zip);
    assert!(m.contains("times its"), "{m}");
    assert!(started.elapsed().as_secs() < 5);
}

#[test]
fn the_total_and_per_file_limits() {
    // Incompressible-ish files so the ratio is not what stops them.
    let mut state: u32 = 1;
    let mut noise = |n: usize| -> Vec<u8> {
        (0..n)
            .map(|_| {
                state ^= state << 13;
                state ^= state >> 17;
                state ^= state << 5;
                b'a' + (state % 26) as u8
            })
            .collect()
    };
    let big = noise(MAX_STATEMENT_BYTES + 10);
    let m = too_large(&zip_of(&[("big.sta", &big)]));
    assert!(m.contains("big.sta inflates to more than"), "{m}");
    let part = noise(MAX_STATEMENT_BYTES - 10);
    let five: Vec<(String, &[u8])> = (0..5)
        .map(|i| (format!("{i}.sta"), part.as_slice()))
        .collect();
    let five: Vec<(&str, &[u8])> = five.iter().map(|(n, c)| (n.as_str(), *c)).collect();
    // The first file is no statement, so it would fail anyway: the limit must come first.
    let m = too_large(&zip_of(&five));
    assert!(m.contains("more than 67108864 bytes"), "{m}");
}

#[test]
fn too_many_files() {
    let files: Vec<(String, &[u8])> = (0..=MAX_ZIP_FILES)
        .map(|i| (format!("{i}.png"), &b"x"[..]))
        .collect();
    let files: Vec<(&str, &[u8])> = files.iter().map(|(n, c)| (n.as_str(), *c)).collect();
    let m = too_large(&zip_of(&files));
    assert!(m.contains("1001 entries"), "{m}");
}

#[test]
fn not_statements_inside_a_zip_are_named() {
    let invoice = br#"<Invoice xmlns="urn:oasis:names:specification:ubl:schema:xsd:Invoice-2"/>"#;
    let err = read(
        "x.zip",
        &zip_of(&[("a.xml", V02.as_bytes()), ("rechnung.xml", invoice)]),
    )
    .unwrap_err();
    assert!(
        matches!(&err, ReadError::NotAStatement(m) if m.starts_with("rechnung.xml: ")),
        "{err}"
    );
    let inner = zip_of(&[("a.xml", V02.as_bytes())]);
    let err = read("x.zip", &zip_of(&[("inner.zip", &inner)])).unwrap_err();
    assert!(
        matches!(&err, ReadError::NotAStatement(m) if m.contains("inner.zip")),
        "{err}"
    );
    let err = read("x.zip", &zip_of(&[("inner.xml", &inner)])).unwrap_err();
    assert!(
        matches!(&err, ReadError::NotAStatement(m) if m.contains("nested")),
        "{err}"
    );
    let err = read("x.zip", &zip_of(&[("README.txt", b"hello")])).unwrap_err();
    assert!(
        matches!(&err, ReadError::NotAStatement(m) if m.contains("no camt")),
        "{err}"
    );
    let dtd = b"<!DOCTYPE x [<!ENTITY a 'b'>]><Document/>";
    let err = read("x.zip", &zip_of(&[("evil.xml", dtd)])).unwrap_err();
    assert!(
        matches!(&err, ReadError::Unsafe(m) if m.starts_with("evil.xml: ")),
        "{err}"
    );
    let err = read("x.zip", b"PK\x03\x04garbage").unwrap_err();
    assert!(matches!(err, ReadError::Invalid(_)), "{err}");
}

fn bomb(mib: usize) -> Vec<u8> {
    let mut writer = ZipWriter::new(Cursor::new(Vec::new()));
    let options = SimpleFileOptions::default()
        .compression_method(CompressionMethod::Deflated)
        .large_file(false);
    writer.start_file("bomb.xml", options).unwrap();
    let chunk = vec![b' '; 1024 * 1024];
    for _ in 0..mib {
        writer.write_all(&chunk).unwrap();
    }
    writer.finish().unwrap().into_inner()
}

#[test]
fn a_lying_size_header_does_not_help() {
    // The local and central headers claim the 70 MiB entry inflates to 100 bytes: reading
    // goes through take(limit + 1), so the limit holds whatever the header says.
    let mut zip = bomb(70);
    zip[22..26].copy_from_slice(&100u32.to_le_bytes());
    let central = zip.windows(4).position(|w| w == b"PK\x01\x02").unwrap();
    zip[central + 24..central + 28].copy_from_slice(&100u32.to_le_bytes());
    let archive = zip::ZipArchive::new(Cursor::new(&zip[..])).unwrap();
    assert_eq!(archive.decompressed_size(), Some(100), "the header lies");
    match read("x.zip", &zip) {
        Err(ReadError::TooLarge(_)) => {}
        Err(ReadError::Invalid(m)) if m.contains("cannot inflate") => {}
        other => panic!("expected a refusal, got {other:?}"),
    }
}

#[test]
fn entry_kinds() {
    assert_eq!(kind("x/Umsatz.MT940"), Kind::Statement);
    assert_eq!(kind("x/readme.TXT"), Kind::MaybeStatement);
    assert_eq!(kind("x/scan.pdf"), Kind::Skip);
    assert_eq!(kind("x/.hidden.xml"), Kind::Skip);
    assert_eq!(kind("more.ZIP"), Kind::Zip);
}
