-- Issue 11 § Polish: a stored purchase document is shown by its file name ("receipt.pdf"),
-- never by a content type and a storage key. New uploads keep their cleaned original name
-- in `document_name` (since 0004); documents stored without one get "receipt.<ext>".
UPDATE purchases
SET document_name = 'receipt.' || CASE document_type
        WHEN 'application/pdf' THEN 'pdf'
        WHEN 'image/png' THEN 'png'
        WHEN 'image/jpeg' THEN 'jpg'
        WHEN 'application/xml' THEN 'xml'
        ELSE 'bin'
    END
WHERE document_key IS NOT NULL AND (document_name IS NULL OR trim(document_name) = '');

-- The duplicate rule (same supplier, same receipt number without case and outer spaces)
-- looks purchases up by this key.
CREATE INDEX IF NOT EXISTS purchases_supplier_receipt
    ON purchases (company_id, lower(trim(receipt_identifier)));
