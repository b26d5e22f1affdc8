//! Unit tests of `pdf_limits` (kept apart so the module itself stays short).

use super::*;
use std::io::Write;

#[path = "../../tests/support/plain_pdf.rs"]
mod plain_pdf;

use plain_pdf::{pdf_of as pdf, stream};

fn zlib(data: &[u8]) -> Vec<u8> {
    let mut e = flate2::write::ZlibEncoder::new(Vec::new(), flate2::Compression::best());
    e.write_all(data).unwrap();
    e.finish().unwrap()
}

fn reason(pdf: &[u8]) -> String {
    match check(pdf) {
        Err(Error::Pdf(why)) => why,
        other => panic!("expected a refusal, got {other:?}"),
    }
}

const CATALOG: &[u8] = b"<< /Type /Catalog >>";

#[test]
fn the_test_files_are_real_pdfs_that_a_reader_parses() {
    // The shallow and small versions of every file below load: the deep and large
    // ones would reach the reader's recursion and inflation without the check.
    let shallow = pdf(&[
        CATALOG.to_vec(),
        format!("{}{}", "[".repeat(8), "]".repeat(8)).into_bytes(),
    ]);
    check(&shallow).unwrap();
    lopdf::Document::load_mem(&shallow).unwrap();
    let objects = zlib(b"3 0 [[1]]");
    let small = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", &objects),
    ]);
    check(&small).unwrap();
    let doc = lopdf::Document::load_mem(&small).unwrap();
    assert!(
        doc.objects.contains_key(&(3, 0)),
        "the reader took the object stream apart"
    );
}

#[test]
fn deep_arrays_and_dictionaries_are_refused() {
    let deep = pdf(&[
        CATALOG.to_vec(),
        format!("{}{}", "[".repeat(1000), "]".repeat(1000)).into_bytes(),
    ]);
    assert!(reason(&deep).contains("more than 32 levels"));
    let dicts = pdf(&[CATALOG.to_vec(), "<</A ".repeat(40).into_bytes()]);
    assert!(reason(&dicts).contains("more than 32 levels"));
    let fine = pdf(&[
        CATALOG.to_vec(),
        format!("{}{}", "[".repeat(32), "]".repeat(32)).into_bytes(),
    ]);
    check(&fine).unwrap();
    // Brackets inside strings and comments do not count.
    let quoted = pdf(&[
        CATALOG.to_vec(),
        format!(
            "[({}) <{}>]\n%{}\n",
            "[".repeat(100),
            "ab".repeat(10),
            "[".repeat(100)
        )
        .into_bytes(),
    ]);
    check(&quoted).unwrap();
    // A deep trailer.
    let mut trailer = pdf(&[CATALOG.to_vec()]);
    trailer.extend_from_slice(format!("trailer\n<< /X {} >>\n", "[".repeat(100)).as_bytes());
    assert!(reason(&trailer).contains("more than 32 levels"));
}

#[test]
fn stray_bytes_between_objects_cannot_hide_an_object() {
    // An unclosed `(` and `[` before the deep object: each object is read from its own
    // header, as the reader does.
    let mut junk = b"%PDF-1.7\n( [ << \n".to_vec();
    junk.extend_from_slice(
        &pdf(&[
            CATALOG.to_vec(),
            format!("{}{}", "[".repeat(500), "]".repeat(500)).into_bytes(),
        ])[9..],
    );
    assert!(reason(&junk).contains("more than 32 levels"));
}

#[test]
fn a_double_deflated_embedded_file_bomb_is_refused_while_inflating() {
    let huge = vec![b'<'; 64 * 1024 * 1024];
    let twice = zlib(&zlib(&huge));
    assert!(twice.len() < 64 * 1024, "{}", twice.len());
    let bomb = pdf(&[
        CATALOG.to_vec(),
        stream(
            "/Type /EmbeddedFile /Filter [/FlateDecode /FlateDecode]",
            &twice,
        ),
    ]);
    assert!(reason(&bomb).contains("decompresses to more than 16 MiB"));
}

#[test]
fn object_stream_bombs_and_deep_object_streams_are_refused() {
    let bomb = zlib(&vec![b' '; 40 * 1024 * 1024]);
    let file = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", &bomb),
    ]);
    assert!(reason(&file).contains("more than 16 MiB"));
    // The escaped name is an object stream too.
    let file = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /Obj#53tm /N 1 /First 4 /Filter /Fl", &bomb),
    ]);
    assert!(reason(&file).contains("more than 16 MiB"));
    let deep = zlib(format!("3 0 {}{}", "[".repeat(500), "]".repeat(500)).as_bytes());
    let file = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /ObjStm /N 1 /First 4 /Filter /FlateDecode", &deep),
    ]);
    assert!(reason(&file).contains("more than 32 levels"));
    // An object whose offset the header names, after junk that would hide it.
    let hidden = zlib(format!("3 10 ( [[[[[[ {}", "[".repeat(500)).as_bytes());
    let file = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /ObjStm /N 1 /First 5 /Filter /FlateDecode", &hidden),
    ]);
    assert!(reason(&file).contains("more than 32 levels"));
    // Several streams each under the limit add up.
    let part = zlib(&vec![b' '; 15 * 1024 * 1024]);
    let objects: Vec<Vec<u8>> = std::iter::once(CATALOG.to_vec())
        .chain((0..6).map(|_| stream("/Type /XRef /W [1 2 1] /Filter /FlateDecode", &part)))
        .collect();
    assert!(reason(&pdf(&objects)).contains("streams decompress to more than 64 MiB"));
}

#[test]
fn the_ways_around_a_scanner_are_closed() {
    let bomb = zlib(&vec![b' '; 40 * 1024 * 1024]);
    // A comment between the dictionary and `stream`, and spaces after `stream`.
    let mut commented = format!(
        "<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length {} >> % x\nstream   \n",
        bomb.len()
    )
    .into_bytes();
    commented.extend_from_slice(&bomb);
    commented.extend_from_slice(b"\nendstream");
    assert!(reason(&pdf(&[CATALOG.to_vec(), commented])).contains("more than 16 MiB"));
    // A decoy /Filter key before the real one.
    let decoy = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /ObjStm /X /Filter /Filter /FlateDecode", &bomb),
    ]);
    assert!(reason(&decoy).contains("names its /Filter twice"));
    // `endstream` inside the data: the /Length decides, and must end at endstream.
    let mut tricky = bomb.clone();
    tricky.extend_from_slice(b"\nendstream\n");
    let early = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /ObjStm /Filter /FlateDecode", &tricky),
    ]);
    assert!(reason(&early).contains("more than 16 MiB"));
    let mut lying = b"<< /Type /ObjStm /Filter /FlateDecode /Length 3 >>\nstream\n".to_vec();
    lying.extend_from_slice(&bomb);
    lying.extend_from_slice(b"\nendstream");
    assert!(reason(&pdf(&[CATALOG.to_vec(), lying])).contains("where its /Length says"));
    // An indirect /Length is followed to its object.
    let mut indirect =
        b"<< /Type /ObjStm /N 1 /First 4 /Filter /FlateDecode /Length 3 0 R >>\nstream\n".to_vec();
    indirect.extend_from_slice(&bomb);
    indirect.extend_from_slice(b"\nendstream");
    let file = pdf(&[
        CATALOG.to_vec(),
        indirect,
        bomb.len().to_string().into_bytes(),
    ]);
    assert!(reason(&file).contains("more than 16 MiB"));
    // A PNG predictor row of a billion columns.
    let small = zlib(b"1 2 3");
    let predictor = pdf(&[CATALOG.to_vec(), stream("/Type /XRef /W [1 2 1] /Filter /FlateDecode /DecodeParms << /Predictor 12 /Columns 1000000000 >>", &small)]);
    assert!(reason(&predictor).contains("predictor parameters"));
}

#[test]
fn other_filters_on_read_streams_and_lzw_are_refused() {
    let file = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /ObjStm /Filter /ASCII85Decode", b"z~>"),
    ]);
    assert!(reason(&file).contains("ASCII85Decode filter"));
    let file = pdf(&[CATALOG.to_vec(), stream("/Filter /LZWDecode", b"xx")]);
    assert!(reason(&file).contains("LZW"));
    let file = pdf(&[
        CATALOG.to_vec(),
        stream("/Type /EmbeddedFile /Filter [/Fl /Fl /Fl]", b"xx"),
    ]);
    assert!(reason(&file).contains("more than 2 times"));
    // An image's own compression is never inflated here.
    let image = zlib(&vec![0u8; 40 * 1024 * 1024]);
    check(&pdf(&[
        CATALOG.to_vec(),
        stream("/Subtype /Image /Filter /FlateDecode", &image),
    ]))
    .unwrap();
}

#[test]
fn inflate_keeps_within_its_cap_and_tolerates_damage() {
    let data = zlib(&vec![7u8; 100_000]);
    assert_eq!(inflate(&data, 100_000).unwrap().len(), 100_000);
    assert!(inflate(&data, 99_999).is_err());
    let cut = &data[..data.len() / 2];
    assert!(inflate(cut, 100_000).unwrap().len() < 100_000);
    assert!(inflate(b"not zlib", 10).unwrap().is_empty());
}

#[test]
fn too_many_tokens_and_overlapping_objects_are_refused() {
    let many = pdf(&[
        CATALOG.to_vec(),
        format!("[{}]", "1 ".repeat(MAX_TOKENS)).into_bytes(),
    ]);
    assert!(reason(&many).contains("more than 2000000 objects"));
    // Thousands of object headers inside one long string: each would be read again.
    let mut overlapping = b"%PDF-1.7\n1 0 obj\n(".to_vec();
    for n in 0..20_000 {
        overlapping.extend_from_slice(format!("{n} 0 obj ").as_bytes());
    }
    overlapping.extend_from_slice(b")\nendobj\n");
    assert!(reason(&overlapping).contains("overlap"));
}
