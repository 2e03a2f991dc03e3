-- Assay evaluation schema, PostgreSQL dialect. The SQLite folder holds the same logical schema.
-- JSON columns are TEXT, not JSONB: JSONB rejects the \u0000 escape that tool output can contain and
-- reorders object keys, and nothing queries inside these documents.

CREATE TABLE evaluation_runs (
    run_id           TEXT             NOT NULL PRIMARY KEY,
    kind             TEXT             NOT NULL,
    user_id          TEXT             NOT NULL DEFAULT '',
    model_name       TEXT             NOT NULL DEFAULT '',
    language         TEXT             NOT NULL DEFAULT '',
    status           TEXT             NOT NULL,
    case_set         TEXT             NOT NULL DEFAULT '',
    case_set_version TEXT             NOT NULL DEFAULT '',
    config_snapshot  TEXT,
    tool_snapshot    TEXT,
    dimension_scores TEXT,
    total_score      DOUBLE PRECISION,
    total_count      INTEGER          NOT NULL DEFAULT 0,
    passed_count     INTEGER          NOT NULL DEFAULT 0,
    failed_count     INTEGER          NOT NULL DEFAULT 0,
    partial_count    INTEGER          NOT NULL DEFAULT 0,
    skipped_count    INTEGER          NOT NULL DEFAULT 0,
    error_count      INTEGER          NOT NULL DEFAULT 0,
    cancelled_count  INTEGER          NOT NULL DEFAULT 0,
    started_at       TIMESTAMPTZ(3)   NOT NULL,
    finished_at      TIMESTAMPTZ(3),
    elapsed_s        DOUBLE PRECISION NOT NULL DEFAULT 0,
    error            TEXT
);

-- Listing is newest first; run_id breaks ties so pages are stable.
CREATE INDEX evaluation_runs_started ON evaluation_runs (started_at DESC, run_id DESC);
CREATE INDEX evaluation_runs_status ON evaluation_runs (status, started_at DESC);
CREATE INDEX evaluation_runs_user ON evaluation_runs (user_id, started_at DESC);
CREATE INDEX evaluation_runs_model ON evaluation_runs (model_name);

CREATE TABLE evaluation_items (
    id             BIGINT GENERATED ALWAYS AS IDENTITY PRIMARY KEY,
    run_id         TEXT             NOT NULL REFERENCES evaluation_runs (run_id) ON DELETE CASCADE,
    case_id        TEXT             NOT NULL,
    seq            INTEGER          NOT NULL,
    dimension      TEXT             NOT NULL DEFAULT '',
    status         TEXT             NOT NULL,
    score          DOUBLE PRECISION NOT NULL,
    max_score      DOUBLE PRECISION NOT NULL,
    weight         DOUBLE PRECISION NOT NULL,
    prompt         TEXT             NOT NULL DEFAULT '',
    final_answer   TEXT             NOT NULL DEFAULT '',
    tool_calls     TEXT,
    checker_detail TEXT,
    error          TEXT,
    transcript     TEXT,
    started_at     TIMESTAMPTZ(3),
    finished_at    TIMESTAMPTZ(3),
    elapsed_s      DOUBLE PRECISION NOT NULL DEFAULT 0,
    -- The reference schema had no unique key and emulated upsert with UPDATE-then-INSERT (wunder-reference.md 4.6).
    CONSTRAINT evaluation_items_run_case UNIQUE (run_id, case_id)
);

-- Covers the page query (WHERE run_id ORDER BY seq, case_id) so no sort is needed at any offset.
CREATE INDEX evaluation_items_run_seq ON evaluation_items (run_id, seq, case_id);

CREATE TABLE evaluation_case_sets (
    version    TEXT           NOT NULL PRIMARY KEY,
    name       TEXT           NOT NULL,
    case_count INTEGER        NOT NULL,
    content    TEXT           NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL
);
