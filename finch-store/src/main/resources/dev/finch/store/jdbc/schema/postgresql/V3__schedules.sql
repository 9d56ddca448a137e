-- Finch's store, version 3: schedules a program made (schedule-create), kept so that a Finch built on the store later
-- arms them again. `when_spec` is the program's spelling (an instant, a delay or a cron expression); times are
-- milliseconds since the epoch; `last_run_at` is NULL until the first run. A schedule that is done or cancelled is deleted.
CREATE TABLE finch_schedules (
    schedule_id TEXT COLLATE "C" NOT NULL PRIMARY KEY,
    policy      TEXT COLLATE "C" NOT NULL,
    when_spec   TEXT NOT NULL,
    program     TEXT NOT NULL,
    created_at  BIGINT NOT NULL,
    runs        BIGINT NOT NULL DEFAULT 0,
    last_run_at BIGINT
);
