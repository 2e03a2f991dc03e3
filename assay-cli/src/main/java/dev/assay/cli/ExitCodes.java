package dev.assay.cli;

import dev.assay.Problem;
import java.util.Set;

/** The exit codes of every command, in one place (listed in {@code assay --help}). */
final class ExitCodes {
    static final int OK = 0;
    static final int THRESHOLD_MISSED = 1;
    static final int USAGE = 2;
    static final int CANNOT_RUN = 3;
    static final int CANCELLED = 130;

    /** The dialog command's problems with what the user gave: an option, the dataset, traces or a prompt file. */
    private static final Set<String> DIALOG_INPUT = Set.of(
            "dialog.unknown_metrics_profile",
            "dialog.invalid_field_mapping",
            "dialog.dataset_unreadable",
            "dialog.trace_unreadable",
            "dialog.input_unreadable");

    private ExitCodes() {}

    /**
     * Problems with what the user gave are usage errors (a recording to replay, a database URL that names no supported
     * database); everything else means the command could not run.
     */
    static int forProblem(Problem problem) {
        String type = problem.type();
        boolean userInput = type.startsWith("case.")
                || type.startsWith("check.")
                || type.startsWith("config.")
                || type.startsWith("plugin.")
                || type.startsWith("suite.")
                || type.startsWith("replay.")
                || type.equals("run.not_found")
                || type.equals("run.still_running")
                || type.equals("run.not_running")
                || type.equals("run.suite_changed")
                || type.equals("store.unsupported_url")
                || type.equals("queue.needs_postgres")
                || type.equals("queue.unsupported_run")
                || DIALOG_INPUT.contains(type);
        return userInput ? USAGE : CANNOT_RUN;
    }
}
