-- The account's own data (issue 9): one row (id 1), written from the account file
-- (kontor.toml) by the server on its first start with this table; from then on the
-- database wins and the file only seeds. Texts are NULL when not set; `default_tax` is a
-- decimal percentage as text; `currencies` and `document_texts` are JSON.
CREATE TABLE account_settings (
    id INTEGER PRIMARY KEY CHECK (id = 1),
    name TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    country_code TEXT,
    vat_identifier TEXT,
    tax_number TEXT,
    register_court TEXT,
    register_number TEXT,
    managing_directors TEXT,
    phone TEXT,
    email TEXT,
    website TEXT,
    account_holder TEXT,
    iban TEXT,
    bic TEXT,
    bank_name TEXT,
    -- JSON array of currency codes, the default first.
    currencies TEXT NOT NULL,
    default_currency TEXT NOT NULL,
    default_tax TEXT NOT NULL,
    default_invoice_due_days INTEGER NOT NULL,
    -- JSON {"de": {"invoice_salutation", ...}, "en": {...}}.
    document_texts TEXT NOT NULL DEFAULT '{}',
    invoice_number_format TEXT NOT NULL,
    offer_number_format TEXT NOT NULL,
    purchase_number_format TEXT NOT NULL,
    -- The logo: stored file name under <data>/files/account_logo/ and its type
    -- (image/png or image/svg+xml, the SVG already sanitized).
    logo_key TEXT,
    logo_content_type TEXT,
    -- SMTP; no host = messages go to <data>/outbox/. The password is needed in clear
    -- text to log in to the mail server; it is never returned by the API or logged.
    smtp_host TEXT,
    smtp_port INTEGER,
    smtp_security TEXT CHECK (smtp_security IN ('starttls', 'tls', 'none')),
    smtp_user TEXT,
    smtp_password TEXT,
    updated_at TEXT NOT NULL
);

-- Document number counters per kind and series (issue 9, number formats): `series` is
-- the format rendered for the record's date with the counter as `{N}` ("R2611-{N}",
-- "2026-{N}"), so a monthly format restarts each month, a yearly one each year, and two
-- formats that print the same numbers share one counter. `last` is the last number drawn.
CREATE TABLE number_series (
    kind TEXT NOT NULL CHECK (kind IN ('invoice', 'offer', 'purchase')),
    series TEXT NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (kind, series)
);

INSERT INTO number_series (kind, series, last)
SELECT CASE kind WHEN 'R' THEN 'invoice' WHEN 'A' THEN 'offer' ELSE 'purchase' END,
       kind || period || '-{N}', last
FROM number_counters WHERE kind IN ('R', 'A', 'E');

DROP TABLE number_counters;
