package dev.assay.cli;

import dev.assay.Problem;

/**
 * How the CLI shows a problem: message, then its type and details, on one line, with the control characters of an
 * endpoint's or a file's text in it escaped ({@link TerminalText#line}).
 */
final class Problems {
    /** The detail of an invalid suite's problem that lists its problems, each a map of its own fields. */
    private static final String LISTED = "problems";

    private Problems() {}

    /**
     * {@return the problem on one line}: a problem that lists others ({@link #listed}), printed a line each before it,
     * is summed up by their number rather than repeating the first of them
     */
    static String describe(Problem problem) {
        int listed = listed(problem).size();
        String message = listed == 0
                ? problem.message()
                : "suite '" + problem.details().get("suite") + "' has " + listed + " problem(s), each listed above";
        var text =
                new StringBuilder(message).append(" [").append(problem.type()).append(']');
        problem.details().forEach((key, value) -> {
            if (value != null && !(listed > 0 && (key.equals(LISTED) || key.equals("suite")))) {
                text.append(' ').append(key).append('=').append(value);
            }
        });
        return TerminalText.line(text);
    }

    /**
     * {@return one line per problem in the problems detail of an invalid suite's problem, as {@code file:line: type
     * case 'id' field 'f': message}}; empty when it lists none
     */
    static java.util.List<String> listed(Problem problem) {
        if (!(problem.details().get(LISTED) instanceof java.util.List<?> problems)) {
            return java.util.List.of();
        }
        var lines = new java.util.ArrayList<String>();
        for (Object entry : problems) {
            if (entry instanceof java.util.Map<?, ?> map) {
                var line = new StringBuilder().append(map.get("file"));
                if (map.get("line") instanceof Number number && number.intValue() > 0) {
                    line.append(':').append(number);
                }
                line.append(": ").append(map.get("type"));
                if (map.get("case_id") != null) {
                    line.append(" case '").append(map.get("case_id")).append('\'');
                }
                if (map.get("field") != null) {
                    line.append(" field '").append(map.get("field")).append('\'');
                }
                line.append(": ").append(map.get("message"));
                if (map.get("expected") != null) {
                    line.append(" (expected: ").append(map.get("expected")).append(')');
                }
                lines.add(TerminalText.line(line));
            }
        }
        return lines;
    }
}
