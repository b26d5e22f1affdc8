-- Issue 4: deals, contact people, offers with positions, and offer attachments
-- (files stored under <data>/files/offer_attachments/).

CREATE TABLE deals (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL,
    company_id INTEGER NOT NULL REFERENCES companies(id),
    currency TEXT,
    status TEXT NOT NULL DEFAULT 'pending',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX deals_company ON deals (company_id);

CREATE TABLE people (
    id INTEGER PRIMARY KEY,
    firstname TEXT NOT NULL,
    lastname TEXT NOT NULL,
    email TEXT,
    company_id INTEGER REFERENCES companies(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX people_company ON people (company_id);

CREATE TABLE offers (
    id INTEGER PRIMARY KEY,
    identifier TEXT NOT NULL UNIQUE,
    status TEXT NOT NULL DEFAULT 'created',
    company_id INTEGER REFERENCES companies(id),
    project_id INTEGER REFERENCES projects(id),
    deal_id INTEGER REFERENCES deals(id),
    contact_id INTEGER REFERENCES people(id),
    user_id INTEGER REFERENCES users(id),
    date TEXT NOT NULL,
    due_date TEXT NOT NULL,
    title TEXT NOT NULL,
    recipient_address TEXT NOT NULL,
    currency TEXT NOT NULL,
    net_total TEXT NOT NULL,
    gross_total TEXT NOT NULL,
    tax TEXT NOT NULL,
    reverse_charge INTEGER NOT NULL DEFAULT 0,
    intra_eu INTEGER NOT NULL DEFAULT 0,
    discount TEXT NOT NULL DEFAULT '0',
    salutation TEXT NOT NULL DEFAULT '',
    footer TEXT NOT NULL DEFAULT '',
    print_detail_columns INTEGER NOT NULL DEFAULT 1,
    custom_properties TEXT NOT NULL DEFAULT '{}',
    tags TEXT NOT NULL DEFAULT '[]',
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX offers_date ON offers (date DESC, id DESC);
CREATE INDEX offers_deal ON offers (deal_id);
CREATE INDEX offers_project ON offers (project_id);

CREATE TABLE offer_items (
    id INTEGER PRIMARY KEY,
    offer_id INTEGER NOT NULL REFERENCES offers(id),
    position INTEGER NOT NULL,
    kind TEXT NOT NULL,
    title TEXT,
    description TEXT,
    quantity TEXT,
    unit TEXT,
    unit_price TEXT,
    net_total TEXT NOT NULL,
    optional INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX offer_items_offer ON offer_items (offer_id, position);

CREATE TABLE offer_attachments (
    id INTEGER PRIMARY KEY,
    offer_id INTEGER NOT NULL REFERENCES offers(id),
    filename TEXT NOT NULL,
    content_type TEXT NOT NULL,
    byte_size INTEGER NOT NULL,
    storage_key TEXT NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX offer_attachments_offer ON offer_attachments (offer_id);
