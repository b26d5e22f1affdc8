-- Issue 10: the master-data and invoice fields e-invoices need (contract § New fields for
-- e-invoices; docs/decisions.md § E-invoice fields (issue 10)). Texts are NULL when not set.
-- Companies: buyer reference (BT-10, Leitweg-ID), electronic address (BT-49; NULL → email),
-- how invoices are delivered, SEPA mandate reference (BT-89).
ALTER TABLE companies ADD COLUMN buyer_reference TEXT;
ALTER TABLE companies ADD COLUMN electronic_address TEXT;
ALTER TABLE companies ADD COLUMN einvoice_format TEXT NOT NULL DEFAULT 'pdf'
    CHECK (einvoice_format IN ('pdf', 'xrechnung_cii', 'xrechnung_ubl'));
ALTER TABLE companies ADD COLUMN sepa_mandate_reference TEXT;

-- The account: electronic address (BT-34; NULL → email), SEPA creditor identifier (BT-90),
-- Factur-X PDFs on (1) or off (0).
ALTER TABLE account_settings ADD COLUMN electronic_address TEXT;
ALTER TABLE account_settings ADD COLUMN sepa_creditor_identifier TEXT;
ALTER TABLE account_settings ADD COLUMN factur_x INTEGER NOT NULL DEFAULT 1;

-- Invoices: their own buyer reference (wins over the customer's) and payment means
-- (NULL → direct debit when the customer has a mandate reference, else credit transfer).
ALTER TABLE invoices ADD COLUMN buyer_reference TEXT;
ALTER TABLE invoices ADD COLUMN payment_means TEXT
    CHECK (payment_means IN ('credit_transfer', 'direct_debit'));
