//! Field errors of positions: a 422's `items[2].unit_price` belongs to the row that was
//! third when the body was sent.

use super::row::PositionRow;
use kontor_model::error::FieldErrors;
use std::collections::HashMap;

/// Splits field errors into those of the document and those of its positions, the latter
/// keyed by row key and field (`items[2].unit_price` → row 2's key, `unit_price`). Call it
/// when the errors arrive, with the rows in the order that was sent.
pub fn split_row_errors(
    errors: &FieldErrors,
    rows: &[PositionRow],
) -> (FieldErrors, HashMap<u64, FieldErrors>) {
    let mut document = FieldErrors::new();
    let mut by_row: HashMap<u64, FieldErrors> = HashMap::new();
    for (path, messages) in errors {
        let row_field = path.strip_prefix("items[").and_then(|rest| {
            let (index, field) = rest.split_once("].")?;
            Some((index.parse::<usize>().ok()?, field))
        });
        match row_field.and_then(|(i, field)| Some((rows.get(i)?.key, field))) {
            Some((key, field)) => {
                by_row
                    .entry(key)
                    .or_default()
                    .insert(field.to_string(), messages.clone());
            }
            None => {
                document.insert(path.clone(), messages.clone());
            }
        }
    }
    (document, by_row)
}
