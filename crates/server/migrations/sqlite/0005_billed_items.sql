-- Which invoice position bills a time sheet entry or an expense, so an invoice's items
-- can report their `activity_ids` / `expense_ids` (and a draft edit keeps them).
ALTER TABLE activities ADD COLUMN invoice_item_id INTEGER REFERENCES invoice_items(id);
ALTER TABLE expenses ADD COLUMN invoice_item_id INTEGER REFERENCES invoice_items(id);
