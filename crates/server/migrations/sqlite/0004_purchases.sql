-- Issue 5: purchases (supplier receipts) with positions, categories, payments and the
-- stored receipt document (<data>/files/purchase_documents/).

CREATE TABLE purchase_categories (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    credit_account TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE purchases (
    id INTEGER PRIMARY KEY,
    identifier TEXT NOT NULL UNIQUE,
    receipt_identifier TEXT NOT NULL DEFAULT '',
    title TEXT NOT NULL DEFAULT '',
    info TEXT,
    iban TEXT NOT NULL DEFAULT '',
    reference TEXT,
    date TEXT NOT NULL,
    due_date TEXT,
    service_period_from TEXT,
    service_period_to TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    payment_method TEXT NOT NULL,
    net_total TEXT NOT NULL,
    gross_total TEXT NOT NULL,
    currency TEXT NOT NULL,
    category_id INTEGER REFERENCES purchase_categories(id),
    company_id INTEGER REFERENCES companies(id),
    user_id INTEGER REFERENCES users(id),
    document_key TEXT,
    document_type TEXT,
    document_name TEXT,
    custom_properties TEXT NOT NULL DEFAULT '{}',
    tags TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX purchases_date ON purchases (date DESC, id DESC);
CREATE INDEX purchases_company ON purchases (company_id);

CREATE TABLE purchase_items (
    id INTEGER PRIMARY KEY,
    purchase_id INTEGER NOT NULL REFERENCES purchases(id),
    position INTEGER NOT NULL,
    title TEXT NOT NULL,
    net_total TEXT NOT NULL,
    tax_total TEXT NOT NULL,
    gross_total TEXT NOT NULL,
    tax TEXT NOT NULL,
    tax_included INTEGER NOT NULL DEFAULT 0,
    category_id INTEGER REFERENCES purchase_categories(id)
);
CREATE INDEX purchase_items_purchase ON purchase_items (purchase_id, position);

CREATE TABLE purchase_payments (
    id INTEGER PRIMARY KEY,
    purchase_id INTEGER NOT NULL REFERENCES purchases(id),
    date TEXT NOT NULL,
    total TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX purchase_payments_purchase ON purchase_payments (purchase_id);
