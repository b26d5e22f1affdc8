-- Recurring invoices (issue 11; docs/decisions.md § Recurring invoices (issue 11)).
-- A schedule keeps its invoice creation body (`template`, JSON) and the date of its next
-- run; `anchor_day` is the day of month of the first next date (runs never drift).
CREATE TABLE recurring_invoices (
    id INTEGER PRIMARY KEY,
    customer_id INTEGER NOT NULL,
    user_id INTEGER REFERENCES users(id),
    template TEXT NOT NULL,
    repeat_interval TEXT NOT NULL,
    next_date TEXT NOT NULL,
    anchor_day INTEGER NOT NULL,
    end_date TEXT,
    mode TEXT NOT NULL,
    created_at TEXT NOT NULL,
    updated_at TEXT NOT NULL
);

CREATE INDEX recurring_invoices_next_date ON recurring_invoices (next_date);

-- One row per billed period: the UNIQUE pair is what makes a run happen exactly once,
-- also with two server processes on the same file (the row and the invoice are inserted
-- in one transaction).
CREATE TABLE recurring_invoice_runs (
    id INTEGER PRIMARY KEY,
    recurring_invoice_id INTEGER NOT NULL REFERENCES recurring_invoices(id) ON DELETE CASCADE,
    period_start TEXT NOT NULL,
    period_end TEXT NOT NULL,
    invoice_date TEXT NOT NULL,
    invoice_id INTEGER REFERENCES invoices(id) ON DELETE SET NULL,
    error TEXT,
    created_at TEXT NOT NULL,
    UNIQUE (recurring_invoice_id, period_start)
);
