-- Model answers kept by the hash of what determines them (dev.assay.model.ResponseCache): reused within their run
-- (a resumed run replays its calls) and, when asked, across runs. Deleted with their run.
CREATE TABLE model_responses (
    run_id     TEXT    NOT NULL REFERENCES evaluation_runs (run_id) ON DELETE CASCADE,
    cache_key  TEXT    NOT NULL,
    response   TEXT    NOT NULL,
    created_at TIMESTAMPTZ(3) NOT NULL,
    PRIMARY KEY (run_id, cache_key)
);
CREATE INDEX model_responses_key ON model_responses (cache_key, created_at);
