-- People, sign-in and roles (issue 12, docs/decisions.md § People, sign-in and roles).

-- Users sign in with e-mail and password; every user has a role. Users that existed
-- before (the demo's, the first key's "Admin Kontor", users made through POST /users)
-- become admins: until now every key could do everything.
ALTER TABLE users ADD COLUMN role TEXT NOT NULL DEFAULT 'staff'
    CHECK (role IN ('admin', 'staff', 'read_only'));
ALTER TABLE users ADD COLUMN active INTEGER NOT NULL DEFAULT 1;
ALTER TABLE users ADD COLUMN password_hash TEXT;
ALTER TABLE users ADD COLUMN language TEXT CHECK (language IN ('de', 'en'));
ALTER TABLE users ADD COLUMN theme TEXT NOT NULL DEFAULT 'system'
    CHECK (theme IN ('system', 'light', 'dark'));
UPDATE users SET role = 'admin';

-- E-mail addresses are unique (case-insensitively) among users that have one. Older
-- duplicates keep the address on the first user only.
UPDATE users SET email = NULL
WHERE email IS NOT NULL AND trim(email) = '';
UPDATE users SET email = NULL
WHERE email IS NOT NULL
  AND id NOT IN (SELECT MIN(id) FROM users WHERE email IS NOT NULL GROUP BY lower(email));
CREATE UNIQUE INDEX users_email_unique ON users (lower(email)) WHERE email IS NOT NULL;

-- Keys: `api` (CLI, admins) or `session` (sign-in; expire after 30 days without use).
ALTER TABLE api_keys ADD COLUMN kind TEXT NOT NULL DEFAULT 'api'
    CHECK (kind IN ('api', 'session'));
ALTER TABLE api_keys ADD COLUMN last_used_at TEXT;

-- One-time password-set links (7 days); only the token's SHA-256 is stored.
CREATE TABLE invitations (
    id INTEGER PRIMARY KEY,
    user_id INTEGER NOT NULL REFERENCES users(id),
    token_hash BLOB NOT NULL UNIQUE,
    created_at TEXT NOT NULL,
    expires_at TEXT NOT NULL,
    used_at TEXT
);
CREATE INDEX invitations_user ON invitations (user_id);

-- Failed sign-ins, counted per e-mail (lower case) and per client address for the lockout.
CREATE TABLE login_attempts (
    id INTEGER PRIMARY KEY,
    email TEXT NOT NULL,
    address TEXT NOT NULL,
    at TEXT NOT NULL
);
CREATE INDEX login_attempts_email ON login_attempts (email, at);
CREATE INDEX login_attempts_address ON login_attempts (address, at);
