-- Issue 10: a VAT rate and category per position (contract § Per-position VAT).
-- `tax`: the position's own rate in percent as decimal text, NULL = the document's `tax`.
-- `tax_category`: standard | reduced | zero | exempt | reverse_charge | intra_eu | export,
-- NULL = derived from the document (reverse charge / intra-EU / rate 0 / standard).
-- `tax_exemption_reason`: free text (≤ 500 characters), NULL when not given.
-- Only `item` positions carry these; other position types keep them NULL.

ALTER TABLE invoice_items ADD COLUMN tax TEXT;
ALTER TABLE invoice_items ADD COLUMN tax_category TEXT CHECK (tax_category IN
    ('standard', 'reduced', 'zero', 'exempt', 'reverse_charge', 'intra_eu', 'export'));
ALTER TABLE invoice_items ADD COLUMN tax_exemption_reason TEXT;

ALTER TABLE offer_items ADD COLUMN tax TEXT;
ALTER TABLE offer_items ADD COLUMN tax_category TEXT CHECK (tax_category IN
    ('standard', 'reduced', 'zero', 'exempt', 'reverse_charge', 'intra_eu', 'export'));
ALTER TABLE offer_items ADD COLUMN tax_exemption_reason TEXT;

-- The per-(category, rate) breakdown of the totals, stored with net_total and gross_total:
-- a JSON array of {"tax_category", "tax", "net_total", "tax_total"} (amounts as JSON
-- numbers). NULL for documents written before this migration that have counted items: they
-- have a single VAT group, which the server derives from the row when reading.
ALTER TABLE invoices ADD COLUMN tax_breakdown TEXT;
ALTER TABLE offers ADD COLUMN tax_breakdown TEXT;
UPDATE invoices SET tax_breakdown = '[]' WHERE NOT EXISTS
    (SELECT 1 FROM invoice_items it WHERE it.invoice_id = invoices.id AND it.kind = 'item');
UPDATE offers SET tax_breakdown = '[]' WHERE NOT EXISTS
    (SELECT 1 FROM offer_items it WHERE it.offer_id = offers.id AND it.kind = 'item' AND it.optional = 0);
