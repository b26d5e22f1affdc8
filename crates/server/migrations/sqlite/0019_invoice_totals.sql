-- The unfiltered invoice list's totals kept by the write path (issue 13, docs/decisions.md
-- § Fast lists): GET /invoices/summary without filters read every stored invoice (569 ms
-- at 131,000 invoices, and the list page asks for it on every visit). Now one row per
-- currency holds the count, net, gross and open sums of the live invoices, kept exact by
-- triggers in the same transaction as every write that changes them.
--
-- `invoice_summary_rows` is each live invoice's contribution, in thousandths of the
-- currency unit, with exactly the expressions of the computed summary (`summary::milli!`
-- and `invoices::repo::OPEN_AMOUNT_SQL`; a server test compares the text). A BEFORE
-- trigger takes an invoice's contribution out, the AFTER trigger puts it back in as it
-- now is; a payment changes its invoice's open amount the same way.
CREATE VIEW invoice_summary_rows AS
SELECT i.id AS id, i.currency AS currency,
    (CASE WHEN substr(i.net_total, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(i.net_total, '.') > 0 THEN substr(ltrim(i.net_total, '-'), 1, instr(ltrim(i.net_total, '-'), '.') - 1) ELSE ltrim(i.net_total, '-') END AS INTEGER) * 1000 + CASE WHEN instr(i.net_total, '.') > 0 THEN CAST(substr(substr(i.net_total, instr(i.net_total, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END)) AS net_milli,
    (CASE WHEN substr(i.gross_total, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(i.gross_total, '.') > 0 THEN substr(ltrim(i.gross_total, '-'), 1, instr(ltrim(i.gross_total, '-'), '.') - 1) ELSE ltrim(i.gross_total, '-') END AS INTEGER) * 1000 + CASE WHEN instr(i.gross_total, '.') > 0 THEN CAST(substr(substr(i.gross_total, instr(i.gross_total, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END)) AS gross_milli,
    (CASE WHEN i.reversed = 0 AND i.status IN ('created', 'sent', 'partially_paid', 'paid', 'overdue') THEN MAX((CASE WHEN substr(i.gross_total, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(i.gross_total, '.') > 0 THEN substr(ltrim(i.gross_total, '-'), 1, instr(ltrim(i.gross_total, '-'), '.') - 1) ELSE ltrim(i.gross_total, '-') END AS INTEGER) * 1000 + CASE WHEN instr(i.gross_total, '.') > 0 THEN CAST(substr(substr(i.gross_total, instr(i.gross_total, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END)) - COALESCE((SELECT SUM((CASE WHEN substr(ip.paid_total, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(ip.paid_total, '.') > 0 THEN substr(ltrim(ip.paid_total, '-'), 1, instr(ltrim(ip.paid_total, '-'), '.') - 1) ELSE ltrim(ip.paid_total, '-') END AS INTEGER) * 1000 + CASE WHEN instr(ip.paid_total, '.') > 0 THEN CAST(substr(substr(ip.paid_total, instr(ip.paid_total, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END))) FROM invoice_payments ip WHERE ip.invoice_id = i.id), 0), 0) ELSE 0 END) AS open_milli
FROM invoices i WHERE i.deleted_at IS NULL;

CREATE TABLE invoice_totals (
    currency TEXT PRIMARY KEY,
    live INTEGER NOT NULL,
    net_milli INTEGER NOT NULL,
    gross_milli INTEGER NOT NULL,
    open_milli INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
SELECT currency, COUNT(*), SUM(net_milli), SUM(gross_milli), SUM(open_milli)
FROM invoice_summary_rows GROUP BY currency;

CREATE TRIGGER invoice_totals_insert AFTER INSERT ON invoices
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, 1, net_milli, gross_milli, open_milli FROM invoice_summary_rows WHERE id = NEW.id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

CREATE TRIGGER invoice_totals_delete BEFORE DELETE ON invoices
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, -1, -net_milli, -gross_milli, -open_milli FROM invoice_summary_rows WHERE id = OLD.id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

CREATE TRIGGER invoice_totals_update_before BEFORE UPDATE OF deleted_at, currency, net_total, gross_total, status, reversed ON invoices
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, -1, -net_milli, -gross_milli, -open_milli FROM invoice_summary_rows WHERE id = OLD.id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

CREATE TRIGGER invoice_totals_update_after AFTER UPDATE OF deleted_at, currency, net_total, gross_total, status, reversed ON invoices
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, 1, net_milli, gross_milli, open_milli FROM invoice_summary_rows WHERE id = NEW.id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

CREATE TRIGGER invoice_totals_payment_insert_before BEFORE INSERT ON invoice_payments
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, -1, -net_milli, -gross_milli, -open_milli FROM invoice_summary_rows WHERE id = NEW.invoice_id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

CREATE TRIGGER invoice_totals_payment_insert_after AFTER INSERT ON invoice_payments
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, 1, net_milli, gross_milli, open_milli FROM invoice_summary_rows WHERE id = NEW.invoice_id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

CREATE TRIGGER invoice_totals_payment_delete_before BEFORE DELETE ON invoice_payments
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, -1, -net_milli, -gross_milli, -open_milli FROM invoice_summary_rows WHERE id = OLD.invoice_id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

CREATE TRIGGER invoice_totals_payment_delete_after AFTER DELETE ON invoice_payments
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, 1, net_milli, gross_milli, open_milli FROM invoice_summary_rows WHERE id = OLD.invoice_id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

-- A payment's amount or invoice changes: both invoices (one when it stays) are taken out
-- before and put back after.
CREATE TRIGGER invoice_totals_payment_update_before BEFORE UPDATE OF invoice_id, paid_total ON invoice_payments
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, -1, -net_milli, -gross_milli, -open_milli FROM invoice_summary_rows WHERE id = OLD.invoice_id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, -1, -net_milli, -gross_milli, -open_milli FROM invoice_summary_rows WHERE id = NEW.invoice_id AND NEW.invoice_id <> OLD.invoice_id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;

CREATE TRIGGER invoice_totals_payment_update_after AFTER UPDATE OF invoice_id, paid_total ON invoice_payments
BEGIN
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, 1, net_milli, gross_milli, open_milli FROM invoice_summary_rows WHERE id = OLD.invoice_id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
    INSERT INTO invoice_totals (currency, live, net_milli, gross_milli, open_milli)
    SELECT currency, 1, net_milli, gross_milli, open_milli FROM invoice_summary_rows WHERE id = NEW.invoice_id AND NEW.invoice_id <> OLD.invoice_id
    ON CONFLICT (currency) DO UPDATE SET
        live = live + excluded.live,
        net_milli = net_milli + excluded.net_milli,
        gross_milli = gross_milli + excluded.gross_milli,
        open_milli = open_milli + excluded.open_milli;
END;
