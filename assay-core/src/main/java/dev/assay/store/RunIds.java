package dev.assay.store;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.result.Run;
import java.util.ArrayList;
import java.util.List;

/**
 * Lets users type a unique prefix of a run id, as with git commits: the one resolution of the CLI's run arguments and
 * the API's {@code /api/compare}. Thread-safe (stateless).
 */
public final class RunIds {
    /**
     * The shortest prefix taken, as git's: a letter or two matches some run in any database, and commands such as
     * {@code runs delete} act without asking.
     */
    public static final int SHORTEST_PREFIX = 4;

    private static final int PAGE = 1000;

    private RunIds() {}

    /**
     * {@return the id of the one run whose id is {@code given} or starts with it}
     *
     * @throws AssayException {@code run.not_found} when no run has that id and it is shorter than
     *     {@value #SHORTEST_PREFIX} characters (detail {@code shortest_prefix}), is the prefix of no run id, or is the
     *     prefix of several (detail {@code matches}, how many)
     */
    public static String resolve(Store store, String given) {
        if (store.findRun(given).isPresent()) {
            return given;
        }
        if (given.length() < SHORTEST_PREFIX) {
            throw new AssayException(Problem.of(
                            "run.not_found",
                            "no run with id " + given + " (a prefix of a run id needs at least " + SHORTEST_PREFIX
                                    + " characters)")
                    .withDetail("run_id", given)
                    .withDetail("shortest_prefix", SHORTEST_PREFIX));
        }
        List<String> matches = new ArrayList<>();
        int offset = 0;
        while (true) {
            List<Run> page = store.listRuns(RunQuery.all().page(offset, PAGE));
            page.stream().map(Run::runId).filter(id -> id.startsWith(given)).forEach(matches::add);
            if (page.size() < PAGE) {
                break;
            }
            offset += PAGE;
        }
        if (matches.size() == 1) {
            return matches.get(0);
        }
        Problem problem = Problem.of(
                        "run.not_found",
                        matches.isEmpty()
                                ? "no run with id " + given
                                : "'" + given + "' matches " + matches.size() + " runs; give more of the id")
                .withDetail("run_id", given);
        throw new AssayException(matches.isEmpty() ? problem : problem.withDetail("matches", matches.size()));
    }
}
