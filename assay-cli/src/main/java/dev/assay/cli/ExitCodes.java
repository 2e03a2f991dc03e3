package dev.assay.cli;

import dev.assay.Problem;

/** The exit codes of every command, in one place (listed in {@code assay --help}). */
final class ExitCodes {
    static final int OK = 0;
    static final int THRESHOLD_MISSED = 1;
    static final int USAGE = 2;
    static final int CANNOT_RUN = 3;
    static final int CANCELLED = 130;

    private ExitCodes() {
    }

    /** Problems with what the user gave are usage errors; everything else means the command could not run. */
    static int forProblem(Problem problem) {
        String type = problem.type();
        boolean userInput = type.startsWith("case.") || type.startsWith("check.") || type.startsWith("config.")
                || type.startsWith("plugin.") || type.startsWith("suite.") || type.equals("run.not_found");
        return userInput ? USAGE : CANNOT_RUN;
    }
}
