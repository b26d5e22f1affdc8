//! Case-insensitive search that folds letters the same way on both engines (issue 30):
//! `kontor_fold(text)` is the text in lower case, Unicode included — "ÄRZTE", "Ärzte" and
//! "ärzte" fold alike. SQLite's own `lower()`, `LIKE` and `COLLATE NOCASE` fold ASCII
//! letters only, so the server registers `kontor_fold` on every SQLite connection
//! ([`register`], Rust's `str::to_lowercase`); on PostgreSQL it is a SQL function of
//! migration `postgres/0026` (`lower()` under the ICU root collation). A search writes
//! [`like`]: both sides folded, the pattern's `%`/`_` untouched.

use libsqlite3_sys as ffi;

/// `kontor_fold(expr) LIKE kontor_fold(?) ESCAPE '\'`, the bind (a [`crate::listing::like_pattern`]) to follow.
pub fn like(expr: &str) -> String {
    format!("kontor_fold({expr}) LIKE kontor_fold(")
}

/// What closes [`like`] after its bind.
pub const LIKE_END: &str = ") ESCAPE '\\'";

/// Registers `kontor_fold(text)` on the SQLite connection `conn` (run for every new
/// connection of the pool). Errors: SQLite's, as sqlx's.
pub async fn register(conn: &mut sqlx::SqliteConnection) -> Result<(), sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    // SAFETY: `db` is the live connection held by the lock; the name is NUL-terminated;
    // the function takes one argument and keeps no user data.
    let code = unsafe {
        ffi::sqlite3_create_function_v2(
            db,
            c"kontor_fold".as_ptr(),
            1,
            ffi::SQLITE_UTF8 | ffi::SQLITE_DETERMINISTIC,
            std::ptr::null_mut(),
            Some(fold),
            None,
            None,
            None,
        )
    };
    if code == ffi::SQLITE_OK {
        Ok(())
    } else {
        Err(sqlx::Error::Protocol(format!(
            "cannot register kontor_fold (SQLite code {code})"
        )))
    }
}

/// `kontor_fold(x)`: NULL stays NULL; anything else is read as UTF-8 text (invalid bytes
/// replaced) and answered in lower case.
unsafe extern "C" fn fold(
    ctx: *mut ffi::sqlite3_context,
    n_arg: i32,
    args: *mut *mut ffi::sqlite3_value,
) {
    if n_arg != 1 {
        ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
        return;
    }
    let value = *args;
    if ffi::sqlite3_value_type(value) == ffi::SQLITE_NULL {
        ffi::sqlite3_result_null(ctx);
        return;
    }
    let text = ffi::sqlite3_value_text(value);
    let len = ffi::sqlite3_value_bytes(value);
    let bytes = if text.is_null() || len <= 0 {
        &[][..]
    } else {
        std::slice::from_raw_parts(text, len as usize)
    };
    let folded = String::from_utf8_lossy(bytes).to_lowercase();
    let Ok(out_len) = i32::try_from(folded.len()) else {
        ffi::sqlite3_result_error_toobig(ctx);
        return;
    };
    // SQLITE_TRANSIENT: SQLite copies the text before `folded` is dropped.
    ffi::sqlite3_result_text(
        ctx,
        folded.as_ptr().cast(),
        out_len,
        ffi::SQLITE_TRANSIENT(),
    );
}
