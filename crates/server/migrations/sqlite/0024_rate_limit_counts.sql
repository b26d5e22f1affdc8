-- Issue 16 § 4: the per-key request counts of the current rate-limit window, shared by
-- every server process on this database (`crate::rate_limit`). `window_index` is the unix time
-- divided by the window length (120 s); rows of ended windows are removed by the sync.
CREATE TABLE rate_limit_counts (
    key_id INTEGER NOT NULL,
    window_index INTEGER NOT NULL,
    count INTEGER NOT NULL CHECK (count >= 0),
    PRIMARY KEY (key_id, window_index)
) WITHOUT ROWID;
