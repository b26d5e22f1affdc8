-- Exports for the accountant (issue 11): the DATEV accounts of customers and suppliers
-- (NULL: the export uses 10000 + id / 70000 + id) and the account's DATEV settings as
-- JSON (`kontor_model::datev::DatevSettings`; NULL: the SKR03 defaults).
ALTER TABLE companies ADD COLUMN debtor_number INTEGER
    CHECK (debtor_number IS NULL OR debtor_number BETWEEN 10000 AND 69999);
ALTER TABLE companies ADD COLUMN creditor_number INTEGER
    CHECK (creditor_number IS NULL OR creditor_number BETWEEN 70000 AND 99999);
ALTER TABLE account_settings ADD COLUMN datev TEXT;
