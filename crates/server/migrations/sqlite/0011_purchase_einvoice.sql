-- Issue 10: purchases imported from e-invoices (POST /purchases/import) remember the
-- document's syntax (cii | ubl) and format (xrechnung | factur-x | en16931); both NULL
-- for purchases entered by hand. The duplicate check (same supplier and receipt
-- identifier) uses the index. See docs/decisions.md § E-invoice import (issue 10).
ALTER TABLE purchases ADD COLUMN einvoice_syntax TEXT;
ALTER TABLE purchases ADD COLUMN einvoice_format TEXT;
CREATE INDEX purchases_supplier_receipt ON purchases (company_id, receipt_identifier);
