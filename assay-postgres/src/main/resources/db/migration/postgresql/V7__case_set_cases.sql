-- A case set's cases, one row each in their order, so that a suite of any size is stored and read back a case at a
-- time. The snapshot's content then holds the rest of its document, with an empty `cases`; a snapshot stored before
-- this table keeps its cases in its content and has no rows here.
CREATE TABLE evaluation_case_set_cases (
    version  TEXT    NOT NULL,
    position INTEGER NOT NULL,
    content  TEXT    NOT NULL,
    PRIMARY KEY (version, position)
);
