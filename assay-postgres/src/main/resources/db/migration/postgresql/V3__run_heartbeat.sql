-- A run's last sign of life: a run left 'running' whose process stopped writing (kill -9, power loss) is
-- recognised by its silence and ended as interrupted.
ALTER TABLE evaluation_runs ADD COLUMN heartbeat_at TIMESTAMPTZ(3);
