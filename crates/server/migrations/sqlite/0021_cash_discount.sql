-- Cash discount (Skonto, issue 14 § Cash discount; docs/decisions.md § Dunning).
--
-- A payment records the cash discount it took: when an invoice's payments equal its gross
-- minus the agreed discount and arrived within the discount days, the last of them carries
-- the discount (`dunning::cash_discount_taken`), the invoice is paid and its open amount is
-- zero. Amounts are decimal text at the currency's places, like `paid_total`.
ALTER TABLE invoice_payments ADD COLUMN cash_discount TEXT NOT NULL DEFAULT '0';

-- The open amount now subtracts the discounts taken: the view of migration 0019 with the
-- payments' sum of `summary::paid_milli!` (amount + discount); every existing discount is
-- 0, so the kept totals stay as they are.
DROP VIEW invoice_summary_rows;
CREATE VIEW invoice_summary_rows AS
SELECT i.id AS id, i.currency AS currency,
    (CASE WHEN substr(i.net_total, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(i.net_total, '.') > 0 THEN substr(ltrim(i.net_total, '-'), 1, instr(ltrim(i.net_total, '-'), '.') - 1) ELSE ltrim(i.net_total, '-') END AS INTEGER) * 1000 + CASE WHEN instr(i.net_total, '.') > 0 THEN CAST(substr(substr(i.net_total, instr(i.net_total, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END)) AS net_milli,
    (CASE WHEN substr(i.gross_total, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(i.gross_total, '.') > 0 THEN substr(ltrim(i.gross_total, '-'), 1, instr(ltrim(i.gross_total, '-'), '.') - 1) ELSE ltrim(i.gross_total, '-') END AS INTEGER) * 1000 + CASE WHEN instr(i.gross_total, '.') > 0 THEN CAST(substr(substr(i.gross_total, instr(i.gross_total, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END)) AS gross_milli,
    (CASE WHEN i.reversed = 0 AND i.status IN ('created', 'sent', 'partially_paid', 'paid', 'overdue') THEN MAX((CASE WHEN substr(i.gross_total, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(i.gross_total, '.') > 0 THEN substr(ltrim(i.gross_total, '-'), 1, instr(ltrim(i.gross_total, '-'), '.') - 1) ELSE ltrim(i.gross_total, '-') END AS INTEGER) * 1000 + CASE WHEN instr(i.gross_total, '.') > 0 THEN CAST(substr(substr(i.gross_total, instr(i.gross_total, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END)) - COALESCE((SELECT SUM((CASE WHEN substr(ip.paid_total, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(ip.paid_total, '.') > 0 THEN substr(ltrim(ip.paid_total, '-'), 1, instr(ltrim(ip.paid_total, '-'), '.') - 1) ELSE ltrim(ip.paid_total, '-') END AS INTEGER) * 1000 + CASE WHEN instr(ip.paid_total, '.') > 0 THEN CAST(substr(substr(ip.paid_total, instr(ip.paid_total, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END)) + (CASE WHEN substr(ip.cash_discount, 1, 1) = '-' THEN -1 ELSE 1 END * (CAST(CASE WHEN instr(ip.cash_discount, '.') > 0 THEN substr(ltrim(ip.cash_discount, '-'), 1, instr(ltrim(ip.cash_discount, '-'), '.') - 1) ELSE ltrim(ip.cash_discount, '-') END AS INTEGER) * 1000 + CASE WHEN instr(ip.cash_discount, '.') > 0 THEN CAST(substr(substr(ip.cash_discount, instr(ip.cash_discount, '.') + 1) || '000', 1, 3) AS INTEGER) ELSE 0 END))) FROM invoice_payments ip WHERE ip.invoice_id = i.id), 0), 0) ELSE 0 END) AS open_milli
FROM invoices i WHERE i.deleted_at IS NULL;

-- A changed discount changes the open amount like a changed amount does.
DROP TRIGGER invoice_totals_payment_update_before;
DROP TRIGGER invoice_totals_payment_update_after;

CREATE TRIGGER invoice_totals_payment_update_before BEFORE UPDATE OF invoice_id, paid_total, cash_discount ON invoice_payments
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

CREATE TRIGGER invoice_totals_payment_update_after AFTER UPDATE OF invoice_id, paid_total, cash_discount ON invoice_payments
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
