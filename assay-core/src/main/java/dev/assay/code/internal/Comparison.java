package dev.assay.code.internal;

import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import dev.assay.AssayException;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * How a question's outputs are compared with the expected ones.
 *
 * @param mode exact, float, unordered or custom
 * @param tolerance absolute-or-relative tolerance for numbers in float mode (default 1e-5, as judge sites state);
 *     ignored otherwise
 */
public record Comparison(Mode mode, double tolerance) {
    /** Default float tolerance: "answers within 10^-5 of the actual answer will be accepted". */
    public static final double DEFAULT_TOLERANCE = 1e-5;

    /** Read on the description's plain text, so "in <strong>any order</strong>" counts too. */
    private static final Pattern ANY_ORDER =
            Pattern.compile("(?i)\\bin\\s+any\\s+order|\\bany\\s+order\\s+is\\s+(?:accepted|fine|allowed|ok)"
                    + "|\\border\\s+(?:does\\s*n[o']?t|doesn't)\\s+matter|\\bin\\s+an?\\s+arbitrary\\s+order"
                    + "|任[意何]\\s*(?:的\\s*)?顺序|顺序\\s*(?:无关|不限|任意)|不\\s*(?:需要|用)?\\s*考虑\\s*顺序");

    private static final Pattern STATED_TOLERANCE =
            Pattern.compile("(?i)10\\s*(?:\\^|<sup>|\\*\\*)\\s*[-−]\\s*(\\d+)|1e-(\\d+)");

    /**
     * The closed set of comparison modes; the lower-case names are what case files write. {@code custom} runs the
     * reference solution on each input and compares with its output; {@code checker} asks the question's own checker
     * ({@code checker_code}) whether each output is valid.
     */
    public enum Mode {
        EXACT,
        FLOAT,
        UNORDERED,
        CUSTOM,
        CHECKER;

        @JsonValue
        public String wireName() {
            return name().toLowerCase(Locale.ROOT);
        }

        static Mode of(String name) {
            for (Mode mode : values()) {
                if (mode.wireName().equals(name.strip().toLowerCase(Locale.ROOT))) {
                    return mode;
                }
            }
            throw AssayException.of(
                    "check.invalid_expected",
                    "compare must be exact, float, unordered, custom or checker, got '" + name + "'");
        }
    }

    public Comparison {
        if (!(tolerance >= 0)) {
            throw new IllegalArgumentException("tolerance must be >= 0, got " + tolerance);
        }
    }

    /**
     * {@return the stated mode, or one inferred from the description ("any order", "10^-5") and the expected values
     * (any floating-point number means float)}
     */
    public static Comparison choose(String stated, String description, List<JsonNode> expected) {
        String text = description == null ? "" : description;
        Matcher stated10 = STATED_TOLERANCE.matcher(text);
        double tolerance = DEFAULT_TOLERANCE;
        boolean toleranceStated = stated10.find();
        if (toleranceStated) {
            tolerance =
                    Math.pow(10, -Integer.parseInt(stated10.group(1) != null ? stated10.group(1) : stated10.group(2)));
        }
        if (stated != null && !stated.isBlank()) {
            return new Comparison(Mode.of(stated), tolerance);
        }
        if (ANY_ORDER.matcher(ExampleParser.plainText(text)).find()) {
            return new Comparison(Mode.UNORDERED, tolerance);
        }
        if (toleranceStated || expected.stream().anyMatch(Comparison::hasFloat)) {
            return new Comparison(Mode.FLOAT, tolerance);
        }
        return new Comparison(Mode.EXACT, tolerance);
    }

    /** {@return whether the actual output is accepted} */
    public boolean accepts(JsonNode expected, JsonNode actual) {
        return switch (mode) {
            case EXACT, CUSTOM, CHECKER -> equal(expected, actual, false);
            case FLOAT -> equal(expected, actual, true);
            case UNORDERED ->
                (expected.isArray() && actual.isArray())
                        ? sameMultiset(expected, actual)
                        : equal(expected, actual, true);
        };
    }

    /**
     * {@return whether a program's printed output is accepted} Line ends, trailing spaces and blank lines at the ends
     * do not count; in float mode numbers compare within the tolerance, token by token; in unordered mode the lines may
     * come in any order.
     */
    public boolean acceptsText(String expected, String actual) {
        String want = StdioExamples.normalise(expected);
        String got = StdioExamples.normalise(actual);
        if (want.equals(got)) {
            return true;
        }
        return switch (mode) {
            case FLOAT -> sameTokens(want, got);
            case UNORDERED ->
                want.lines().sorted().toList().equals(got.lines().sorted().toList());
            case EXACT, CUSTOM, CHECKER -> false;
        };
    }

    private boolean sameTokens(String expected, String actual) {
        String[] want = expected.strip().split("\\s+");
        String[] got = actual.strip().split("\\s+");
        if (want.length != got.length) {
            return false;
        }
        for (int i = 0; i < want.length; i++) {
            if (!want[i].equals(got[i])) {
                try {
                    double e = Double.parseDouble(want[i]);
                    double a = Double.parseDouble(got[i]);
                    double diff = Math.abs(e - a);
                    if (!(diff <= tolerance || diff <= tolerance * Math.abs(e))) {
                        return false;
                    }
                } catch (NumberFormatException notNumbers) {
                    return false;
                }
            }
        }
        return true;
    }

    /**
     * The top-level list as a multiset. Its inner lists are compared as multisets too when the expected ones read as
     * sets: each sorted, and still all different once sorted (Group Anagrams' groups, Subsets' subsets). Lists whose
     * order carries meaning fail that test (Permutations' permutations are all the same set once sorted), so they keep
     * their order and a wrong permutation still fails.
     */
    private boolean sameMultiset(JsonNode expected, JsonNode actual) {
        if (expected.size() != actual.size()) {
            return false;
        }
        boolean innerSets = readsAsSets(expected);
        List<JsonNode> left = new ArrayList<>();
        actual.forEach(left::add);
        for (JsonNode wanted : expected) {
            Iterator<JsonNode> it = left.iterator();
            boolean found = false;
            while (it.hasNext()) {
                JsonNode candidate = it.next();
                boolean same = (innerSets && wanted.isArray() && candidate.isArray())
                        ? sameMultiset(wanted, candidate)
                        : equal(wanted, candidate, true);
                if (same) {
                    it.remove();
                    found = true;
                    break;
                }
            }
            if (!found) {
                return false;
            }
        }
        return true;
    }

    private boolean equal(JsonNode expected, JsonNode actual, boolean tolerant) {
        // bool is never equal to a number (Python's True == 1 is not what a judge accepts).
        if (expected.isNumber() && actual.isNumber()) {
            if (expected.isIntegralNumber() && actual.isIntegralNumber()) {
                return expected.bigIntegerValue().equals(actual.bigIntegerValue());
            }
            double e = expected.doubleValue();
            double a = actual.doubleValue();
            if (!tolerant) {
                return e == a;
            }
            double diff = Math.abs(e - a);
            return diff <= tolerance || diff <= tolerance * Math.abs(e);
        }
        if (expected.isArray() && actual.isArray()) {
            if (expected.size() != actual.size()) {
                return false;
            }
            for (int i = 0; i < expected.size(); i++) {
                if (!equal(expected.get(i), actual.get(i), tolerant)) {
                    return false;
                }
            }
            return true;
        }
        if (expected.isObject() && actual.isObject()) {
            if (expected.size() != actual.size()) {
                return false;
            }
            for (Iterator<Map.Entry<String, JsonNode>> it =
                            expected.properties().iterator();
                    it.hasNext(); ) {
                var entry = it.next();
                if (!actual.has(entry.getKey()) || !equal(entry.getValue(), actual.get(entry.getKey()), tolerant)) {
                    return false;
                }
            }
            return true;
        }
        return expected.getNodeType() == actual.getNodeType() && expected.equals(actual);
    }

    private static boolean readsAsSets(JsonNode lists) {
        if (lists.isEmpty()) {
            return false;
        }
        var sortedForms = new HashSet<String>();
        for (JsonNode list : lists) {
            if (!list.isArray()) {
                return false;
            }
            List<JsonNode> items = new ArrayList<>();
            list.forEach(items::add);
            List<JsonNode> sorted = new ArrayList<>(items);
            sorted.sort(Comparison::natural);
            if (!sorted.equals(items) || !sortedForms.add(sorted.toString())) {
                return false;
            }
        }
        return true;
    }

    /** Numbers by value, strings alphabetically, numbers before strings before anything else (by its JSON). */
    private static int natural(JsonNode a, JsonNode b) {
        if (a.isNumber() && b.isNumber()) {
            return a.decimalValue().compareTo(b.decimalValue());
        }
        if (a.isTextual() && b.isTextual()) {
            return a.asText().compareTo(b.asText());
        }
        int rank = Integer.compare(rank(a), rank(b));
        return rank != 0 ? rank : a.toString().compareTo(b.toString());
    }

    private static int rank(JsonNode node) {
        return node.isNumber() ? 0 : node.isTextual() ? 1 : 2;
    }

    private static boolean hasFloat(JsonNode node) {
        if (node.isFloatingPointNumber()) {
            return true;
        }
        for (JsonNode child : node) {
            if (hasFloat(child)) {
                return true;
            }
        }
        return false;
    }
}
