//! The audit trail's keys (issue 29 § A trail nobody can rewrite; `docs/decisions.md`
//! § Proof, "The audit trail's key").
//!
//! The hash chain of `audit_events` and the manifest of every backup are HMAC-SHA256
//! values under a secret that never lives in the database: with the database file alone
//! nobody can recompute the chain after editing an event (or an invoice behind the
//! triggers' back), nor re-sign an edited backup.
//!
//! **The key file** is `<data>/audit.key` (`KONTOR_AUDIT_KEY_FILE` names another one, e.g.
//! one file shared by several server processes), created with mode 0600 on the first
//! start. Lines:
//! - `key <fingerprint> <secret>`: a key, 32 random bytes as hex; the fingerprint is the
//!   first 8 hex digits of the SHA-256 of the secret and is stored with every sealed event
//!   (`<fingerprint>:<hmac hex>`), so a verifier knows which key to use. The **last** key
//!   seals new events.
//! - `legacy <id> <hash>`: written once, when the key was created for a trail that already
//!   had events sealed without a key (before issue 29): those events verify as plain
//!   SHA-256 up to event `<id>`, whose hash must be `<hash>` — held outside the database,
//!   so they cannot be rewritten either.
//!
//! **Rotation** (`kontor-server audit rotate-key`) appends a new key; older keys stay in the
//! file to verify what they sealed. Keep a copy of the file apart from the backups: a
//! restore needs it.
//!
//! Each open database registers the keys of its data directory ([`register`]); the seal
//! of a write transaction finds them by the database ([`for_db`]).

use hmac::{Hmac, Mac};
use sha2::{Digest, Sha256};
use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex, OnceLock};

/// The default key file name inside the data directory.
pub const KEY_FILE: &str = "audit.key";

/// The keys of one installation.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Keyring {
    /// (fingerprint, secret), oldest first; the last one seals.
    keys: Vec<(String, Vec<u8>)>,
    /// The last event sealed without a key and its hash, when the trail had such events.
    pub legacy: Option<(i64, String)>,
}

/// The fingerprint of `secret`: 8 hex digits of its SHA-256.
fn fingerprint(secret: &[u8]) -> String {
    hex::encode(Sha256::digest(secret))[..8].to_string()
}

impl Keyring {
    /// A keyring of one fresh random key (and the legacy anchor, if any).
    pub fn generate(legacy: Option<(i64, String)>) -> Keyring {
        let secret: [u8; 32] = rand::random();
        Keyring {
            keys: vec![(fingerprint(&secret), secret.to_vec())],
            legacy,
        }
    }

    /// The fingerprint of the key that seals.
    pub fn current(&self) -> &str {
        &self.keys.last().expect("a keyring has a key").0
    }

    /// `fingerprint:hex(HMAC-SHA256(key, parts…))` with the sealing key.
    pub fn sign(&self, parts: &[&[u8]]) -> String {
        let (fp, secret) = self.keys.last().expect("a keyring has a key");
        format!("{fp}:{}", mac(secret, parts))
    }

    /// Whether `signature` (`fingerprint:hex`) is the HMAC of `parts` under the key it
    /// names. Errors: the key is not in this keyring, or the value does not match (as a
    /// sentence).
    pub fn check(&self, signature: &str, parts: &[&[u8]]) -> Result<(), String> {
        let Some((fp, value)) = signature.split_once(':') else {
            return Err("it carries no key fingerprint".into());
        };
        let Some((_, secret)) = self.keys.iter().find(|(f, _)| f == fp) else {
            return Err(format!(
                "it is sealed with audit key {fp}, which is not in the key file"
            ));
        };
        let mut m = Hmac::<Sha256>::new_from_slice(secret).expect("any key length");
        for p in parts {
            m.update(p);
        }
        let expected = hex::decode(value).map_err(|_| "its seal is not hex".to_string())?;
        m.verify_slice(&expected)
            .map_err(|_| "its seal does not match (changed, or sealed with another key)".into())
    }

    /// A value derived from the key with fingerprint `fp` (the sealing key when `None`)
    /// for `purpose`: `(fingerprint, hex(HMAC-SHA256(key, purpose, input)))` — 64 hex
    /// digits nobody computes without the key file (online approval tokens, issue 31).
    /// `None` when the keyring has no key `fp`.
    pub fn derive(
        &self,
        fp: Option<&str>,
        purpose: &[u8],
        input: &[u8],
    ) -> Option<(String, String)> {
        let (fp, secret) = match fp {
            Some(fp) => self.keys.iter().find(|(f, _)| f == fp)?,
            None => self.keys.last()?,
        };
        Some((fp.clone(), mac(secret, &[purpose, b"\n", input])))
    }

    /// Whether the key with fingerprint `fp` is in this keyring.
    pub fn knows(&self, fp: &str) -> bool {
        self.keys.iter().any(|(f, _)| f == fp)
    }

    /// A new key appended (it seals from now on); returns its fingerprint.
    pub fn rotate(&mut self) -> String {
        let secret: [u8; 32] = rand::random();
        let fp = fingerprint(&secret);
        self.keys.push((fp.clone(), secret.to_vec()));
        fp
    }

    /// The key file's text.
    pub fn to_text(&self) -> String {
        let mut out = String::from(
            "# Kontor audit trail keys (docs/decisions.md § Proof). Keep a copy apart from the\n\
             # backups: restoring a backup and verifying the trail need it. The last key seals.\n",
        );
        if let Some((id, hash)) = &self.legacy {
            out.push_str(&format!("legacy {id} {hash}\n"));
        }
        for (fp, secret) in &self.keys {
            out.push_str(&format!("key {fp} {}\n", hex::encode(secret)));
        }
        out
    }

    /// Reads a key file's text. Errors: a malformed line, a fingerprint that does not
    /// match its secret, no key (as a sentence).
    pub fn parse(text: &str) -> Result<Keyring, String> {
        let mut keys = Vec::new();
        let mut legacy = None;
        for (n, line) in text.lines().enumerate() {
            let line = line.trim();
            if line.is_empty() || line.starts_with('#') {
                continue;
            }
            let parts: Vec<&str> = line.split_whitespace().collect();
            match parts.as_slice() {
                ["key", fp, secret] => {
                    let secret = hex::decode(secret)
                        .ok()
                        .filter(|s| s.len() >= 16)
                        .ok_or_else(|| {
                            format!("line {}: the key is not hex of 16 bytes or more", n + 1)
                        })?;
                    if fingerprint(&secret) != *fp {
                        return Err(format!(
                            "line {}: the fingerprint does not match the key",
                            n + 1
                        ));
                    }
                    keys.push((fp.to_string(), secret));
                }
                ["legacy", id, hash] => {
                    let id = id
                        .parse()
                        .map_err(|_| format!("line {}: not an event id", n + 1))?;
                    legacy = Some((id, hash.to_string()));
                }
                _ => return Err(format!("line {}: not `key …` or `legacy …`", n + 1)),
            }
        }
        if keys.is_empty() {
            return Err("it holds no key".into());
        }
        Ok(Keyring { keys, legacy })
    }
}

/// hex HMAC-SHA256 of the concatenated `parts` under `secret`.
fn mac(secret: &[u8], parts: &[&[u8]]) -> String {
    let mut m = Hmac::<Sha256>::new_from_slice(secret).expect("any key length");
    for p in parts {
        m.update(p);
    }
    hex::encode(m.finalize().into_bytes())
}

/// The key file of `data_dir`: `KONTOR_AUDIT_KEY_FILE` when set, else `<data>/audit.key`.
pub fn key_file(data_dir: &Path) -> PathBuf {
    match std::env::var("KONTOR_AUDIT_KEY_FILE") {
        Ok(path) if !path.trim().is_empty() => PathBuf::from(path.trim()),
        _ => data_dir.join(KEY_FILE),
    }
}

/// The keyring in `path`, or `None` when the file does not exist. Errors: unreadable or
/// malformed (naming the file).
pub fn load(path: &Path) -> Result<Option<Keyring>, String> {
    match std::fs::read_to_string(path) {
        Ok(text) => Keyring::parse(&text)
            .map(Some)
            .map_err(|e| format!("the audit key file {}: {e}", path.display())),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(format!(
            "cannot read the audit key file {}: {e}",
            path.display()
        )),
    }
}

/// Writes `keyring` to `path` (mode 0600, synced; replacing the file atomically).
/// Errors: the file system's, as a sentence.
pub fn save(path: &Path, keyring: &Keyring) -> Result<(), String> {
    use std::io::Write;
    let err =
        |e: std::io::Error| format!("cannot write the audit key file {}: {e}", path.display());
    if let Some(dir) = path.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(dir).map_err(err)?;
    }
    let part = PathBuf::from(format!("{}.part", path.display()));
    let mut options = std::fs::OpenOptions::new();
    options.write(true).create(true).truncate(true);
    #[cfg(unix)]
    {
        use std::os::unix::fs::OpenOptionsExt;
        options.mode(0o600);
    }
    let mut file = options.open(&part).map_err(err)?;
    file.write_all(keyring.to_text().as_bytes()).map_err(err)?;
    file.sync_all().map_err(err)?;
    drop(file);
    std::fs::rename(&part, path).map_err(err)
}

/// Creates the key file `path` holding `keyring` unless another process created it
/// first, and returns the keyring the file holds then (so processes starting together
/// agree on one key). Errors: the file system's, as a sentence.
pub fn create(path: &Path, keyring: &Keyring) -> Result<Keyring, String> {
    let unique = PathBuf::from(format!(
        "{}.{}.new",
        path.display(),
        hex::encode(rand::random::<[u8; 8]>())
    ));
    save(&unique, keyring)?;
    // A hard link is created only if `path` does not exist yet: the first process wins.
    let linked = std::fs::hard_link(&unique, path);
    let _ = std::fs::remove_file(&unique);
    match linked {
        Ok(()) => {
            if let Some(dir) = path.parent().and_then(|d| std::fs::File::open(d).ok()) {
                let _ = dir.sync_all();
            }
            Ok(keyring.clone())
        }
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => {
            load(path)?.ok_or_else(|| format!("the audit key file {} vanished", path.display()))
        }
        Err(e) => Err(format!(
            "cannot write the audit key file {}: {e}",
            path.display()
        )),
    }
}

fn registry() -> &'static Mutex<HashMap<String, Arc<Keyring>>> {
    static REGISTRY: OnceLock<Mutex<HashMap<String, Arc<Keyring>>>> = OnceLock::new();
    REGISTRY.get_or_init(Default::default)
}

/// Makes `keyring` the keys of the database `db` in this process.
pub fn register(db: &crate::sql::Db, keyring: Keyring) {
    let mut map = registry().lock().unwrap_or_else(|p| p.into_inner());
    map.insert(db.identity(), Arc::new(keyring));
}

/// The keys registered for `db`, if any.
pub fn for_db(db: &crate::sql::Db) -> Option<Arc<Keyring>> {
    let map = registry().lock().unwrap_or_else(|p| p.into_inner());
    map.get(&db.identity()).cloned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_keyring_signs_checks_and_round_trips_through_its_file() {
        let mut ring = Keyring::generate(Some((7, "ab".repeat(32))));
        let sig = ring.sign(&[b"prev", b"\n", b"content"]);
        assert!(sig.starts_with(&format!("{}:", ring.current())));
        ring.check(&sig, &[b"prev\ncontent"]).unwrap();
        assert!(ring.check(&sig, &[b"prev\ncontenT"]).is_err());
        let old = ring.current().to_string();
        let new = ring.rotate();
        assert_ne!(old, new);
        // What the old key sealed still checks; new seals use the new key.
        ring.check(&sig, &[b"prev\ncontent"]).unwrap();
        assert!(ring.sign(&[b"x"]).starts_with(&format!("{new}:")));
        let back = Keyring::parse(&ring.to_text()).unwrap();
        assert_eq!(back, ring);
        // Another installation's key does not check it.
        let other = Keyring::generate(None);
        assert!(other
            .check(&sig, &[b"prev\ncontent"])
            .unwrap_err()
            .contains("not in the key file"));
    }

    #[test]
    fn malformed_key_files_are_refused() {
        assert!(Keyring::parse("# nothing\n").is_err());
        assert!(Keyring::parse("key 00000000 abcd").is_err());
        let ring = Keyring::generate(None);
        let tampered = ring.to_text().replace(ring.current(), "00000000");
        assert!(Keyring::parse(&tampered)
            .unwrap_err()
            .contains("fingerprint"));
    }

    #[test]
    fn the_file_is_private_and_replaced_whole() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join(KEY_FILE);
        assert_eq!(load(&path).unwrap(), None);
        let ring = Keyring::generate(None);
        save(&path, &ring).unwrap();
        assert_eq!(load(&path).unwrap(), Some(ring));
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            let mode = std::fs::metadata(&path).unwrap().permissions().mode();
            assert_eq!(mode & 0o777, 0o600);
        }
    }
}
