//! The list layer shared by every list endpoint (`decisions.md` § Lists): the
//! [`ListQuery`] extractor (the resource's filter, `page`/`per_page`/`sort_by` and the
//! global filters, decoded by the model's serde structs; 400 naming a malformed
//! parameter), `sort_by` checking, the global filters' SQL and the page query whose result
//! leaves as a [`PageOf`] (headers `X-Page`, `X-Per-Page`, `X-Total`, `Link`).

pub mod summary;

use crate::http::error::ApiError;
use crate::http::pagination::{absolute_url, PageOf};
use axum::extract::{FromRequestParts, OriginalUri};
use axum::http::request::Parts;
use kontor_model::query::{decode, GlobalFilter, Paging, SortedFilter};
use serde::de::DeserializeOwned;
use serde::Deserialize;

/// A list without filters of its own (only paging and the global filters).
#[derive(Clone, Debug, Default, Deserialize)]
pub struct NoFilter {}

/// One list request: the resource's filter `F` (a serde struct, unknown parameters
/// ignored), paging and sorting, the global filters and the request's absolute URL (for
/// the `Link` header). Rejection: 400 naming the malformed parameter.
pub struct ListQuery<F = NoFilter> {
    /// The resource's own filters.
    pub filter: F,
    /// `page`, `per_page` (capped at 100), `sort_by`.
    pub paging: Paging,
    /// `ids`, `updated_after`, `custom_properties[Name]`.
    pub global: GlobalFilter,
    /// Absolute URL of the request.
    pub url: String,
}

impl<S: Send + Sync, F: DeserializeOwned> FromRequestParts<S> for ListQuery<F> {
    type Rejection = ApiError;

    async fn from_request_parts(parts: &mut Parts, _state: &S) -> Result<Self, Self::Rejection> {
        let query = parts.uri.query().unwrap_or("");
        let uri = parts
            .extensions
            .get::<OriginalUri>()
            .map(|u| u.0.clone())
            .unwrap_or_else(|| parts.uri.clone());
        Ok(ListQuery {
            filter: decode(query)?,
            paging: decode(query)?,
            global: GlobalFilter::from_query(query)?,
            url: absolute_url(&parts.headers, &uri),
        })
    }
}

/// What a simple list reads and how it sorts, for [`ListQuery::fetch`].
pub struct Listing<'a> {
    /// The selected columns (`d.*, c.name AS company_name`).
    pub columns: &'a str,
    /// `FROM …` with its joins; empty when the conditions write it.
    pub from: &'a str,
    /// The alias of the listed table, for the global filters (`d`).
    pub alias: &'a str,
    /// Whether the table has `custom_properties` (for `custom_properties[Name]=Value`).
    pub custom_properties: bool,
    /// The `sort_by` keys and the SQL each sorts by ([`order_by`]).
    pub sorts: &'a [(&'a str, &'a str)],
    /// The `ORDER BY` body without `sort_by`.
    pub default_order: &'a str,
    /// The id expression that breaks ties (`d.id`).
    pub id: &'a str,
}

impl<F> ListQuery<F> {
    /// The `ORDER BY` body for this request's `sort_by` ([`order_by`]). Errors: 400 naming
    /// `sort_by`.
    pub fn order(
        &self,
        allowed: &[(&str, &str)],
        default: &str,
        id_expr: &str,
    ) -> Result<String, ApiError> {
        order_by(self.paging.sort_by.as_deref(), allowed, default, id_expr)
    }

    /// One page of a simple list (`listing` says what it reads and how it sorts):
    /// `conditions` writes the `WHERE` clause (and any `FROM` the listing leaves to it),
    /// this request's global filters are added on `listing.alias`, then one `COUNT` and
    /// one page `SELECT` ([`fetch_page`]). Errors: 400 naming `sort_by`; the database's.
    pub async fn fetch<R, T>(
        &self,
        pool: &crate::sql::Db,
        listing: &Listing<'_>,
        conditions: impl Fn(&mut crate::sql::Builder<'_>),
    ) -> Result<PageOf<T>, ApiError>
    where
        R: crate::sql::Record,
        T: From<R>,
    {
        let order = self.order(listing.sorts, listing.default_order, listing.id)?;
        let push_where = |qb: &mut crate::sql::Builder<'_>| {
            conditions(qb);
            push_global(qb, &self.global, listing.alias, listing.custom_properties);
        };
        let source = (listing.columns, Rows::From(listing.from));
        let (items, total) = self
            .read::<R, T>(pool, source, (&order, None), push_where)
            .await?;
        Ok(self.page(items, total))
    }

    /// [`fetch_page`] of `source` (the selected columns and where the rows come from) in
    /// `order`, on this request's page. Errors: the database's (500).
    async fn read<R, T>(
        &self,
        pool: &crate::sql::Db,
        (columns, rows): (&str, Rows<'_>),
        order: (&str, Option<Keyset<'_>>),
        push_where: impl Fn(&mut crate::sql::Builder<'_>),
    ) -> Result<(Vec<T>, i64), ApiError>
    where
        R: crate::sql::Record,
        T: From<R>,
    {
        fetch_page::<R, T>(pool, columns, rows, push_where, order, &self.paging).await
    }

    /// The page response for `items` of `total` matching records.
    pub fn page<T>(&self, items: Vec<T>, total: i64) -> PageOf<T> {
        PageOf::new(items, total, &self.paging, self.url.clone())
    }

    /// The requested page of a short list loaded whole (categories, a project's expenses,
    /// an offer's attachments, a purchase's payments), with the same headers as any list.
    pub fn slice<T>(&self, all: Vec<T>) -> PageOf<T> {
        let total = i64::try_from(all.len()).unwrap_or(i64::MAX);
        let per_page = self.paging.per_page() as usize;
        // A page beyond what `usize` can count is simply empty.
        let items = match (self.paging.page() as usize - 1).checked_mul(per_page) {
            Some(skip) => all.into_iter().skip(skip).take(per_page).collect(),
            None => Vec::new(),
        };
        self.page(items, total)
    }
}

/// Turns `sort_by=<field> [asc|desc]` into an `ORDER BY` body using `allowed`
/// (wire field → SQL expression); `default` when absent. Ties break on `id` in the same
/// direction (`id_expr`, e.g. `i.id`). Errors: 400 naming `sort_by` for an unknown field or
/// direction.
pub fn order_by(
    sort_by: Option<&str>,
    allowed: &[(&str, &str)],
    default: &str,
    id_expr: &str,
) -> Result<String, ApiError> {
    let Some(raw) = sort_by.map(str::trim).filter(|s| !s.is_empty()) else {
        return Ok(default.to_string());
    };
    let mut parts = raw.split_whitespace();
    let field = parts.next().unwrap_or("");
    let dir = match parts.next().map(|d| d.to_ascii_lowercase()) {
        None => "ASC",
        Some(d) if d == "asc" => "ASC",
        Some(d) if d == "desc" => "DESC",
        Some(_) => {
            return Err(ApiError::BadRequest(
                "Query parameter sort_by direction must be asc or desc.".into(),
            ))
        }
    };
    let expr = allowed
        .iter()
        .find(|(name, _)| *name == field)
        .map(|(_, expr)| *expr)
        .ok_or_else(|| {
            let names: Vec<_> = allowed.iter().map(|(n, _)| *n).collect();
            ApiError::BadRequest(format!(
                "Query parameter sort_by must name one of: {}.",
                names.join(", ")
            ))
        })?;
    Ok(format!("{expr} {dir}, {id_expr} {dir}"))
}

/// The `ORDER BY` body for a list's `sort`/`order` pair (issue 11 § Find and see):
/// `keys` maps each `sort` key (already checked by the model's filter) to its SQL
/// expression; without `order` the key's [`SortOrder::default_for`] applies. Ties break
/// on `id_expr` in the same direction, so pages are stable. `None` when `sort` is absent
/// (or, which the model's check rules out, not in `keys`).
pub fn sort_order(
    sort: Option<&str>,
    order: Option<kontor_model::query::SortOrder>,
    keys: &[(&str, &str)],
    id_expr: &str,
) -> Option<String> {
    let key = sort?;
    let expr = keys.iter().find(|(k, _)| *k == key)?.1;
    let dir = match order.unwrap_or_else(|| kontor_model::query::SortOrder::default_for(key)) {
        kontor_model::query::SortOrder::Asc => "ASC",
        kontor_model::query::SortOrder::Desc => "DESC",
    };
    Some(format!("{expr} {dir}, {id_expr} {dir}"))
}

/// What a document list (offers, purchases) reads and how it sorts, for
/// [`ListQuery::fetch_documents`].
pub struct DocumentListing<'a> {
    /// The selected columns (the row's, with its references' names).
    pub columns: &'a str,
    /// The table, its joins and its counter ([`fetch_page`]).
    pub table: &'a ListTable,
    /// Issue 11's `sort` keys and the SQL each sorts by ([`sort_order`]).
    pub sort_keys: &'a [(&'a str, &'a str)],
    /// The `sort_by` fields and the SQL each sorts by ([`order_by`]).
    pub sorts: &'a [(&'a str, &'a str)],
    /// The `ORDER BY` body without `sort` and `sort_by`.
    pub default_order: &'a str,
    /// The id expression that breaks ties (`o.id`).
    pub id: &'a str,
    /// The sort expressions of `sorts` and `sort_keys` that are never NULL: an order by one
    /// of them is read by cursor when the request carries one ([`keyset_of`], issue 35).
    pub keyset_sorts: &'a [&'a str],
}

/// One page of a document list ([`ListQuery::fetch_documents`]).
pub struct DocumentPage<R> {
    /// The page's rows, in the list's order.
    pub rows: Vec<R>,
    /// How many records the filters select.
    pub total: i64,
    /// Whether the list's order can be followed by cursor: then the `Link` header's `next`
    /// carries the id of the page's last record ([`PageOf::with_next_cursor`]).
    pub by_cursor: bool,
}

impl<F: SortedFilter> ListQuery<F> {
    /// The `ORDER BY` body of a document list: without `sort_by`, the filter's
    /// `sort`/`order` pair ([`sort_order`] over `listing.sort_keys`); with `sort_by` (which
    /// wins when both are given) or without either, [`ListQuery::order`] over
    /// `listing.sorts` and `listing.default_order`. Ties break on `listing.id`. Errors: 400
    /// naming `sort_by`.
    pub fn document_order(&self, listing: &DocumentListing<'_>) -> Result<String, ApiError> {
        let (sort, order) = self.filter.sorting();
        match sort_order(sort, order, listing.sort_keys, listing.id) {
            Some(order) if self.paging.sort_by.is_none() => Ok(order),
            _ => self.order(listing.sorts, listing.default_order, listing.id),
        }
    }

    /// One page of a document list in [`ListQuery::document_order`]: `push_where` writes
    /// its conditions (`WHERE …`), [`fetch_page`] reads the page's rows as `R` and the
    /// total — after the cursor's record when the order is one of
    /// `listing.keyset_sorts` (issue 35). Errors: 400 naming `sort_by`; the database's
    /// (500).
    pub async fn fetch_documents<R: crate::sql::Record>(
        &self,
        pool: &crate::sql::Db,
        listing: &DocumentListing<'_>,
        push_where: impl Fn(&mut crate::sql::Builder<'_>),
    ) -> Result<DocumentPage<R>, ApiError> {
        let order = self.document_order(listing)?;
        let keyset = keyset_of(&order, listing.keyset_sorts, listing.id);
        let source = (listing.columns, Rows::Table(listing.table));
        let (rows, total) = self
            .read::<R, R>(pool, source, (&order, keyset), push_where)
            .await?;
        Ok(DocumentPage {
            rows,
            total,
            by_cursor: keyset.is_some(),
        })
    }
}

/// Appends ` AND (c1 LIKE p ESCAPE '\' OR c2 LIKE p ...)` for a search `term` over the
/// SQL expressions `columns`, both sides folded ([`crate::sql::functions`]: case-insensitive
/// for every letter, "ärzte" finds "ÄRZTE" on both engines; `%`/`_` literal, `*` a
/// wildcard; see [`like_pattern`]).
pub fn push_term(qb: &mut crate::sql::Builder<'_>, term: &str, columns: &[&str]) {
    let pattern = like_pattern(term);
    qb.push(" AND (");
    for (n, column) in columns.iter().enumerate() {
        if n > 0 {
            qb.push(" OR ");
        }
        qb.push(crate::sql::functions::like(column))
            .push_bind(pattern.clone())
            .push(crate::sql::functions::LIKE_END);
    }
    qb.push(")");
}

/// Appends ` AND ...` conditions for the global filters on table alias `t`.
/// `has_custom_properties` says whether the table has a `custom_properties` column;
/// without one a custom-property filter matches nothing.
pub fn push_global(
    qb: &mut crate::sql::Builder<'_>,
    global: &GlobalFilter,
    t: &str,
    has_custom_properties: bool,
) {
    if let Some(ids) = &global.ids {
        if ids.is_empty() {
            qb.push(" AND FALSE");
        } else {
            qb.push(format!(" AND {t}.id IN ("));
            let mut sep = qb.separated(", ");
            for id in ids {
                sep.push_bind(*id);
            }
            qb.push(")");
        }
    }
    if let Some(after) = global.updated_after {
        qb.push(format!(" AND {t}.updated_at > "))
            .push_bind(crate::store::db::ts(after));
    }
    for (key, value) in &global.custom_properties {
        if has_custom_properties {
            qb.push(format!(
                " AND EXISTS (SELECT 1 FROM json_each({t}.custom_properties) WHERE key = "
            ))
            .push_bind(key.clone())
            .push(" AND value = ")
            .push_bind(value.clone())
            .push(")");
        } else {
            qb.push(" AND FALSE");
        }
    }
}

/// Escapes `%`, `_` and `\` for a LIKE pattern and turns `*` into `%`; the result is
/// wrapped in `%…%` (use with `ESCAPE '\'`).
pub fn like_pattern(term: &str) -> String {
    let mut out = String::from("%");
    for ch in term.chars() {
        match ch {
            '%' | '_' | '\\' => {
                out.push('\\');
                out.push(ch);
            }
            '*' => out.push('%'),
            c => out.push(c),
        }
    }
    out.push('%');
    out
}

/// Where a page's rows come from, for [`fetch_page`].
#[derive(Clone, Copy)]
pub enum Rows<'a> {
    /// A simple list's `FROM …` with its joins: one `COUNT(*)` and one `SELECT` over it.
    From(&'a str),
    /// A document list's table, counter and joins: the count from the counter where it
    /// holds, the page's ids chosen from the table alone, the joins added for those rows.
    Table(&'a ListTable),
}

impl<'a> From<&'a str> for Rows<'a> {
    fn from(from: &'a str) -> Self {
        Rows::From(from)
    }
}

impl<'a> From<&'a ListTable> for Rows<'a> {
    fn from(table: &'a ListTable) -> Self {
        Rows::Table(table)
    }
}

/// Runs a list query: the total of the rows the conditions select (appended by
/// `push_where`, which must start with ` WHERE`) and `SELECT {columns}` of them, ordered
/// by `order` and limited to the page of `paging`. From a `FROM …` clause
/// ([`Rows::From`]) that is one `COUNT(*)` and one `SELECT` with the same conditions; from
/// a [`ListTable`] ([`Rows::Table`]) a query whose cost does not grow with the stored rows
/// where indexes allow: the total is the `list_counts` counter when the conditions are
/// the unfiltered list's (else `COUNT(*)` over the table alone, without joins); the
/// page's ids are chosen first from the table alone (an index scan for the sortable
/// columns, also for deep pages), and only those rows are joined and converted (`order`
/// is then an `ORDER BY` body over the table's alias). With `keyset` (the order's
/// [`Keyset`], from [`keyset_of`]) and a cursor in `paging` naming a stored record of a
/// [`ListTable`], the page is the rows after that record ([`KeysetAnchor`], issue 35);
/// a `FROM …` clause is always paged by number. Returns the page's rows converted
/// to `T` and the total count. Errors: database errors (500).
pub async fn fetch_page<'a, R, T>(
    pool: &crate::sql::Db,
    columns: &str,
    rows: impl Into<Rows<'a>>,
    push_where: impl Fn(&mut crate::sql::Builder<'_>),
    (order, keyset): (&str, Option<Keyset<'_>>),
    paging: &kontor_model::query::Paging,
) -> Result<(Vec<T>, i64), ApiError>
where
    R: crate::sql::Record,
    T: From<R>,
{
    let rows = rows.into();
    let total = page_total(pool, rows, &push_where).await?;
    let mut select = crate::sql::Builder::new(format!("SELECT {columns}"));
    match rows {
        Rows::From(from) => {
            select.push(format!(" {from}"));
            push_where(&mut select);
            push_order_and_page(&mut select, order, paging);
        }
        Rows::Table(table) => {
            push_page_at(
                pool,
                &mut select,
                table,
                &push_where,
                (order, keyset),
                paging,
            )
            .await?;
            select.push(format!(" ORDER BY {order}"));
        }
    }
    Ok((converted_rows(pool, &mut select).await?, total))
}

/// Appends ` ORDER BY {order} LIMIT {per_page}` and, beyond page 1, ` OFFSET $m`: the rows
/// of `paging`'s page. The page size (1–100) is written into the statement, not bound:
/// PostgreSQL plans a statement whose `LIMIT` or `OFFSET` is a parameter for 10 % of the
/// table and so plans it again at every execution (≈ 1 ms per list page, issue 35,
/// `docs/benchmarks.md` § PostgreSQL lists); with the size written and no offset, page 1
/// and every page read by cursor keep one plan. Deep pages by number bind the offset
/// ([`kontor_model::query::Paging::offset`], 64 bits).
fn push_order_and_page(
    qb: &mut crate::sql::Builder<'_>,
    order: &str,
    paging: &kontor_model::query::Paging,
) {
    qb.push(format!(" ORDER BY {order} LIMIT {}", paging.per_page()));
    push_offset(qb, paging);
}

/// Appends ` OFFSET $m` for a page beyond the first (nothing on page 1). Offsets beyond
/// `i64` cannot come from a `u32` page of at most 100 rows.
fn push_offset(qb: &mut crate::sql::Builder<'_>, paging: &kontor_model::query::Paging) {
    let offset = paging.offset();
    if offset > 0 {
        qb.push(" OFFSET ")
            .push_bind(i64::try_from(offset).unwrap_or(i64::MAX));
    }
}

/// The rows `select` reads, each read as `R` and converted to `T`. Errors: the
/// database's (500).
async fn converted_rows<R, T>(
    pool: &crate::sql::Db,
    select: &mut crate::sql::Builder<'_>,
) -> Result<Vec<T>, ApiError>
where
    R: crate::sql::Record,
    T: From<R>,
{
    let rows: Vec<R> = select.build_query_as().fetch_all(pool).await?;
    Ok(rows.into_iter().map(T::from).collect())
}

/// A document list's table for [`fetch_page`] (issue 13 § Lists whose cost does
/// not grow with the data).
pub struct ListTable {
    /// The table with its alias, e.g. `invoices i`.
    pub table: &'static str,
    /// The id column with the alias, e.g. `i.id`.
    pub id: &'static str,
    /// The joins the list's columns need (` LEFT JOIN users u ON …`); the conditions and
    /// the order must not use them (they use subqueries instead).
    pub joins: &'static str,
    /// The `list_counts` row (kept by triggers, migration 0018) and the exact conditions
    /// (as `push_where` writes them) under which it is the total: the unfiltered list.
    pub counter: (&'static str, &'static str),
}

/// The total of a list ([`fetch_page`]): `COUNT(*)` over a `FROM …` clause; for a
/// [`ListTable`] the `list_counts` counter when the conditions are the unfiltered list's,
/// else `COUNT(*)` over the table alone.
async fn page_total(
    pool: &crate::sql::Db,
    rows: Rows<'_>,
    push_where: &impl Fn(&mut crate::sql::Builder<'_>),
) -> Result<i64, ApiError> {
    let from = match rows {
        Rows::From(from) => from.to_string(),
        Rows::Table(table) => {
            let mut conditions = crate::sql::Builder::new("");
            push_where(&mut conditions);
            let (counter, unfiltered) = table.counter;
            if conditions.sql() == unfiltered {
                return Ok(crate::sql::query_scalar(
                    "SELECT live FROM list_counts WHERE list = $1",
                )
                .bind(counter)
                .fetch_one(pool)
                .await?);
            }
            format!("FROM {}", table.table)
        }
    };
    let mut count = crate::sql::Builder::new(format!("SELECT COUNT(*) {from}"));
    push_where(&mut count);
    Ok(count.build_query_scalar().fetch_one(pool).await?)
}

/// Appends ` FROM (<the page's ids>) page JOIN <table> ON … <joins>`: the ids chosen from
/// the table alone in `order` (an index scan for the sortable columns), limited to the
/// page of `paging` — or, with `after`, to the rows after that record in `order`
/// ([`KeysetAnchor`], no `OFFSET`).
fn push_page_from(
    qb: &mut crate::sql::Builder<'_>,
    table: &ListTable,
    push_where: &impl Fn(&mut crate::sql::Builder<'_>),
    order: &str,
    paging: &kontor_model::query::Paging,
    after: Option<&KeysetAnchor<'_>>,
) {
    qb.push(" FROM (");
    match after {
        Some(anchor) => anchor.push_page_ids(qb, table, push_where, order, paging.per_page()),
        None => {
            qb.push(format!(
                "SELECT {} AS page_id FROM {}",
                table.id, table.table
            ));
            push_where(qb);
            push_order_and_page(qb, order, paging);
        }
    }
    qb.push(format!(
        ") page JOIN {} ON {} = page.page_id{}",
        table.table, table.id, table.joins
    ));
}

/// [`push_page_from`] for `paging`'s page: after the record its cursor names when `keyset`
/// follows the order and that record exists ([`keyset_anchor`]), else at the page
/// number's offset. Errors: the database's (500).
async fn push_page_at(
    pool: &crate::sql::Db,
    select: &mut crate::sql::Builder<'_>,
    table: &ListTable,
    push_where: &impl Fn(&mut crate::sql::Builder<'_>),
    (order, keyset): (&str, Option<Keyset<'_>>),
    paging: &kontor_model::query::Paging,
) -> Result<(), ApiError> {
    let after = keyset_anchor(pool, table, keyset, paging).await?;
    push_page_from(select, table, push_where, order, paging, after.as_ref());
    Ok(())
}

/// The one sort expression of a list order that keyset paging can follow (issue 35): an
/// expression over the table's alias that is never NULL, and its direction; ties break
/// on the id in the same direction.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Keyset<'a> {
    /// The sort expression (`i.date`).
    pub expr: &'a str,
    /// Whether the order is descending.
    pub descending: bool,
}

/// The [`Keyset`] of `order` (an `ORDER BY` body as [`order_by`] and [`sort_order`] write
/// it) when it is exactly `"{expr} {dir}, {id} {dir}"` for one of `never_null` (sort
/// expressions that are never NULL); `None` for any other order, which is then paged by
/// number only.
pub fn keyset_of<'a>(order: &str, never_null: &[&'a str], id: &str) -> Option<Keyset<'a>> {
    never_null.iter().find_map(|expr| {
        [("DESC", true), ("ASC", false)]
            .into_iter()
            .find(|(dir, _)| order == format!("{expr} {dir}, {id} {dir}"))
            .map(|(_, descending)| Keyset { expr, descending })
    })
}

/// A page read by cursor: the rows after record `id` in the order of `keyset`.
pub struct KeysetAnchor<'a> {
    /// The order's sort expression.
    pub keyset: Keyset<'a>,
    /// The id of the last record of the page before.
    pub id: i64,
}

impl KeysetAnchor<'_> {
    /// Appends the page's ids (`SELECT … AS page_id …`, at most `limit`) after the anchor:
    /// the rows that share the anchor's sort value A and come after it by id (`{expr} = A
    /// AND {id} < anchor`, `>` ascending), and the rows after A (`{expr} < A`), each read
    /// from the sort index — equality and a range, so neither walks the anchor's ties or
    /// the pages before — and the first `limit` of both in `order`. A is `(SELECT {expr}
    /// FROM {table} WHERE {id} = anchor)`: the expression over the table's alias, which
    /// the subquery's `FROM` names again.
    fn push_page_ids(
        &self,
        qb: &mut crate::sql::Builder<'_>,
        table: &ListTable,
        push_where: &impl Fn(&mut crate::sql::Builder<'_>),
        order: &str,
        limit: u32,
    ) {
        let (expr, id, from) = (self.keyset.expr, table.id, table.table);
        let (op, dir) = if self.keyset.descending {
            ("<", "DESC")
        } else {
            (">", "ASC")
        };
        let anchor_value = |qb: &mut crate::sql::Builder<'_>| {
            qb.push(format!("(SELECT {expr} FROM {from} WHERE {id} = "))
                .push_bind(self.id)
                .push(")");
        };
        // `limit` (1–100) is written into the statement like [`push_order_and_page`]'s.
        qb.push(format!(
            "SELECT {id} AS page_id FROM (SELECT ties.page_id FROM (SELECT {id} AS page_id FROM {from}"
        ));
        push_where(qb);
        qb.push(format!(" AND {expr} = "));
        anchor_value(qb);
        qb.push(format!(" AND {id} {op} "))
            .push_bind(self.id)
            .push(format!(" ORDER BY {id} {dir} LIMIT {limit}"))
            .push(format!(
                ") ties UNION ALL SELECT later.page_id FROM (SELECT {id} AS page_id FROM {from}"
            ));
        push_where(qb);
        qb.push(format!(" AND {expr} {op} "));
        anchor_value(qb);
        qb.push(format!(
            " ORDER BY {order} LIMIT {limit}) later) keyset_rows JOIN {from} ON {id} = keyset_rows.page_id ORDER BY {order} LIMIT {limit}"
        ));
    }
}

/// The anchor of a page read by cursor: `paging`'s cursor when `keyset` follows the
/// order and the record still exists in `table` (a cursor naming no record is ignored
/// and the page is read by its number). Errors: the database's.
async fn keyset_anchor<'a>(
    pool: &crate::sql::Db,
    table: &ListTable,
    keyset: Option<Keyset<'a>>,
    paging: &kontor_model::query::Paging,
) -> Result<Option<KeysetAnchor<'a>>, ApiError> {
    let (Some(keyset), Some(cursor)) = (keyset, paging.cursor) else {
        return Ok(None);
    };
    let found: Option<i64> = crate::sql::query_scalar(&format!(
        "SELECT {id} FROM {} WHERE {id} = $1",
        table.table,
        id = table.id
    ))
    .bind(cursor.0)
    .fetch_optional(pool)
    .await?;
    Ok(found.map(|id| KeysetAnchor { keyset, id }))
}

/// How a document list's record crosses from the database ([`fetch_document_page`]):
/// both forms name the same fields, as the record type `R` reads them.
#[derive(Clone, Copy, Debug)]
pub struct PageForm<'a> {
    /// The record as one JSON object expression of the pool's engine over the table's
    /// alias and joins (`crate::sql::dialect::json_object`), for SQLite.
    pub object: &'a str,
    /// The record as a column list (`i.id, …, {sql} AS paid_milli`), for PostgreSQL.
    pub columns: &'a str,
}

/// [`fetch_page`] of a [`ListTable`] in each engine's fastest form (issue 35, measured in
/// `docs/benchmarks.md` § PostgreSQL lists): on **SQLite** the database writes the page's
/// rows as one JSON array (`crate::sql::dialect::json_array_agg` of `form.object`, in
/// `order`), decoded into `R`s — one row crosses from the database's thread instead of one
/// per record, the per-row costs that bounded the invoice list (issue 13's profile). On
/// **PostgreSQL** the rows cross as columns ([`fetch_page`] of `form.columns`, sqlx's
/// binary rows): building the same JSON in the database server took two thirds of its
/// time for a page. With
/// `keyset` (the order's [`Keyset`], from [`keyset_of`]; `None` when it has none) and a
/// cursor in `paging` that names a stored record, the page is the rows after that record
/// ([`KeysetAnchor`], issue 35) instead of the page at its number's offset. Returns the
/// page's records and the total. Errors: database errors and a row that does not decode
/// (a corrupt stored value) are 500s.
pub async fn fetch_document_page<R>(
    pool: &crate::sql::Db,
    form: PageForm<'_>,
    table: &ListTable,
    push_where: impl Fn(&mut crate::sql::Builder<'_>),
    (order, keyset): (&str, Option<Keyset<'_>>),
    paging: &kontor_model::query::Paging,
) -> Result<(Vec<R>, i64), ApiError>
where
    R: serde::de::DeserializeOwned + crate::sql::Record,
{
    let engine = pool.engine();
    if engine == crate::sql::Engine::Postgres {
        return fetch_page::<R, R>(
            pool,
            form.columns,
            table,
            push_where,
            (order, keyset),
            paging,
        )
        .await;
    }
    let total = page_total(pool, Rows::Table(table), &push_where).await?;
    let page = crate::sql::dialect::json_array_agg(engine, form.object, order);
    let mut select = crate::sql::Builder::new(format!(
        "SELECT {}",
        crate::sql::dialect::json_text(engine, &page)
    ));
    push_page_at(
        pool,
        &mut select,
        table,
        &push_where,
        (order, keyset),
        paging,
    )
    .await?;
    let page: String = select.build_query_scalar().fetch_one(pool).await?;
    let rows = serde_json::from_str(&page)
        .map_err(|e| ApiError::Internal(format!("a stored {} row: {e}", table.table)))?;
    Ok((rows, total))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sort_by_is_checked() {
        let allowed = [("date", "t.date"), ("title", "t.title")];
        assert_eq!(
            order_by(Some("title desc"), &allowed, "d", "t.id").unwrap(),
            "t.title DESC, t.id DESC"
        );
        assert_eq!(
            order_by(Some("date"), &allowed, "d", "t.id").unwrap(),
            "t.date ASC, t.id ASC"
        );
        assert_eq!(order_by(None, &allowed, "d", "t.id").unwrap(), "d");
        assert!(order_by(Some("password"), &allowed, "d", "t.id").is_err());
        assert!(order_by(Some("date sideways"), &allowed, "d", "t.id").is_err());
    }

    #[test]
    fn keyset_follows_one_never_null_sort_and_its_id() {
        let exprs = ["i.date", "CAST(i.gross_total AS REAL)"];
        assert_eq!(
            keyset_of("i.date DESC, i.id DESC", &exprs, "i.id"),
            Some(Keyset {
                expr: "i.date",
                descending: true
            })
        );
        assert_eq!(
            keyset_of("CAST(i.gross_total AS REAL) ASC, i.id ASC", &exprs, "i.id"),
            Some(Keyset {
                expr: "CAST(i.gross_total AS REAL)",
                descending: false
            })
        );
        for other in [
            "i.identifier ASC, i.id ASC",
            "i.date DESC, i.id ASC",
            "i.date DESC",
            "i.date DESC, i.title DESC, i.id DESC",
        ] {
            assert_eq!(keyset_of(other, &exprs, "i.id"), None, "{other}");
        }
    }

    #[test]
    fn like_escapes() {
        assert_eq!(like_pattern("50%_a*b"), "%50\\%\\_a%b%");
    }
}
