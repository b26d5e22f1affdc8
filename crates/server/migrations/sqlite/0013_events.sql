-- Timeline events of invoices, offers and purchases (issue 11 § Timeline).
-- subject_type: invoice | offer | purchase; kind: kontor_model::event::EventKind wire word;
-- data: a JSON object (the kind's details); user_id: the key's user, NULL for server jobs.
-- No foreign key on subject_id: events of a deleted record stay (nothing shows them).
CREATE TABLE events (
    id INTEGER PRIMARY KEY,
    subject_type TEXT NOT NULL,
    subject_id INTEGER NOT NULL,
    kind TEXT NOT NULL,
    at TEXT NOT NULL,
    user_id INTEGER REFERENCES users(id) ON DELETE SET NULL,
    data TEXT NOT NULL DEFAULT '{}'
);

CREATE INDEX events_subject ON events (subject_type, subject_id, id);
