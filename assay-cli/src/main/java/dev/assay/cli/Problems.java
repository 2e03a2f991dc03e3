package dev.assay.cli;

import dev.assay.Problem;

/** How the CLI shows a problem: message, then its type and details, on one line. */
final class Problems {
    private Problems() {
    }

    static String describe(Problem problem) {
        var text = new StringBuilder(problem.message()).append(" [").append(problem.type()).append(']');
        problem.details().forEach((key, value) -> {
            if (value != null) {
                text.append(' ').append(key).append('=').append(value);
            }
        });
        return text.toString();
    }
}
