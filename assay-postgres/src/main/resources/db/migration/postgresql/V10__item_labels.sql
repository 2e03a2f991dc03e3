-- People's labels of a run's checks (assay review, the page's review view), kept beside the machine verdict and never
-- written over it: one label per person and check, which that person may change. verdict is 'pass' or 'fail', score a
-- value on the check's scale; at least one of them is set.
CREATE TABLE item_labels (
    id          BIGSERIAL        PRIMARY KEY,
    run_id      TEXT             NOT NULL REFERENCES evaluation_runs (run_id) ON DELETE CASCADE,
    case_id     TEXT             NOT NULL,
    check_index INTEGER          NOT NULL,
    checker     TEXT             NOT NULL,
    verdict     TEXT,
    score       DOUBLE PRECISION,
    note        TEXT             NOT NULL DEFAULT '',
    labelled_by TEXT             NOT NULL,
    labelled_at TIMESTAMPTZ(3)   NOT NULL,
    CONSTRAINT item_labels_one_per_person UNIQUE (run_id, case_id, check_index, labelled_by)
);
