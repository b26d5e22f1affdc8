-- Issue 9: master data. Companies gain the fields of the contract's § Company (texts NULL
-- when not set; percentages as decimal text; `language` 'de' or 'en'; `custom_properties`
-- a JSON string map; `active` 0 once archived). `payment_term_days` stays the column of
-- `default_invoice_due_days`. People gain gender, salutation, job position, phone and the
-- billing-contact mark (at most one per company, enforced by a partial unique index).
-- Projects gain `active`. Deals: the status `pending` is now called `open`.

ALTER TABLE companies ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
ALTER TABLE companies ADD COLUMN country_code TEXT;
ALTER TABLE companies ADD COLUMN phone TEXT;
ALTER TABLE companies ADD COLUMN website TEXT;
ALTER TABLE companies ADD COLUMN vat_identifier TEXT;
ALTER TABLE companies ADD COLUMN tax_number TEXT;
ALTER TABLE companies ADD COLUMN bic TEXT;
ALTER TABLE companies ADD COLUMN info TEXT;
ALTER TABLE companies ADD COLUMN default_discount TEXT;
ALTER TABLE companies ADD COLUMN default_cash_discount TEXT;
ALTER TABLE companies ADD COLUMN default_cash_discount_days INTEGER;
ALTER TABLE companies ADD COLUMN language TEXT NOT NULL DEFAULT 'de' CHECK (language IN ('de', 'en'));
ALTER TABLE companies ADD COLUMN custom_properties TEXT NOT NULL DEFAULT '{}';
CREATE INDEX companies_active_name ON companies (active, name);

ALTER TABLE people ADD COLUMN gender TEXT CHECK (gender IN ('F', 'M', 'U'));
ALTER TABLE people ADD COLUMN salutation TEXT;
ALTER TABLE people ADD COLUMN job_position TEXT;
ALTER TABLE people ADD COLUMN phone TEXT;
ALTER TABLE people ADD COLUMN billing_contact INTEGER NOT NULL DEFAULT 0;
CREATE UNIQUE INDEX people_one_billing_contact ON people (company_id) WHERE billing_contact = 1;

ALTER TABLE projects ADD COLUMN active INTEGER NOT NULL DEFAULT 1;

UPDATE deals SET status = 'open' WHERE status = 'pending';
