-- Items whose texts were longer than the storage cap (1 Mi characters each) are stored cut and flagged here.
ALTER TABLE evaluation_items ADD COLUMN truncated BOOLEAN NOT NULL DEFAULT FALSE;
