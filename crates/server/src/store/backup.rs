//! `kontor-server backup FILE` and `kontor-server restore FILE --data DIR` (issue 15 § 3;
//! `docs/decisions.md` § Backup and restore).
//!
//! **Backup**, safe while the server runs:
//! 1. a consistent snapshot of the database with SQLite's `VACUUM INTO` (one read
//!    transaction: under WAL it neither waits for nor blocks the server's writes);
//! 2. the stored files the snapshot points at (purchase documents, offer attachments, the
//!    logo), read from the file store (`<data>/files/` or the bucket of `--files`,
//!    `storage`). Files are written before the row that points at
//!    them and removed only after the row stops pointing at them, so a file missing now
//!    was replaced after the snapshot: the snapshot is taken again (up to [`TRIES`] times);
//! 3. one ZIP archive (deflate): `manifest.json` (format, time, server version, last
//!    migration, SHA-256 of every entry), `manifest.sig` (its HMAC under the audit key,
//!    `crate::proof::audit_key`, issue 29: nobody without the key can change an entry and
//!    recompute the manifest), `kontor.db`, `files/<dir>/<key>`, and `kontor.toml` when
//!    the data directory has one; written to `FILE.part`, synced, then renamed, so `FILE`
//!    is never half-written. The key file itself is never in the archive.
//!
//! **Restore** into an empty (or missing) directory ([`restore`]): staged beside it and
//! checked whole — signature, names, hashes, sizes while inflating, `PRAGMA
//! integrity_check`, the audit chain, the migrations — before anything is moved into
//! place; a refusal leaves nothing behind.

use crate::store::db;
use crate::store::storage::{is_plain_key, Area, FileStore};
use sha2::{Digest, Sha256};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::ConnectOptions;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The archive format written into the manifest.
pub const FORMAT: &str = "kontor-backup/2";
/// How often a backup takes its snapshot again when a file vanished meanwhile.
pub const TRIES: usize = 5;

/// The stored files a database points at, as `(directory under files/, key)`.
const FILE_COLUMNS: &[(&str, &str)] = &[
    (
        "purchase_documents",
        "SELECT document_key FROM purchases WHERE document_key IS NOT NULL",
    ),
    (
        "offer_attachments",
        "SELECT storage_key FROM offer_attachments",
    ),
    (
        "account_logo",
        "SELECT logo_key FROM account_settings WHERE logo_key IS NOT NULL",
    ),
    (
        "approval_signatures",
        "SELECT signature_key FROM offer_customer_approvals WHERE signature_key IS NOT NULL",
    ),
    (
        "sent_mail",
        "SELECT message_key FROM emails WHERE message_key IS NOT NULL",
    ),
];

/// What a backup or restore did: the entries and their SHA-256 (hex).
#[derive(Debug, serde::Serialize, serde::Deserialize)]
pub struct Manifest {
    /// [`FORMAT`].
    pub format: String,
    /// When the snapshot was taken (RFC 3339, UTC).
    pub created_at: String,
    /// The server version that wrote it.
    pub version: String,
    /// The last migration applied to the snapshot.
    pub migration: i64,
    /// Entry name → hex SHA-256 of its bytes.
    pub entries: BTreeMap<String, String>,
}

fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

async fn open_file(path: &Path, read_only: bool) -> Result<crate::sql::Tx, String> {
    let failed = |e: sqlx::Error| format!("cannot open {}: {e}", path.display());
    let mut conn = SqliteConnectOptions::new()
        .filename(path)
        .read_only(read_only)
        .connect()
        .await
        .map_err(failed)?;
    crate::sql::functions::register(&mut conn)
        .await
        .map_err(failed)?;
    Ok(crate::sql::Tx::from_sqlite(conn))
}

/// The database's stored files as `files/<dir>/<key>` names.
async fn referenced_files(conn: &mut crate::sql::Tx) -> Result<Vec<String>, String> {
    let mut names = Vec::new();
    for (dir, query) in FILE_COLUMNS {
        let keys: Vec<String> = crate::sql::query_scalar(query)
            .fetch_all(&mut *conn)
            .await
            .map_err(|e| format!("reading {dir}: {e}"))?;
        for key in keys {
            if !is_plain_key(&key) {
                return Err(format!("a stored file key is not a plain name: {key:?}"));
            }
            names.push(format!("files/{dir}/{key}"));
        }
    }
    names.sort();
    names.dedup();
    Ok(names)
}

/// The stored files the database on `conn` points at, as (area, key), sorted and
/// without repeats (purchase documents, offer attachments, the logo). Errors: the
/// database's, or a key that is not a plain name, as a sentence.
pub async fn stored_files(conn: &mut crate::sql::Tx) -> Result<Vec<(Area, String)>, String> {
    referenced_files(conn)
        .await?
        .iter()
        .map(|name| {
            stored_name(name)
                .map(|(area, key)| (area, key.to_string()))
                .ok_or_else(|| format!("not a stored file: {name}"))
        })
        .collect()
}

/// Takes a snapshot of the database (`database`, see `db::locate`; `<data_dir>/kontor.db`
/// by default) and the stored files in `store` into `out` (see the module docs); returns its manifest. Errors: the database cannot be opened or read, a
/// file vanished in every try, the store fails, the archive cannot be written.
pub async fn backup(
    data_dir: &Path,
    database: Option<&str>,
    store: &FileStore,
    out: &Path,
) -> Result<Manifest, String> {
    let pool = db::open_located(database, data_dir).await?;
    if pool.as_sqlite().is_none() {
        pool.close().await;
        return Err(
            "backup copies a SQLite database; on PostgreSQL use pg_dump and the \
                    bucket's own versioning (docs/deployment.md)"
                .to_string(),
        );
    }
    let work = tempfile::Builder::new()
        .prefix(".kontor-backup")
        .tempdir_in(
            out.parent()
                .filter(|p| !p.as_os_str().is_empty())
                .unwrap_or(Path::new(".")),
        )
        .map_err(|e| format!("cannot create a temporary directory: {e}"))?;
    let snapshot = work.path().join(db::DB_FILE);
    for attempt in 1..=TRIES {
        let _ = std::fs::remove_file(&snapshot);
        crate::sql::query("VACUUM INTO $1")
            .bind(snapshot.to_string_lossy().as_ref())
            .execute(&pool)
            .await
            .map_err(|e| format!("snapshot: {e}"))?;
        let mut conn = open_file(&snapshot, true).await?;
        let names = referenced_files(&mut conn).await?;
        let migration: i64 =
            crate::sql::query_scalar("SELECT coalesce(max(version), 0) FROM _sqlx_migrations")
                .fetch_one(&mut conn)
                .await
                .map_err(|e| format!("snapshot: {e}"))?;
        conn.close().await;
        let mut files = Vec::new();
        let mut missing = None;
        for name in &names {
            match read_stored(store, name).await? {
                Some(bytes) => files.push((name.clone(), bytes)),
                None => {
                    missing = Some(format!("{name} is not in {}", store.describe()));
                    break;
                }
            }
        }
        if let Some(missing) = missing {
            if attempt == TRIES {
                return Err(format!("a stored file is missing: {missing}"));
            }
            continue;
        }
        let db_bytes = std::fs::read(&snapshot).map_err(|e| format!("snapshot: {e}"))?;
        let mut entries = vec![(db::DB_FILE.to_string(), db_bytes)];
        entries.extend(files);
        if let Ok(toml) = std::fs::read(data_dir.join("kontor.toml")) {
            entries.push(("kontor.toml".to_string(), toml));
        }
        let manifest = Manifest {
            format: FORMAT.to_string(),
            created_at: db::ts(db::now()).to_string(),
            version: env!("CARGO_PKG_VERSION").to_string(),
            migration,
            entries: entries
                .iter()
                .map(|(n, b)| (n.clone(), sha256_hex(b)))
                .collect(),
        };
        let keys = crate::proof::audit_key::for_db(&pool)
            .ok_or_else(|| "the audit keys were not loaded".to_string())?;
        write_archive(out, &manifest, &entries, &keys)?;
        pool.close().await;
        return Ok(manifest);
    }
    unreachable!("the loop returns")
}

/// The bytes of the archive entry `files/<folder>/<key>` from `store`; `None` when missing.
async fn read_stored(store: &FileStore, name: &str) -> Result<Option<Vec<u8>>, String> {
    let (area, key) = stored_name(name).ok_or_else(|| format!("not a stored file: {name}"))?;
    store.get(area, key).await.map_err(|e| format!("{e:?}"))
}

/// The area and key of an archive entry `files/<folder>/<key>`.
fn stored_name(name: &str) -> Option<(Area, &str)> {
    let rest = name.strip_prefix("files/")?;
    let (folder, key) = rest.split_once('/')?;
    Some((Area::from_folder(folder)?, key)).filter(|(_, k)| is_plain_key(k))
}

fn write_archive(
    out: &Path,
    manifest: &Manifest,
    entries: &[(String, Vec<u8>)],
    keys: &crate::proof::audit_key::Keyring,
) -> Result<(), String> {
    let part = PathBuf::from(format!("{}.part", out.display()));
    let io = |e: std::io::Error| format!("cannot write {}: {e}", part.display());
    let zip_err = |e: zip::result::ZipError| format!("cannot write {}: {e}", part.display());
    let file = std::fs::File::create(&part).map_err(io)?;
    let mut zip = zip::ZipWriter::new(file);
    let options = zip::write::SimpleFileOptions::default()
        .compression_method(zip::CompressionMethod::Deflated)
        .large_file(true);
    let manifest_json = serde_json::to_vec_pretty(manifest).map_err(|e| e.to_string())?;
    zip.start_file("manifest.json", options).map_err(zip_err)?;
    zip.write_all(&manifest_json).map_err(io)?;
    zip.start_file("manifest.sig", options).map_err(zip_err)?;
    zip.write_all(sign_manifest(keys, &manifest_json).as_bytes())
        .map_err(io)?;
    for (name, bytes) in entries {
        zip.start_file(name.as_str(), options).map_err(zip_err)?;
        zip.write_all(bytes).map_err(io)?;
    }
    let file = zip.finish().map_err(zip_err)?;
    file.sync_all().map_err(io)?;
    drop(file);
    std::fs::rename(&part, out).map_err(|e| format!("cannot write {}: {e}", out.display()))?;
    if let Some(dir) = out.parent().filter(|p| !p.as_os_str().is_empty()) {
        if let Ok(d) = std::fs::File::open(dir) {
            let _ = d.sync_all();
        }
    }
    Ok(())
}

/// Most entries a backup archive may hold.
pub const MAX_ENTRIES: usize = 1_000_000;
/// Largest `manifest.json` read (16 MiB).
const MAX_MANIFEST: u64 = 16 * 1024 * 1024;
/// How much larger than the archive its entries may be together after inflating (and 64
/// MiB more): a deflated SQLite file shrinks to about a fifth; a ZIP bomb does to a
/// thousandth.
pub const MAX_RATIO: u64 = 100;

/// The signature of `manifest.json`'s bytes under the installation's audit key
/// (`crate::proof::audit_key`): written as the archive entry `manifest.sig`.
pub fn sign_manifest(keys: &crate::proof::audit_key::Keyring, manifest_json: &[u8]) -> String {
    keys.sign(&[b"kontor-backup-manifest\n", manifest_json])
}

/// Whether `dir` is missing, empty, or holds nothing but the audit key file.
fn is_empty_target(dir: &Path) -> Result<bool, String> {
    if !dir.exists() {
        return Ok(true);
    }
    let entries =
        std::fs::read_dir(dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    for entry in entries {
        let entry = entry.map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
        if entry.file_name() != crate::proof::audit_key::KEY_FILE {
            return Ok(false);
        }
    }
    Ok(true)
}

/// Restores the archive `archive` into `data_dir` — which must be missing, empty, or hold
/// only the installation's `audit.key` — and its stored files into `<data>/files`, or into
/// `bucket` when given (an object that already exists there must hold the same bytes);
/// returns the archive's manifest.
///
/// Everything is unpacked into a staging directory beside `data_dir` and checked there:
/// the manifest's signature under the audit key (`KONTOR_AUDIT_KEY_FILE`, else
/// `<data>/audit.key` — put the installation's key file there first), every entry's name
/// and SHA-256, sizes while inflating ([`MAX_ENTRIES`], [`MAX_RATIO`]), the database's
/// `integrity_check`, the audit trail's chain, and the migrations. Only then are the files
/// put into the bucket and the staging directory moved into place. A refused restore
/// leaves nothing behind: no directory content, no object in the bucket.
///
/// Errors (as a sentence): a non-empty directory; no audit key; an unreadable archive or
/// one without (signed) manifest; a manifest signed with another key or changed; an entry
/// outside the directory, not in the manifest, too large, or with another hash; a
/// database that fails `integrity_check`, the audit chain or its migrations; a store
/// that refuses a file.
pub async fn restore(
    archive: &Path,
    data_dir: &Path,
    bucket: Option<&FileStore>,
) -> Result<Manifest, String> {
    if !is_empty_target(data_dir)? {
        return Err(format!(
            "{} is not empty: restore only into an empty directory (it may hold audit.key)",
            data_dir.display()
        ));
    }
    let key_path = crate::proof::audit_key::key_file(data_dir);
    let keys = crate::proof::audit_key::load(&key_path)?.ok_or_else(|| {
        format!(
            "there is no audit key at {}: a backup is restored with the key of the installation it came from — copy its audit.key there (or name it with KONTOR_AUDIT_KEY_FILE) and try again",
            key_path.display()
        )
    })?;
    let parent = data_dir
        .parent()
        .filter(|p| !p.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(parent)
        .map_err(|e| format!("cannot create {}: {e}", parent.display()))?;
    let staging = tempfile::Builder::new()
        .prefix(".kontor-restore")
        .tempdir_in(parent)
        .map_err(|e| {
            format!(
                "cannot create a staging directory in {}: {e}",
                parent.display()
            )
        })?;
    let mut created = Vec::new();
    let result = unpack_and_check(
        archive,
        staging.path(),
        &keys,
        &key_path,
        data_dir,
        bucket,
        &mut created,
    )
    .await;
    match result {
        Ok(manifest) => {
            std::fs::create_dir_all(data_dir)
                .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
            for entry in std::fs::read_dir(staging.path()).map_err(|e| e.to_string())? {
                let entry = entry.map_err(|e| e.to_string())?;
                let target = data_dir.join(entry.file_name());
                if target.exists() {
                    continue; // the key file that was there already
                }
                match std::fs::rename(entry.path(), &target) {
                    Ok(()) => {}
                    // SQLite's -wal/-shm files go when the last connection closes.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                    Err(e) => {
                        return Err(format!("cannot move {} into place: {e}", target.display()))
                    }
                }
            }
            if let Ok(d) = std::fs::File::open(data_dir) {
                let _ = d.sync_all();
            }
            Ok(manifest)
        }
        Err(why) => {
            if let Some(store) = bucket {
                for (area, key) in created {
                    store.delete(area, &key).await;
                }
            }
            Err(why)
        }
    }
}

/// Reads at most `limit` bytes of `reader` into `out`, hashing them. Errors: more than
/// `limit` bytes (a sentence naming `name`), or the reader's.
fn copy_limited(
    reader: &mut impl Read,
    out: &mut impl Write,
    limit: u64,
    name: &str,
) -> Result<String, String> {
    let mut hasher = Sha256::new();
    let mut buffer = vec![0u8; 64 * 1024];
    let mut total = 0u64;
    loop {
        let n = reader
            .read(&mut buffer)
            .map_err(|e| format!("{name}: {e}"))?;
        if n == 0 {
            break;
        }
        total += n as u64;
        if total > limit {
            return Err(format!(
                "the entry {name:?} inflates to more than the archive can hold ({} MiB left); it is not a backup Kontor wrote",
                limit / (1024 * 1024)
            ));
        }
        hasher.update(&buffer[..n]);
        out.write_all(&buffer[..n])
            .map_err(|e| format!("{name}: {e}"))?;
    }
    Ok(hex::encode(hasher.finalize()))
}

/// [`restore`]'s work inside `staging`. `created` collects the bucket objects made, so a
/// refusal can remove them.
async fn unpack_and_check(
    archive: &Path,
    staging: &Path,
    keys: &crate::proof::audit_key::Keyring,
    key_path: &Path,
    data_dir: &Path,
    bucket: Option<&FileStore>,
    created: &mut Vec<(Area, String)>,
) -> Result<Manifest, String> {
    let file = std::fs::File::open(archive)
        .map_err(|e| format!("cannot open {}: {e}", archive.display()))?;
    let archive_size = file.metadata().map(|m| m.len()).unwrap_or(0);
    let mut zip = zip::ZipArchive::new(file)
        .map_err(|e| format!("{} is not a backup archive: {e}", archive.display()))?;
    if zip.len() > MAX_ENTRIES {
        return Err(format!("the archive has more than {MAX_ENTRIES} entries"));
    }
    let read_small =
        |zip: &mut zip::ZipArchive<std::fs::File>, name: &str| -> Result<Vec<u8>, String> {
            let entry = zip
                .by_name(name)
                .map_err(|_| format!("the archive has no {name}"))?;
            let mut bytes = Vec::new();
            entry
                .take(MAX_MANIFEST + 1)
                .read_to_end(&mut bytes)
                .map_err(|e| format!("{name}: {e}"))?;
            if bytes.len() as u64 > MAX_MANIFEST {
                return Err(format!("{name} is larger than 16 MiB"));
            }
            Ok(bytes)
        };
    let manifest_json = read_small(&mut zip, "manifest.json")?;
    let signature = read_small(&mut zip, "manifest.sig").map_err(|_| {
        "the archive's manifest is not signed (a backup from before issue 29, or changed): Kontor restores only signed backups".to_string()
    })?;
    let signature = String::from_utf8_lossy(&signature).trim().to_string();
    keys.check(&signature, &[b"kontor-backup-manifest\n", &manifest_json])
        .map_err(|why| format!("the archive's manifest does not carry this installation's signature ({why}): it was changed, or comes from another installation"))?;
    let manifest: Manifest =
        serde_json::from_slice(&manifest_json).map_err(|e| format!("manifest.json: {e}"))?;
    if manifest.format != FORMAT {
        return Err(format!("unknown backup format {:?}", manifest.format));
    }
    if !manifest.entries.contains_key(db::DB_FILE) {
        return Err(format!("the archive has no {}", db::DB_FILE));
    }
    let mut budget = archive_size
        .saturating_mul(MAX_RATIO)
        .saturating_add(64 * 1024 * 1024);
    let mut seen = 0;
    let mut for_bucket = Vec::new();
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| e.to_string())?;
        let name = entry.name().to_string();
        if name == "manifest.json" || name == "manifest.sig" {
            continue;
        }
        let Some(relative) = entry.enclosed_name() else {
            return Err(format!("the entry {name:?} points outside the directory"));
        };
        let Some(expected) = manifest.entries.get(&name) else {
            return Err(format!("the entry {name:?} is not in the manifest"));
        };
        let target = staging.join(relative);
        if let Some(dir) = target.parent() {
            std::fs::create_dir_all(dir).map_err(|e| format!("{name}: {e}"))?;
        }
        let mut out = std::fs::File::create(&target).map_err(|e| format!("{name}: {e}"))?;
        let hash = copy_limited(&mut entry, &mut out, budget, &name)?;
        let written = out.metadata().map(|m| m.len()).unwrap_or(0);
        budget = budget.saturating_sub(written);
        if &hash != expected {
            return Err(format!("the entry {name:?} is damaged (its hash differs)"));
        }
        out.sync_all().map_err(|e| format!("{name}: {e}"))?;
        if bucket.is_some() {
            if let Some((area, key)) = stored_name(&name) {
                for_bucket.push((area, key.to_string(), target.clone()));
            }
        }
        seen += 1;
    }
    if seen != manifest.entries.len() {
        return Err("the archive lacks entries its manifest names".to_string());
    }
    let db_path = staging.join(db::DB_FILE);
    let mut conn = open_file(&db_path, true).await?;
    let check: String = crate::sql::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .map_err(|e| format!("integrity check: {e}"))?;
    if check != "ok" {
        conn.close().await;
        return Err(format!("the restored database is damaged: {check}"));
    }
    let verified = crate::proof::audit::verify(&mut conn, keys).await;
    conn.close().await;
    verified.map_err(|why| format!("the backup's audit trail does not verify: {why}"))?;
    // The staging directory opens with the same keys the target will use.
    if key_path == data_dir.join(crate::proof::audit_key::KEY_FILE) {
        crate::proof::audit_key::save(&staging.join(crate::proof::audit_key::KEY_FILE), keys)?;
    }
    db::open(staging).await?.close().await;
    if let Some(store) = bucket {
        for (area, key, path) in for_bucket {
            let bytes = std::fs::read(&path).map_err(|e| format!("{key}: {e}"))?;
            let made = store
                .put_at(area, &key, &bytes)
                .await
                .map_err(|e| format!("files/{}/{key}: {e:?}", area.folder()))?;
            std::fs::remove_file(&path).map_err(|e| format!("{key}: {e}"))?;
            if made {
                created.push((area, key));
            }
        }
        let _ = std::fs::remove_dir_all(staging.join("files"));
    }
    Ok(manifest)
}
