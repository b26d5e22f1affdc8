-- Lists whose cost does not grow with the data (issue 13, docs/decisions.md § Fast lists).
--
-- 1. The unfiltered X-Total of GET /invoices, /offers and /purchases is kept by the write
--    path: triggers update one counter row in the same transaction as every insert,
--    delete and (invoices) soft delete or restore, so the count is exact and costs one
--    row read instead of a scan of every stored record.
CREATE TABLE list_counts (
    list TEXT PRIMARY KEY,
    live INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO list_counts (list, live) VALUES
    ('invoices', (SELECT COUNT(*) FROM invoices WHERE deleted_at IS NULL)),
    ('offers', (SELECT COUNT(*) FROM offers)),
    ('purchases', (SELECT COUNT(*) FROM purchases));

CREATE TRIGGER list_counts_invoices_insert AFTER INSERT ON invoices
WHEN NEW.deleted_at IS NULL
BEGIN
    UPDATE list_counts SET live = live + 1 WHERE list = 'invoices';
END;

CREATE TRIGGER list_counts_invoices_delete AFTER DELETE ON invoices
WHEN OLD.deleted_at IS NULL
BEGIN
    UPDATE list_counts SET live = live - 1 WHERE list = 'invoices';
END;

CREATE TRIGGER list_counts_invoices_soft_delete AFTER UPDATE OF deleted_at ON invoices
WHEN (OLD.deleted_at IS NULL) <> (NEW.deleted_at IS NULL)
BEGIN
    UPDATE list_counts
    SET live = live + (CASE WHEN NEW.deleted_at IS NULL THEN 1 ELSE -1 END)
    WHERE list = 'invoices';
END;

CREATE TRIGGER list_counts_offers_insert AFTER INSERT ON offers
BEGIN
    UPDATE list_counts SET live = live + 1 WHERE list = 'offers';
END;

CREATE TRIGGER list_counts_offers_delete AFTER DELETE ON offers
BEGIN
    UPDATE list_counts SET live = live - 1 WHERE list = 'offers';
END;

CREATE TRIGGER list_counts_purchases_insert AFTER INSERT ON purchases
BEGIN
    UPDATE list_counts SET live = live + 1 WHERE list = 'purchases';
END;

CREATE TRIGGER list_counts_purchases_delete AFTER DELETE ON purchases
BEGIN
    UPDATE list_counts SET live = live - 1 WHERE list = 'purchases';
END;

-- 2. Every sortable column of the invoice list has an index in the list's own order
--    (live invoices first), so a page is read from the index instead of sorting every
--    stored row; the amount sorts use the same expression as the ORDER BY.
CREATE INDEX invoices_live_due_date ON invoices (deleted_at, due_date, id);
CREATE INDEX invoices_live_identifier ON invoices (deleted_at, identifier, id);
CREATE INDEX invoices_live_title ON invoices (deleted_at, title COLLATE NOCASE, id);
CREATE INDEX invoices_live_status ON invoices (deleted_at, status, date DESC, id DESC);
CREATE INDEX invoices_live_customer ON invoices (deleted_at, customer_id, date DESC, id DESC);
CREATE INDEX invoices_live_gross ON invoices (deleted_at, CAST(gross_total AS REAL), id);
CREATE INDEX invoices_live_net ON invoices (deleted_at, CAST(net_total AS REAL), id);
CREATE INDEX invoices_live_created ON invoices (deleted_at, created_at, id);
CREATE INDEX invoices_live_updated ON invoices (deleted_at, updated_at, id);

CREATE INDEX offers_identifier ON offers (identifier, id);
CREATE INDEX offers_created ON offers (created_at, id);
CREATE INDEX offers_company_date ON offers (company_id, date DESC, id DESC);
CREATE INDEX offers_gross ON offers (CAST(gross_total AS REAL), id);

CREATE INDEX purchases_identifier ON purchases (identifier, id);
CREATE INDEX purchases_company_date ON purchases (company_id, date DESC, id DESC);
CREATE INDEX purchases_gross ON purchases (CAST(gross_total AS REAL), id);

ANALYZE;
