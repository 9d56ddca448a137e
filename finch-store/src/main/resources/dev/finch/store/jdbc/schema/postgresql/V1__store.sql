-- Finch's store, version 1 (PostgreSQL). Times are milliseconds since the epoch; text keys compare by code point
-- (COLLATE "C"), which listings rely on. Statements end with a semicolon at the end of a line.

-- Session images by session id; version counts the writes of one session's image from 1.
CREATE TABLE finch_images (
    session_id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    version    BIGINT NOT NULL,
    saved_at   BIGINT NOT NULL,
    chars      BIGINT NOT NULL,
    image      TEXT NOT NULL
);

-- Continue-once claims: the primary key is the claim.
CREATE TABLE finch_claims (
    execution_id TEXT COLLATE "C" NOT NULL,
    pause        BIGINT NOT NULL,
    claimed_at   BIGINT NOT NULL,
    PRIMARY KEY (execution_id, pause)
);

-- The effect journal: a row is recorded before dispatch (receipt null: pending) and settled after.
CREATE TABLE finch_effects (
    execution_id     TEXT COLLATE "C" NOT NULL,
    seq              BIGINT NOT NULL,
    requirement      TEXT NOT NULL,
    operation        TEXT NOT NULL,
    arguments_digest TEXT NOT NULL,
    recorded_at      BIGINT NOT NULL,
    receipt          TEXT CHECK (receipt IS NULL OR receipt IN ('acknowledged', 'failed', 'denied', 'cancelled')),
    result           TEXT,
    code             TEXT,
    note             TEXT,
    settled_at       BIGINT,
    PRIMARY KEY (execution_id, seq)
);

-- Remembered grants (scope 'project' with its project id, or 'global' with ''); revoked_at marks a revocation.
CREATE TABLE finch_grants (
    scope      TEXT NOT NULL CHECK (scope IN ('project', 'global')),
    project_id TEXT COLLATE "C" NOT NULL,
    grant_id   TEXT COLLATE "C" NOT NULL,
    spec       TEXT NOT NULL,
    granted_at BIGINT NOT NULL,
    revoked_at BIGINT,
    PRIMARY KEY (scope, project_id, grant_id)
);

-- Memory trees: a JSON value under (tree, owner, path); owner '' for the global tree.
CREATE TABLE finch_memory (
    tree       TEXT NOT NULL CHECK (tree IN ('session', 'project', 'global')),
    owner      TEXT COLLATE "C" NOT NULL,
    path       TEXT COLLATE "C" NOT NULL,
    value      TEXT NOT NULL,
    updated_at BIGINT NOT NULL,
    PRIMARY KEY (tree, owner, path)
);
