-- Kontor schema. Amounts and percentages are TEXT holding exact decimals (rust_decimal);
-- dates are TEXT `YYYY-MM-DD`; timestamps are TEXT `YYYY-MM-DDTHH:MM:SSZ`;
-- JSON columns hold arrays (tags) or string maps (custom_properties).

CREATE TABLE users (
    id INTEGER PRIMARY KEY,
    firstname TEXT NOT NULL,
    lastname TEXT NOT NULL,
    email TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE api_keys (
    id INTEGER PRIMARY KEY,
    uuid TEXT NOT NULL UNIQUE,
    name TEXT NOT NULL,
    hash BLOB NOT NULL UNIQUE,
    read_only INTEGER NOT NULL DEFAULT 0,
    user_id INTEGER NOT NULL REFERENCES users(id),
    created_at TEXT NOT NULL,
    revoked_at TEXT
);

CREATE TABLE companies (
    id INTEGER PRIMARY KEY,
    kind TEXT NOT NULL CHECK (kind IN ('customer', 'supplier', 'organization')),
    name TEXT NOT NULL,
    address TEXT NOT NULL DEFAULT '',
    email TEXT,
    billing_email_cc TEXT,
    currency TEXT,
    payment_term_days INTEGER,
    iban TEXT,
    tags TEXT NOT NULL DEFAULT '[]',
    vat_tax TEXT,
    reverse_charge INTEGER NOT NULL DEFAULT 0,
    intra_eu INTEGER NOT NULL DEFAULT 0,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX companies_kind_name ON companies (kind, name);

CREATE TABLE projects (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    customer_id INTEGER NOT NULL REFERENCES companies(id),
    currency TEXT,
    billing_email_to TEXT,
    billing_email_cc TEXT,
    billing_address TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX projects_customer ON projects (customer_id);

CREATE TABLE invoices (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL REFERENCES companies(id),
    project_id INTEGER REFERENCES projects(id),
    user_id INTEGER REFERENCES users(id),
    identifier TEXT UNIQUE,
    date TEXT NOT NULL,
    due_date TEXT NOT NULL,
    service_period_from TEXT,
    service_period_to TEXT,
    status TEXT NOT NULL,
    status_before_payments TEXT,
    reversed INTEGER NOT NULL DEFAULT 0,
    reversal_invoice_id INTEGER REFERENCES invoices(id),
    reversal INTEGER NOT NULL DEFAULT 0,
    reversed_invoice_id INTEGER REFERENCES invoices(id),
    title TEXT NOT NULL,
    recipient_address TEXT NOT NULL,
    currency TEXT NOT NULL,
    net_total TEXT NOT NULL,
    tax TEXT NOT NULL,
    reverse_charge INTEGER NOT NULL DEFAULT 0,
    intra_eu INTEGER NOT NULL DEFAULT 0,
    gross_total TEXT NOT NULL,
    discount TEXT NOT NULL DEFAULT '0',
    cash_discount TEXT NOT NULL DEFAULT '0',
    cash_discount_days INTEGER NOT NULL DEFAULT 0,
    locked INTEGER NOT NULL DEFAULT 0,
    activity_hours_modified INTEGER NOT NULL DEFAULT 0,
    salutation TEXT NOT NULL DEFAULT '',
    footer TEXT NOT NULL DEFAULT '',
    custom_properties TEXT NOT NULL DEFAULT '{}',
    tags TEXT NOT NULL DEFAULT '[]',
    deleted_at TEXT,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX invoices_live_date ON invoices (deleted_at, date DESC, id DESC);
CREATE INDEX invoices_customer ON invoices (customer_id);
CREATE INDEX invoices_project ON invoices (project_id);
CREATE INDEX invoices_status ON invoices (status);

CREATE TABLE invoice_items (
    id INTEGER PRIMARY KEY,
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    title TEXT NOT NULL DEFAULT '',
    description TEXT,
    quantity TEXT,
    unit TEXT,
    unit_price TEXT,
    net_total TEXT NOT NULL
);
CREATE INDEX invoice_items_invoice ON invoice_items (invoice_id, position);

CREATE TABLE invoice_payments (
    id INTEGER PRIMARY KEY,
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    date TEXT NOT NULL,
    paid_total TEXT NOT NULL,
    currency TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX invoice_payments_invoice ON invoice_payments (invoice_id);

CREATE TABLE invoice_reminders (
    id INTEGER PRIMARY KEY,
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    date TEXT NOT NULL,
    due_date TEXT NOT NULL,
    fee TEXT NOT NULL DEFAULT '0',
    text TEXT NOT NULL DEFAULT '',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX invoice_reminders_invoice ON invoice_reminders (invoice_id);

-- Audit trail of deleted invoices: the full representation at deletion, reason and time.
CREATE TABLE invoice_deletions (
    id INTEGER PRIMARY KEY,
    invoice_id INTEGER NOT NULL REFERENCES invoices(id),
    reason TEXT,
    snapshot TEXT NOT NULL,
    deleted_at TEXT NOT NULL
);

-- Gap-free document numbers: the last number issued per kind and month (`YYMM`).
CREATE TABLE number_counters (
    kind TEXT NOT NULL,
    period TEXT NOT NULL,
    last INTEGER NOT NULL,
    PRIMARY KEY (kind, period)
);
