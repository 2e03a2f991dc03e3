-- A queued run's spend across its workers: each worker adds the cases, cost and tokens of the items it stores to its
-- row of the run in the transaction that stores them (and takes their cases off the queue), and reads the run's total
-- from every worker's row, so that a run's limits (--max-cost, --run-max-tokens) hold across workers.
ALTER TABLE queue_workers ADD COLUMN cost_usd DOUBLE PRECISION NOT NULL DEFAULT 0;
ALTER TABLE queue_workers ADD COLUMN tokens BIGINT NOT NULL DEFAULT 0;
