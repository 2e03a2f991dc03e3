-- The extra metrics named for a run (--metric NAME), name to value, as JSON; null for runs stored before them.
ALTER TABLE evaluation_runs ADD COLUMN metrics TEXT;
