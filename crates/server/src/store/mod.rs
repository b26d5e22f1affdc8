//! Where data lives: the SQLite/PostgreSQL database opened and its column types (`db`),
//! the stored files on disk or object storage (`storage`, `files`), backups
//! (`backup`) and the move from SQLite to PostgreSQL (`migrate`). The query API is
//! `crate::sql`, the schema `crate::schema`.

pub mod backup;
pub mod db;
pub mod files;
pub mod migrate;
pub mod storage;
