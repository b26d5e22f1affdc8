-- The offer an invoice was created from (issue 8): the invoice links to it, the offer
-- lists its invoices and moves to billed / partially billed.
ALTER TABLE invoices ADD COLUMN offer_id INTEGER REFERENCES offers(id);
CREATE INDEX invoices_offer_id ON invoices(offer_id);
