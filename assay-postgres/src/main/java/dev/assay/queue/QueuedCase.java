package dev.assay.queue;

import java.util.Objects;

/**
 * One case of a run waiting on the queue, named by the db-scheduler task instance {@code <run id>/<seq>}: the id is the
 * whole task, so queueing a case twice is queueing it once.
 *
 * @param runId the run's id
 * @param seq the item's position in the run, >= 0
 */
record QueuedCase(String runId, int seq) {
    QueuedCase {
        Objects.requireNonNull(runId, "runId");
        if (seq < 0) {
            throw new IllegalArgumentException("seq must be >= 0");
        }
    }

    /** {@return the case named by a task instance id} */
    static QueuedCase parse(String instanceId) {
        int slash = instanceId.lastIndexOf('/');
        if (slash < 1) {
            throw new IllegalArgumentException("not a queued case: " + instanceId);
        }
        return new QueuedCase(instanceId.substring(0, slash), Integer.parseInt(instanceId.substring(slash + 1)));
    }

    /** {@return a {@code LIKE} pattern of the task instance ids of the run's cases} */
    static String pattern(String runId) {
        return runId.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "/%";
    }

    /** {@return the task instance id} */
    String instanceId() {
        return runId + "/" + seq;
    }
}
