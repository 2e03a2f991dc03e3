-- The process that runs a run, written with its heartbeat: a run left 'running' by a process of this host that has
-- ended (kill -9) is recognised at once, without waiting for its silence. Null for runs stored before.
ALTER TABLE evaluation_runs ADD COLUMN owner_host TEXT;
ALTER TABLE evaluation_runs ADD COLUMN owner_pid BIGINT;
ALTER TABLE evaluation_runs ADD COLUMN owner_started_at TIMESTAMPTZ(3);
