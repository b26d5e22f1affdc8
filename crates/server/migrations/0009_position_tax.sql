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
