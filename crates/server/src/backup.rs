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
//!    migration, SHA-256 of every entry), `kontor.db`, `files/<dir>/<key>`, and
//!    `kontor.toml` when the data directory has one; written to `FILE.part`, synced, then
//!    renamed, so `FILE` is never half-written.
//!
//! **Restore** into an empty (or missing) directory: every entry name must stay inside the
//! directory, every entry's hash must match the manifest, the database must pass
//! `PRAGMA integrity_check`, and it is then opened (running newer migrations).

use crate::db;
use crate::storage::{is_plain_key, Area, FileStore};
use sha2::{Digest, Sha256};
use sqlx::sqlite::SqliteConnectOptions;
use sqlx::ConnectOptions;
use std::collections::BTreeMap;
use std::io::{Read, Write};
use std::path::{Path, PathBuf};

/// The archive format written into the manifest.
pub const FORMAT: &str = "kontor-backup/1";
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
    SqliteConnectOptions::new()
        .filename(path)
        .read_only(read_only)
        .connect()
        .await
        .map(crate::sql::Tx::from_sqlite)
        .map_err(|e| format!("cannot open {}: {e}", path.display()))
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
        crate::sql::query("VACUUM INTO ?")
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
        write_archive(out, &manifest, &entries)?;
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

/// Restores the archive `archive` into `data_dir`, which must be missing or empty, and its
/// stored files into `<data>/files`, or into `bucket` when given (an object that already
/// exists there must hold the same bytes); returns the archive's manifest. Errors: a
/// non-empty directory, a store that refuses a file, an unreadable archive or one
/// without manifest, an entry outside the directory or not in the manifest, a hash that
/// does not match, a database that fails `integrity_check` or its migrations.
pub async fn restore(
    archive: &Path,
    data_dir: &Path,
    bucket: Option<&FileStore>,
) -> Result<Manifest, String> {
    if data_dir.exists() {
        let mut entries = std::fs::read_dir(data_dir)
            .map_err(|e| format!("cannot read {}: {e}", data_dir.display()))?;
        if entries.next().is_some() {
            return Err(format!(
                "{} is not empty: restore only into an empty directory",
                data_dir.display()
            ));
        }
    }
    let file = std::fs::File::open(archive)
        .map_err(|e| format!("cannot open {}: {e}", archive.display()))?;
    let mut zip = zip::ZipArchive::new(file)
        .map_err(|e| format!("{} is not a backup archive: {e}", archive.display()))?;
    let manifest: Manifest = {
        let mut entry = zip
            .by_name("manifest.json")
            .map_err(|_| "the archive has no manifest.json".to_string())?;
        let mut text = Vec::new();
        entry.read_to_end(&mut text).map_err(|e| e.to_string())?;
        serde_json::from_slice(&text).map_err(|e| format!("manifest.json: {e}"))?
    };
    if manifest.format != FORMAT {
        return Err(format!("unknown backup format {:?}", manifest.format));
    }
    if !manifest.entries.contains_key(db::DB_FILE) {
        return Err(format!("the archive has no {}", db::DB_FILE));
    }
    std::fs::create_dir_all(data_dir)
        .map_err(|e| format!("cannot create {}: {e}", data_dir.display()))?;
    let mut seen = 0;
    for i in 0..zip.len() {
        let mut entry = zip.by_index(i).map_err(|e| e.to_string())?;
        let name = entry.name().to_string();
        if name == "manifest.json" {
            continue;
        }
        let Some(relative) = entry.enclosed_name() else {
            return Err(format!("the entry {name:?} points outside the directory"));
        };
        let Some(expected) = manifest.entries.get(&name) else {
            return Err(format!("the entry {name:?} is not in the manifest"));
        };
        let mut bytes = Vec::new();
        entry
            .read_to_end(&mut bytes)
            .map_err(|e| format!("{name}: {e}"))?;
        if &sha256_hex(&bytes) != expected {
            return Err(format!("the entry {name:?} is damaged (its hash differs)"));
        }
        if let Some(store) = bucket {
            if let Some((area, key)) = stored_name(&name) {
                store
                    .put_at(area, key, &bytes)
                    .await
                    .map_err(|e| format!("{name}: {e:?}"))?;
                seen += 1;
                continue;
            }
        }
        let target = data_dir.join(relative);
        if let Some(parent) = target.parent() {
            std::fs::create_dir_all(parent).map_err(|e| format!("{name}: {e}"))?;
        }
        let mut out = std::fs::File::create(&target).map_err(|e| format!("{name}: {e}"))?;
        out.write_all(&bytes).map_err(|e| format!("{name}: {e}"))?;
        out.sync_all().map_err(|e| format!("{name}: {e}"))?;
        seen += 1;
    }
    if seen != manifest.entries.len() {
        return Err("the archive lacks entries its manifest names".to_string());
    }
    let mut conn = open_file(&data_dir.join(db::DB_FILE), true).await?;
    let check: String = crate::sql::query_scalar("PRAGMA integrity_check")
        .fetch_one(&mut conn)
        .await
        .map_err(|e| format!("integrity check: {e}"))?;
    conn.close().await;
    if check != "ok" {
        return Err(format!("the restored database is damaged: {check}"));
    }
    db::open(data_dir).await?.close().await;
    Ok(manifest)
}
