//! Billing time sheet entries and expenses through invoice items (interface.md: items
//! with `activity_ids` / `expense_ids`). The ids are checked before the write (unknown,
//! not billable, another customer's, already billed: 422 naming the item's field) and
//! claimed inside the invoice's transaction, so two invoices can never bill one entry.

use crate::http::error::{ApiError, ApiResult};
use kontor_model::error::messages;
use kontor_model::error::{push_error, FieldErrors};
use kontor_model::invoice_input::NewInvoice;

/// The two billable kinds: table and field name.
#[derive(Clone, Copy)]
enum Kind {
    Activities,
    Expenses,
}

impl Kind {
    fn table(self) -> &'static str {
        match self {
            Kind::Activities => "activities",
            Kind::Expenses => "expenses",
        }
    }

    fn field(self) -> &'static str {
        match self {
            Kind::Activities => "activity_ids",
            Kind::Expenses => "expense_ids",
        }
    }
}

fn ids_of(body: &NewInvoice, kind: Kind) -> impl Iterator<Item = (usize, &Vec<i64>)> {
    body.items
        .iter()
        .flatten()
        .enumerate()
        .filter_map(move |(i, item)| match kind {
            Kind::Activities => item.activity_ids.as_ref().map(|v| (i, v)),
            Kind::Expenses => item.expense_ids.as_ref().map(|v| (i, v)),
        })
}

/// Checks every referenced activity and expense for an invoice of `customer_id`;
/// `invoice_id` is the draft being edited (its own entries count as free).
pub async fn check(
    pool: &crate::sql::Db,
    body: &NewInvoice,
    customer_id: i64,
    invoice_id: Option<i64>,
    errors: &mut FieldErrors,
) -> ApiResult<()> {
    for kind in [Kind::Activities, Kind::Expenses] {
        let mut seen = std::collections::HashSet::new();
        for (i, ids) in ids_of(body, kind) {
            let field = format!("items[{i}].{}", kind.field());
            for id in ids {
                if !seen.insert(*id) {
                    push_error(errors, &field, messages::LISTS_N_TWICE.with([id]));
                    continue;
                }
                let sql = format!("SELECT x.billable, x.billed, x.invoice_id, p.customer_id FROM {} x JOIN projects p ON p.id = x.project_id WHERE x.id = $1", kind.table());
                let row: Option<(bool, bool, Option<i64>, i64)> = crate::sql::query_as(&sql)
                    .bind(id)
                    .fetch_optional(pool)
                    .await?;
                match row {
                    None => push_error(errors, &field, messages::N_DOES_NOT_EXIST.with([id])),
                    Some((false, ..)) => {
                        push_error(errors, &field, messages::N_IS_NOT_BILLABLE.with([id]))
                    }
                    Some((_, true, billed_by, _))
                        if billed_by.is_none() || billed_by != invoice_id =>
                    {
                        push_error(errors, &field, messages::N_IS_ALREADY_BILLED.with([id]))
                    }
                    Some((.., customer)) if customer != customer_id => push_error(
                        errors,
                        &field,
                        messages::N_BELONGS_TO_ANOTHER_CUSTOMER.with([id]),
                    ),
                    _ => {}
                }
            }
        }
    }
    Ok(())
}

/// Releases what invoice `invoice_id` billed (draft edit, deletion).
pub async fn release(tx: &mut crate::sql::Tx, invoice_id: i64) -> ApiResult<()> {
    for kind in [Kind::Activities, Kind::Expenses] {
        crate::sql::query(&format!(
            "UPDATE {} SET billed = FALSE, invoice_id = NULL, invoice_item_id = NULL WHERE invoice_id = $1",
            kind.table()
        ))
        .bind(invoice_id)
        .execute(&mut *tx)
        .await?;
    }
    Ok(())
}

/// Marks the referenced entries billed by `invoice_id` and by the position whose id is at
/// the same index in `item_ids`; a concurrent claim is a 422.
pub async fn claim(
    tx: &mut crate::sql::Tx,
    body: &NewInvoice,
    invoice_id: i64,
    item_ids: &[i64],
) -> ApiResult<()> {
    for kind in [Kind::Activities, Kind::Expenses] {
        for (i, ids) in ids_of(body, kind) {
            for id in ids {
                let sql = format!(
                    "UPDATE {} SET billed = TRUE, invoice_id = $1, invoice_item_id = $2 WHERE id = $3 AND billed = FALSE",
                    kind.table()
                );
                let done = crate::sql::query(&sql)
                    .bind(invoice_id)
                    .bind(item_ids.get(i))
                    .bind(id)
                    .execute(&mut *tx)
                    .await?;
                if done.rows_affected() != 1 {
                    return Err(ApiError::field(
                        format!("items[{i}].{}", kind.field()),
                        messages::N_IS_ALREADY_BILLED.with([id]),
                    ));
                }
            }
        }
    }
    Ok(())
}

/// [`billed_by_items`] for invoice `i` (the alias) as one JSON value of `engine`
/// (`crate::sql::dialect`): an array of `[item id, 1 for an activity or 0 for an expense,
/// record id]` by record id; for reading an invoice in one statement (the invoice
/// repository's `load`).
pub fn billed_json(engine: crate::sql::Engine) -> String {
    use crate::sql::dialect::{json_array, json_array_agg, json_subquery};
    json_subquery(
        engine,
        &format!(
            "(SELECT {} FROM \
             (SELECT invoice_item_id AS item, 1 AS activity, id FROM activities WHERE invoice_id = i.id AND invoice_item_id IS NOT NULL \
              UNION ALL SELECT invoice_item_id, 0, id FROM expenses WHERE invoice_id = i.id AND invoice_item_id IS NOT NULL) b)",
            json_array_agg(engine, &json_array(engine, &["b.item", "b.activity", "b.id"]), "b.id")
        ),
    )
}
