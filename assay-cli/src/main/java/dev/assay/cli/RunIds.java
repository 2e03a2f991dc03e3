package dev.assay.cli;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.result.Run;
import dev.assay.store.RunQuery;
import dev.assay.store.Store;
import java.util.List;

/** Lets users type a unique prefix of a run id, as with git commits. */
final class RunIds {
    /**
     * The shortest prefix taken, as git's: a letter or two matches some run in any database, and commands such as
     * {@code runs delete} act without asking.
     */
    static final int SHORTEST_PREFIX = 4;

    private RunIds() {}

    static String resolve(Store store, String given) {
        if (store.findRun(given).isPresent()) {
            return given;
        }
        if (given.length() < SHORTEST_PREFIX) {
            throw new AssayException(Problem.of(
                            "run.not_found",
                            "no run with id " + given + " (a prefix of a run id needs at least " + SHORTEST_PREFIX
                                    + " characters)")
                    .withDetail("run_id", given));
        }
        List<String> matches = new java.util.ArrayList<>();
        int offset = 0;
        while (true) {
            List<Run> page = store.listRuns(RunQuery.all().page(offset, 1000));
            page.stream().map(Run::runId).filter(id -> id.startsWith(given)).forEach(matches::add);
            if (page.size() < 1000) {
                break;
            }
            offset += 1000;
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        throw new AssayException(Problem.of(
                        "run.not_found",
                        matches.isEmpty()
                                ? "no run with id " + given
                                : "'" + given + "' matches " + matches.size() + " runs; give more of the id")
                .withDetail("run_id", given));
    }
}
