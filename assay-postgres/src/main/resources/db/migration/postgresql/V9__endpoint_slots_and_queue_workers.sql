-- The per-endpoint limit of queued runs, shared by every worker (`assay worker`): one row per slot of an endpoint,
-- held by one worker until it frees it or its lease lapses (a worker that died). Slots are leases in a table, not
-- session advisory locks, so that a worker needs no database connection per call in flight and claims and frees
-- slots in batches. PostgreSQL only, as the queue (V5).
CREATE TABLE endpoint_slots (
    endpoint TEXT                     NOT NULL,
    slot     INTEGER                  NOT NULL,
    holder   TEXT,
    expires  TIMESTAMP WITH TIME ZONE,
    PRIMARY KEY (endpoint, slot)
);

CREATE INDEX endpoint_slots_holder ON endpoint_slots (holder);

-- Which workers ran a queued run's cases, and how many each (`assay runs show`): each worker adds its counts once a
-- second and when it stops, in one statement, rather than a write per case.
CREATE TABLE queue_workers (
    run_id TEXT    NOT NULL,
    worker TEXT    NOT NULL,
    cases  INTEGER NOT NULL,
    PRIMARY KEY (run_id, worker)
);
