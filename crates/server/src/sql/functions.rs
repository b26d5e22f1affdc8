//! The SQL functions Kontor defines on both engines, so that one statement text runs on
//! either (issue 30: no statement is rewritten at run time):
//!
//! - `kontor_fold(text)` → text: the text in lower case, Unicode included — "ÄRZTE",
//!   "Ärzte" and "ärzte" fold alike (SQLite's own `lower()`, `LIKE` and `COLLATE NOCASE`
//!   fold ASCII letters only). Case-insensitive search and sorting use it on both sides
//!   ([`like`]). PostgreSQL: `lower(t COLLATE "und-x-icu")` (migration 26).
//! - `kontor_milli(amount)` → BIGINT: a stored amount as an exact count of thousandths of
//!   a currency unit, truncated toward zero (`"119.5"` → 119500, `"-0.05"` → −50,
//!   `"100"` → 100000); NULL stays NULL. Exact sums of decimal amounts are sums of these
//!   (`crate::lists::summary`): SQLite stores amounts as decimal text, whose `SUM` would be a
//!   float. PostgreSQL: `trunc(x * 1000)::BIGINT` over `NUMERIC` (migration 27).
//! - `GREATEST(a, b, …)`: PostgreSQL's own; on SQLite registered here with PostgreSQL's
//!   meaning for numbers (NULLs are left out; NULL only when every argument is NULL).
//! - `json_each(text)`: SQLite's own table-valued function over a JSON text column (the
//!   elements of an array, or the members of an object, as `key` and `value`); on
//!   PostgreSQL a function of migration 27 over TEXT with the same columns (PostgreSQL's
//!   own `json_each(json)` stays as it is).
//!
//! On SQLite the functions are registered on every connection of the pool
//! ([`register`], run by `crate::store::db`'s `after_connect`); a file opened without them (the
//! `sqlite3` shell) still runs every trigger and view, which are written without them
//! ([`milli_expression`]).

use super::pool::Engine;
use libsqlite3_sys as ffi;

/// `kontor_fold(expr) LIKE kontor_fold(?) ESCAPE '\'`, the bind (a
/// [`crate::lists::like_pattern`]) to follow, then [`LIKE_END`].
pub fn like(expr: &str) -> String {
    format!("kontor_fold({expr}) LIKE kontor_fold(")
}

/// What closes [`like`] after its bind.
pub const LIKE_END: &str = ") ESCAPE '\\'";

/// `expr` folded for a case-insensitive sort (`ORDER BY kontor_fold(expr)`).
pub fn folded(expr: &str) -> String {
    format!("kontor_fold({expr})")
}

/// The figure of `kontor_milli(x)` written out in plain SQL of `engine`, for the schema's
/// own views and triggers, which must work on a connection without Kontor's functions:
/// on SQLite by taking the decimal text apart (the sign, the integer digits × 1000, the
/// first three fraction digits; no float on the way); on PostgreSQL `trunc(x * 1000)`.
/// `x` is a column name.
pub fn milli_expression(engine: Engine, x: &str) -> String {
    match engine {
        Engine::Sqlite => format!(
            "(CASE WHEN substr({x}, 1, 1) = '-' THEN -1 ELSE 1 END * (\
             CAST(CASE WHEN instr({x}, '.') > 0 THEN substr(ltrim({x}, '-'), 1, instr(ltrim({x}, '-'), '.') - 1) \
             ELSE ltrim({x}, '-') END AS INTEGER) * 1000 \
             + CASE WHEN instr({x}, '.') > 0 THEN CAST(substr(substr({x}, instr({x}, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END))"
        ),
        Engine::Postgres => format!("trunc({x} * 1000)::BIGINT"),
    }
}

/// Registers `kontor_fold`, `kontor_milli` and `GREATEST` on the SQLite connection `conn`
/// (run for every new connection of the pool). Errors: SQLite's, as sqlx's.
pub async fn register(conn: &mut sqlx::SqliteConnection) -> Result<(), sqlx::Error> {
    let mut handle = conn.lock_handle().await?;
    let db = handle.as_raw_handle().as_ptr();
    type Body = unsafe extern "C" fn(*mut ffi::sqlite3_context, i32, *mut *mut ffi::sqlite3_value);
    let functions: [(&std::ffi::CStr, i32, Body); 3] = [
        (c"kontor_fold", 1, fold),
        (c"kontor_milli", 1, milli),
        (c"greatest", -1, greatest),
    ];
    for (name, args, body) in functions {
        // SAFETY: `db` is the live connection held by the lock; the name is NUL-terminated;
        // the function keeps no user data.
        let code = unsafe {
            ffi::sqlite3_create_function_v2(
                db,
                name.as_ptr(),
                args,
                ffi::SQLITE_UTF8 | ffi::SQLITE_DETERMINISTIC,
                std::ptr::null_mut(),
                Some(body),
                None,
                None,
                None,
            )
        };
        if code != ffi::SQLITE_OK {
            return Err(sqlx::Error::Protocol(format!(
                "cannot register {} (SQLite code {code})",
                name.to_string_lossy()
            )));
        }
    }
    Ok(())
}

/// The text of SQLite value `value` (numbers in SQLite's text form; invalid UTF-8
/// replaced).
///
/// # Safety
/// `value` must be a live argument of the running function call.
unsafe fn text_of(value: *mut ffi::sqlite3_value) -> String {
    let text = ffi::sqlite3_value_text(value);
    let len = ffi::sqlite3_value_bytes(value);
    let bytes = if text.is_null() || len <= 0 {
        &[][..]
    } else {
        std::slice::from_raw_parts(text, len as usize)
    };
    String::from_utf8_lossy(bytes).into_owned()
}

/// Sets the result of call `ctx` to error `message`.
///
/// # Safety
/// `ctx` must be the running function call's context.
unsafe fn fail(ctx: *mut ffi::sqlite3_context, message: &str) {
    let len = i32::try_from(message.len()).unwrap_or(0);
    ffi::sqlite3_result_error(ctx, message.as_ptr().cast(), len);
}

/// The one argument of a one-argument function call; `None` (the call's result set to
/// `SQLITE_MISUSE`) when `n_arg` is not 1.
///
/// # Safety
/// `ctx`, `n_arg` and `args` must be the running function call's.
unsafe fn only_argument(
    ctx: *mut ffi::sqlite3_context,
    n_arg: i32,
    args: *mut *mut ffi::sqlite3_value,
) -> Option<*mut ffi::sqlite3_value> {
    if n_arg != 1 {
        ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
        return None;
    }
    Some(*args)
}

/// `kontor_fold(x)`: NULL stays NULL; anything else is read as UTF-8 text and answered in
/// lower case.
unsafe extern "C" fn fold(
    ctx: *mut ffi::sqlite3_context,
    n_arg: i32,
    args: *mut *mut ffi::sqlite3_value,
) {
    let Some(value) = only_argument(ctx, n_arg, args) else {
        return;
    };
    if ffi::sqlite3_value_type(value) == ffi::SQLITE_NULL {
        ffi::sqlite3_result_null(ctx);
        return;
    }
    let folded = text_of(value).to_lowercase();
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

/// Thousandths of a decimal written `text` (an optional sign, digits, an optional `.` and
/// digits), truncated toward zero. `None` for anything else (an exponent, a letter, no
/// digit) and for a figure beyond ±9.2 × 10¹⁵ units.
pub fn milli_of(text: &str) -> Option<i64> {
    let text = text.trim();
    let (negative, digits) = match text.as_bytes().first()? {
        b'-' => (true, &text[1..]),
        b'+' => (false, &text[1..]),
        _ => (false, text),
    };
    let (whole, fraction) = digits.split_once('.').unwrap_or((digits, ""));
    if whole.is_empty() && fraction.is_empty() {
        return None;
    }
    if !whole
        .bytes()
        .chain(fraction.bytes())
        .all(|b| b.is_ascii_digit())
    {
        return None;
    }
    let mut milli: i64 = 0;
    for b in whole.bytes() {
        milli = milli.checked_mul(10)?.checked_add(i64::from(b - b'0'))?;
    }
    milli = milli.checked_mul(1000)?;
    let mut place = 100;
    for b in fraction.bytes().take(3) {
        milli = milli.checked_add(i64::from(b - b'0') * place)?;
        place /= 10;
    }
    Some(if negative { -milli } else { milli })
}

/// `kontor_milli(x)` ([`milli_of`] of the value's text); NULL stays NULL; an error names
/// a value that is no decimal.
unsafe extern "C" fn milli(
    ctx: *mut ffi::sqlite3_context,
    n_arg: i32,
    args: *mut *mut ffi::sqlite3_value,
) {
    let Some(value) = only_argument(ctx, n_arg, args) else {
        return;
    };
    match ffi::sqlite3_value_type(value) {
        ffi::SQLITE_NULL => ffi::sqlite3_result_null(ctx),
        ffi::SQLITE_INTEGER => match ffi::sqlite3_value_int64(value).checked_mul(1000) {
            Some(m) => ffi::sqlite3_result_int64(ctx, m),
            None => fail(ctx, "kontor_milli: amount out of range"),
        },
        _ => match milli_of(&text_of(value)) {
            Some(m) => ffi::sqlite3_result_int64(ctx, m),
            None => fail(ctx, "kontor_milli: not a decimal amount"),
        },
    }
}

/// `GREATEST(a, …)` over numbers, PostgreSQL's meaning: NULLs are left out, NULL when all
/// are NULL; integers compare exactly, a real number by its value. Text is an error.
unsafe extern "C" fn greatest(
    ctx: *mut ffi::sqlite3_context,
    n_arg: i32,
    args: *mut *mut ffi::sqlite3_value,
) {
    let Ok(n) = usize::try_from(n_arg) else {
        ffi::sqlite3_result_error_code(ctx, ffi::SQLITE_MISUSE);
        return;
    };
    let args = std::slice::from_raw_parts(args, n);
    let mut best: Option<*mut ffi::sqlite3_value> = None;
    for &v in args {
        let kind = ffi::sqlite3_value_type(v);
        if kind == ffi::SQLITE_NULL {
            continue;
        }
        if kind != ffi::SQLITE_INTEGER && kind != ffi::SQLITE_FLOAT {
            fail(ctx, "GREATEST: numbers only");
            return;
        }
        best = match best {
            None => Some(v),
            Some(b) if greater(v, b) => Some(v),
            keep => keep,
        };
    }
    match best {
        Some(v) => ffi::sqlite3_result_value(ctx, v),
        None => ffi::sqlite3_result_null(ctx),
    }
}

/// Whether number value `a` is greater than number value `b` (both INTEGER or REAL).
///
/// # Safety
/// Both must be live arguments of the running call.
unsafe fn greater(a: *mut ffi::sqlite3_value, b: *mut ffi::sqlite3_value) -> bool {
    let int = |v| ffi::sqlite3_value_type(v) == ffi::SQLITE_INTEGER;
    if int(a) && int(b) {
        ffi::sqlite3_value_int64(a) > ffi::sqlite3_value_int64(b)
    } else {
        ffi::sqlite3_value_double(a) > ffi::sqlite3_value_double(b)
    }
}
