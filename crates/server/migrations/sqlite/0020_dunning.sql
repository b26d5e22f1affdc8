-- Dunning (issue 14, docs/decisions.md § Dunning).
--
-- The account's dunning levels and base rates, each as the JSON of the model's wire type
-- (`DunningLevels`, `BaseRates`), replaced as a whole by PUT /dunning_levels and
-- PUT /base_rates; NULL means the defaults (`dunning::default_levels`,
-- `dunning::published_base_rates`), so an account that never changed them gets the
-- current defaults with each release.
ALTER TABLE account_settings ADD COLUMN dunning_levels TEXT;
ALTER TABLE account_settings ADD COLUMN base_rates TEXT;

-- A consumer customer owes base rate + 5 points and no flat fee (§ 288 (1), (5) BGB);
-- every existing customer is a business, as before.
ALTER TABLE companies ADD COLUMN consumer INTEGER NOT NULL DEFAULT 0;

-- What a reminder claims: its level, the open amount on its date, the days overdue, the
-- interest (rate and amount) and the § 288 (5) flat fee; `sent_at` once it was e-mailed.
ALTER TABLE invoice_reminders ADD COLUMN dunning_level INTEGER NOT NULL DEFAULT 1;
ALTER TABLE invoice_reminders ADD COLUMN open_amount TEXT;
ALTER TABLE invoice_reminders ADD COLUMN days_overdue INTEGER NOT NULL DEFAULT 0;
ALTER TABLE invoice_reminders ADD COLUMN interest_rate TEXT;
ALTER TABLE invoice_reminders ADD COLUMN interest TEXT NOT NULL DEFAULT '0';
ALTER TABLE invoice_reminders ADD COLUMN flat_fee TEXT NOT NULL DEFAULT '0';
ALTER TABLE invoice_reminders ADD COLUMN sent_at TEXT;

-- Earlier reminders of an invoice count as its levels 1, 2, 3, … in date order.
UPDATE invoice_reminders SET dunning_level = (
    SELECT COUNT(*) FROM invoice_reminders r2
    WHERE r2.invoice_id = invoice_reminders.invoice_id
      AND (r2.date < invoice_reminders.date
           OR (r2.date = invoice_reminders.date AND r2.id <= invoice_reminders.id))
);
-- Days overdue of the earlier reminders, from their invoice's due date.
UPDATE invoice_reminders SET days_overdue = MAX(0, CAST(
    julianday(date) - julianday((SELECT i.due_date FROM invoices i WHERE i.id = invoice_reminders.invoice_id))
    AS INTEGER));
