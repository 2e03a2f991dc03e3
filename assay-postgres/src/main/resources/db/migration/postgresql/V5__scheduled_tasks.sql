-- The queue of cases for workers on other machines (`assay run --queue`, `assay worker`): db-scheduler's table, as
-- its PostgreSQL schema defines it. db-scheduler owns the rows (one per queued case, task 'assay-case', instance
-- '<run id>/<seq>'); Assay only creates the table here, so Flyway stays the only schema source.
-- PostgreSQL only: a queue serves several machines, which SQLite, one file on one machine, cannot.
CREATE TABLE scheduled_tasks (
    task_name            TEXT                     NOT NULL,
    task_instance        TEXT                     NOT NULL,
    task_data            BYTEA,
    execution_time       TIMESTAMP WITH TIME ZONE NOT NULL,
    picked               BOOLEAN                  NOT NULL,
    picked_by            TEXT,
    last_success         TIMESTAMP WITH TIME ZONE,
    last_failure         TIMESTAMP WITH TIME ZONE,
    consecutive_failures INT,
    last_heartbeat       TIMESTAMP WITH TIME ZONE,
    version              BIGINT                   NOT NULL,
    priority             SMALLINT,
    PRIMARY KEY (task_name, task_instance)
);

CREATE INDEX scheduled_tasks_execution_time ON scheduled_tasks (execution_time);
CREATE INDEX scheduled_tasks_last_heartbeat ON scheduled_tasks (last_heartbeat);
CREATE INDEX scheduled_tasks_priority_execution_time ON scheduled_tasks (priority DESC, execution_time ASC);
