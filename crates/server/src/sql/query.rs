//! Running a statement on either engine: [`query`], [`query_as`], [`query_scalar`] and
//! the [`Builder`] for statements made of pieces. Every statement numbers its placeholders
//! `$1, $2, …` — written so in fixed statements, numbered as values are pushed in built
//! ones — which both engines read (sqlx binds SQLite's `$N` by its number), and runs
//! exactly as written on both: no statement's text is changed at run time. Where the
//! dialects differ, the SQL says so through the named helpers of [`super::dialect`] and
//! the shared functions of [`super::functions`].

use super::bind::{Arg, Done, Record, Row, Value};
use super::pool::{Executor, Target};
use sqlx::postgres::PgArguments;
use sqlx::sqlite::SqliteArguments;
use std::borrow::Cow;
use std::marker::PhantomData;

/// Whether `sql` holds a `?` placeholder outside quoted text, quoted names and `--`
/// comments. Statements are written with `$1, $2, …`, the one spelling both engines bind
/// by number, and run exactly as written; a `?` left in a statement is a mistake that
/// debug builds (every test) stop at once instead of binding the wrong values.
pub fn has_question_placeholder(sql: &str) -> bool {
    if !sql.contains('?') {
        return false;
    }
    let mut chars = sql.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\'' | '"' => {
                // A doubled quote reopens at once, so it needs no special case.
                for q in chars.by_ref() {
                    if q == c {
                        break;
                    }
                }
            }
            '-' if chars.peek() == Some(&'-') => {
                for q in chars.by_ref() {
                    if q == '\n' {
                        break;
                    }
                }
            }
            '?' => return true,
            _ => {}
        }
    }
    false
}

/// `count` placeholders from `$first` on, comma-separated (`placeholders(3, 2)` →
/// `"$3, $4"`), for a column list made at run time.
pub fn placeholders(first: usize, count: usize) -> String {
    (first..first + count)
        .map(|n| format!("${n}"))
        .collect::<Vec<_>>()
        .join(", ")
}

/// A statement with its values, not yet run. Made by [`query`] or [`Builder::build`].
pub struct Query<'q> {
    pub(super) sql: Cow<'q, str>,
    pub(super) args: Vec<Arg<'q>>,
}

/// A statement on `sql` (placeholders `$1, $2, …`); bind values with [`Query::bind`].
pub fn query(sql: &str) -> Query<'_> {
    Query {
        sql: Cow::Borrowed(sql),
        args: Vec::new(),
    }
}

/// A statement whose rows are read as `T` (a [`Record`]).
pub fn query_as<T: Record>(sql: &str) -> QueryAs<'_, T> {
    Typed::new(query(sql))
}

/// A statement whose rows are read as their first column, a `T` ([`Value`]).
pub fn query_scalar<T: Value>(sql: &str) -> QueryScalar<'_, T> {
    Typed::new(query(sql))
}

/// The row `sql` selects by id (its one placeholder, `$1`, bound to `id`) read as `R` and
/// converted to the model type `T`, if there is such a row. Errors: as
/// [`Typed::fetch_optional`].
pub async fn find_by_id<'e, R: Record, T: From<R>>(
    on: impl Executor<'e>,
    sql: &str,
    id: i64,
) -> Result<Option<T>, sqlx::Error> {
    Ok(query_as::<R>(sql)
        .bind(id)
        .fetch_optional(on)
        .await?
        .map(T::from))
}

impl<'q> Query<'q> {
    /// Appends a value for the next placeholder.
    pub fn bind(mut self, value: impl Into<Arg<'q>>) -> Self {
        self.args.push(value.into());
        self
    }

    fn sqlite_args(&self) -> Result<SqliteArguments<'_>, sqlx::Error> {
        let mut args = SqliteArguments::default();
        for a in &self.args {
            a.add_sqlite(&mut args)?;
        }
        Ok(args)
    }

    fn pg_args(&self) -> Result<PgArguments, sqlx::Error> {
        let mut args = PgArguments::default();
        for a in &self.args {
            a.add_pg(&mut args)?;
        }
        Ok(args)
    }

    /// Stops a debug build on a statement still written with `?` placeholders
    /// ([`has_question_placeholder`]) that is about to run on PostgreSQL, which would
    /// refuse it (SQLite binds a `?` by its position, so a release build there goes on).
    fn check_placeholders(&self, target: &Target<'_>) {
        if matches!(target, Target::PgPool(_) | Target::Pg(_)) {
            debug_assert!(
                !has_question_placeholder(&self.sql),
                "a statement with ? placeholders (write $1, $2, …): {}",
                self.sql
            );
        }
    }

    /// Runs the statement. Errors: the database's.
    pub async fn execute<'e>(self, on: impl Executor<'e>) -> Result<Done, sqlx::Error> {
        let (target, failed) = on.split();
        self.check_placeholders(&target);
        let rows = async {
            Ok::<_, sqlx::Error>(match target {
                Target::SqlitePool(p) => sqlx::query_with(&self.sql, self.sqlite_args()?)
                    .execute(p)
                    .await?
                    .rows_affected(),
                Target::Sqlite(c) => sqlx::query_with(&self.sql, self.sqlite_args()?)
                    .execute(c)
                    .await?
                    .rows_affected(),
                Target::PgPool(p) => sqlx::query_with(&self.sql, self.pg_args()?)
                    .execute(p)
                    .await?
                    .rows_affected(),
                Target::Pg(c) => sqlx::query_with(&self.sql, self.pg_args()?)
                    .execute(c)
                    .await?
                    .rows_affected(),
            })
        }
        .await;
        Ok(Done {
            rows: noted(rows, failed)?,
        })
    }

    /// Runs the statement and returns every row. Errors: the database's.
    pub async fn fetch_all<'e>(self, on: impl Executor<'e>) -> Result<Vec<Row>, sqlx::Error> {
        let (target, failed) = on.split();
        self.check_placeholders(&target);
        let rows = async {
            Ok(match target {
                Target::SqlitePool(p) => wrap(
                    sqlx::query_with(&self.sql, self.sqlite_args()?)
                        .fetch_all(p)
                        .await?,
                    Row::Sqlite,
                ),
                Target::Sqlite(c) => wrap(
                    sqlx::query_with(&self.sql, self.sqlite_args()?)
                        .fetch_all(c)
                        .await?,
                    Row::Sqlite,
                ),
                Target::PgPool(p) => wrap(
                    sqlx::query_with(&self.sql, self.pg_args()?)
                        .fetch_all(p)
                        .await?,
                    Row::Pg,
                ),
                Target::Pg(c) => wrap(
                    sqlx::query_with(&self.sql, self.pg_args()?)
                        .fetch_all(c)
                        .await?,
                    Row::Pg,
                ),
            })
        }
        .await;
        noted(rows, failed)
    }

    /// Runs the statement and returns its first row, if any. Errors: the database's.
    pub async fn fetch_optional<'e>(
        self,
        on: impl Executor<'e>,
    ) -> Result<Option<Row>, sqlx::Error> {
        let (target, failed) = on.split();
        self.check_placeholders(&target);
        let row = async {
            Ok(match target {
                Target::SqlitePool(p) => sqlx::query_with(&self.sql, self.sqlite_args()?)
                    .fetch_optional(p)
                    .await?
                    .map(Row::Sqlite),
                Target::Sqlite(c) => sqlx::query_with(&self.sql, self.sqlite_args()?)
                    .fetch_optional(c)
                    .await?
                    .map(Row::Sqlite),
                Target::PgPool(p) => sqlx::query_with(&self.sql, self.pg_args()?)
                    .fetch_optional(p)
                    .await?
                    .map(Row::Pg),
                Target::Pg(c) => sqlx::query_with(&self.sql, self.pg_args()?)
                    .fetch_optional(c)
                    .await?
                    .map(Row::Pg),
            })
        }
        .await;
        noted(row, failed)
    }

    /// Runs the statement and returns its first row. Errors: `RowNotFound` when there is
    /// none, or the database's.
    pub async fn fetch_one<'e>(self, on: impl Executor<'e>) -> Result<Row, sqlx::Error> {
        self.fetch_optional(on)
            .await?
            .ok_or(sqlx::Error::RowNotFound)
    }
}

/// `result`, after setting `failed` (a group write's flag, `crate::sql::Executor::split`)
/// when it is an error: a write whose statement failed never commits.
fn noted<T>(result: Result<T, sqlx::Error>, failed: Option<&mut bool>) -> Result<T, sqlx::Error> {
    if result.is_err() {
        if let Some(failed) = failed {
            *failed = true;
        }
    }
    result
}

fn wrap<R, T>(rows: Vec<R>, f: impl Fn(R) -> T) -> Vec<T> {
    rows.into_iter().map(f).collect()
}

/// How a [`Typed`] statement reads one row as its output `T`: [`AsRecord`] (the whole row)
/// or [`FirstColumn`].
pub trait ReadRow<T> {
    /// `row` as a `T`. Errors: a column missing or of another type (sqlx's decode error).
    fn read(row: &Row) -> Result<T, sqlx::Error>;
}

/// Reads a row as a whole [`Record`] (its columns by name), for [`QueryAs`].
pub struct AsRecord;

impl<T: Record> ReadRow<T> for AsRecord {
    fn read(row: &Row) -> Result<T, sqlx::Error> {
        row.to()
    }
}

/// Reads a row as its first column, a [`Value`], for [`QueryScalar`].
pub struct FirstColumn;

impl<T: Value> ReadRow<T> for FirstColumn {
    fn read(row: &Row) -> Result<T, sqlx::Error> {
        row.try_get(0)
    }
}

/// A statement whose rows are read as `T` by `R` (a [`ReadRow`]). Used as [`QueryAs`] or
/// [`QueryScalar`].
pub struct Typed<'q, T, R> {
    inner: Query<'q>,
    output: PhantomData<fn() -> (T, R)>,
}

/// A statement whose rows are read as `T` (a [`Record`]). Made by [`query_as`].
pub type QueryAs<'q, T> = Typed<'q, T, AsRecord>;

/// A statement whose rows are read as their first column, a `T` ([`Value`]). Made by
/// [`query_scalar`].
pub type QueryScalar<'q, T> = Typed<'q, T, FirstColumn>;

impl<'q, T, R: ReadRow<T>> Typed<'q, T, R> {
    fn new(inner: Query<'q>) -> Self {
        Typed {
            inner,
            output: PhantomData,
        }
    }

    /// Appends a value for the next placeholder.
    pub fn bind(mut self, value: impl Into<Arg<'q>>) -> Self {
        self.inner = self.inner.bind(value);
        self
    }

    /// Every row as a `T`. Errors: the database's, or a row that does not read as `T`.
    pub async fn fetch_all<'e>(self, on: impl Executor<'e>) -> Result<Vec<T>, sqlx::Error> {
        self.inner
            .fetch_all(on)
            .await?
            .iter()
            .map(R::read)
            .collect()
    }

    /// The first row as a `T`, if any. Errors: as [`Typed::fetch_all`].
    pub async fn fetch_optional<'e>(self, on: impl Executor<'e>) -> Result<Option<T>, sqlx::Error> {
        self.inner
            .fetch_optional(on)
            .await?
            .map(|r| R::read(&r))
            .transpose()
    }

    /// The first row as a `T`. Errors: `RowNotFound`, or as [`Typed::fetch_all`].
    pub async fn fetch_one<'e>(self, on: impl Executor<'e>) -> Result<T, sqlx::Error> {
        R::read(&self.inner.fetch_one(on).await?)
    }
}

/// Builds a statement from pieces (filters, column lists); values are bound as `$1, $2, …`
/// in the order they are pushed, a spelling both engines run unchanged. Pieces of text
/// must not hold placeholders of their own.
pub struct Builder<'q> {
    sql: String,
    args: Vec<Arg<'q>>,
}

impl<'q> Builder<'q> {
    /// A statement starting with `sql`.
    pub fn new(sql: impl Into<String>) -> Self {
        Builder {
            sql: sql.into(),
            args: Vec::new(),
        }
    }

    /// Appends SQL text.
    pub fn push(&mut self, sql: impl std::fmt::Display) -> &mut Self {
        use std::fmt::Write;
        let _ = write!(self.sql, "{sql}");
        self
    }

    /// Appends a placeholder (`$N`, N its place among the values) bound to `value`.
    pub fn push_bind(&mut self, value: impl Into<Arg<'q>>) -> &mut Self {
        self.args.push(value.into());
        let _ = std::fmt::Write::write_fmt(&mut self.sql, format_args!("${}", self.args.len()));
        self
    }

    /// Appends pieces separated by `separator` (column and value lists).
    pub fn separated<'b>(&'b mut self, separator: &'b str) -> Separated<'b, 'q> {
        Separated {
            builder: self,
            separator,
            first: true,
        }
    }

    /// Appends `VALUES (…), (…)`, one parenthesized tuple per item, each filled by
    /// `push_tuple` through a comma-separated [`Separated`].
    pub fn push_values<I, F>(&mut self, tuples: I, mut push_tuple: F) -> &mut Self
    where
        I: IntoIterator,
        F: FnMut(Separated<'_, 'q>, I::Item),
    {
        self.sql.push_str("VALUES ");
        for (n, tuple) in tuples.into_iter().enumerate() {
            if n > 0 {
                self.sql.push_str(", ");
            }
            self.sql.push('(');
            push_tuple(self.separated(", "), tuple);
            self.sql.push(')');
        }
        self
    }

    /// The SQL so far.
    pub fn sql(&self) -> &str {
        &self.sql
    }

    /// The statement, ready to run; the builder's values move into it.
    pub fn build(&mut self) -> Query<'_> {
        Query {
            sql: Cow::Borrowed(&self.sql),
            args: std::mem::take(&mut self.args),
        }
    }

    /// The statement with its rows read as `T`.
    pub fn build_query_as<T: Record>(&mut self) -> QueryAs<'_, T> {
        Typed::new(self.build())
    }

    /// The statement with its rows read as their first column.
    pub fn build_query_scalar<T: Value>(&mut self) -> QueryScalar<'_, T> {
        Typed::new(self.build())
    }
}

/// Pieces of a [`Builder`] joined by a separator. Made by [`Builder::separated`].
pub struct Separated<'b, 'q> {
    builder: &'b mut Builder<'q>,
    separator: &'b str,
    first: bool,
}

impl<'q> Separated<'_, 'q> {
    fn separate(&mut self) {
        if !self.first {
            self.builder.sql.push_str(self.separator);
        }
        self.first = false;
    }

    /// Appends SQL text after a separator.
    pub fn push(&mut self, sql: impl std::fmt::Display) -> &mut Self {
        self.separate();
        self.builder.push(sql);
        self
    }

    /// Appends a bound placeholder after a separator.
    pub fn push_bind(&mut self, value: impl Into<Arg<'q>>) -> &mut Self {
        self.separate();
        self.builder.push_bind(value);
        self
    }

    /// Appends SQL text without a separator.
    pub fn push_unseparated(&mut self, sql: impl std::fmt::Display) -> &mut Self {
        self.builder.push(sql);
        self
    }
}

// Binding the column values of a row made once, for both its `INSERT` and its `UPDATE`.

impl<'q> Query<'q> {
    /// Appends `values` for the next placeholders, in order.
    pub fn bind_all(mut self, values: impl IntoIterator<Item = Arg<'q>>) -> Self {
        self.args.extend(values);
        self
    }
}

impl<'q, T: Value> QueryScalar<'q, T> {
    /// Appends `values` for the next placeholders, in order ([`Query::bind_all`]).
    pub fn bind_all(mut self, values: impl IntoIterator<Item = Arg<'q>>) -> Self {
        self.inner = self.inner.bind_all(values);
        self
    }
}
