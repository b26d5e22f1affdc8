-- Issue 3: sending history, time sheet (activities), project expenses, billing links,
-- and server settings (the file-link signing secret).

-- An invoice stays locked once it has been sent, even when its payments are removed.
ALTER TABLE invoices ADD COLUMN ever_sent INTEGER NOT NULL DEFAULT 0;
UPDATE invoices SET ever_sent = 1 WHERE status IN ('sent', 'overdue') AND locked = 1;

ALTER TABLE projects ADD COLUMN billable INTEGER NOT NULL DEFAULT 1;

CREATE TABLE tasks (
    id INTEGER PRIMARY KEY,
    project_id INTEGER REFERENCES projects(id),
    name TEXT NOT NULL,
    billable INTEGER NOT NULL DEFAULT 1,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE TABLE activities (
    id INTEGER PRIMARY KEY,
    date TEXT NOT NULL,
    hours TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    billable INTEGER NOT NULL DEFAULT 1,
    billed INTEGER NOT NULL DEFAULT 0,
    tag TEXT NOT NULL DEFAULT '',
    remote_service TEXT NOT NULL DEFAULT '',
    remote_id TEXT NOT NULL DEFAULT '',
    remote_url TEXT NOT NULL DEFAULT '',
    project_id INTEGER NOT NULL REFERENCES projects(id),
    task_id INTEGER REFERENCES tasks(id),
    user_id INTEGER REFERENCES users(id),
    hourly_rate TEXT NOT NULL DEFAULT '0',
    timer_started_at TEXT,
    invoice_id INTEGER REFERENCES invoices(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX activities_project ON activities (project_id, date);
CREATE INDEX activities_invoice ON activities (invoice_id);

CREATE TABLE expenses (
    id INTEGER PRIMARY KEY,
    project_id INTEGER NOT NULL REFERENCES projects(id),
    date TEXT NOT NULL,
    title TEXT NOT NULL,
    description TEXT NOT NULL DEFAULT '',
    quantity TEXT NOT NULL DEFAULT '1',
    unit TEXT NOT NULL DEFAULT '',
    unit_price TEXT NOT NULL DEFAULT '0',
    unit_cost TEXT NOT NULL DEFAULT '0',
    currency TEXT NOT NULL,
    budget_relevant INTEGER NOT NULL DEFAULT 1,
    billable INTEGER NOT NULL DEFAULT 1,
    billed INTEGER NOT NULL DEFAULT 0,
    service_period_from TEXT,
    service_period_to TEXT,
    custom_properties TEXT NOT NULL DEFAULT '{}',
    purchase_id INTEGER,
    purchase_item_id INTEGER,
    invoice_id INTEGER REFERENCES invoices(id),
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);
CREATE INDEX expenses_project ON expenses (project_id, date);
CREATE INDEX expenses_invoice ON expenses (invoice_id);

CREATE TABLE settings (
    key TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
