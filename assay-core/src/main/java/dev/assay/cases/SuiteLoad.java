package dev.assay.cases;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * What {@link SuiteLoader} found: the cases that passed validation and every problem met on the way.
 *
 * @param suite the valid cases only (in file order); with problems, a case that had any is left out
 * @param problems every problem, in file order; empty when the suite is valid
 * @param notes what the user should know that is no problem, once per file (the fields of a τ²-bench task file that
 *     Assay does not use); empty for most suites
 */
public record SuiteLoad(Suite suite, List<CaseProblem> problems, List<String> notes) {
    public SuiteLoad {
        Objects.requireNonNull(suite, "suite");
        problems = List.copyOf(problems);
        notes = List.copyOf(notes);
    }

    /** A load with nothing to note. */
    public SuiteLoad(Suite suite, List<CaseProblem> problems) {
        this(suite, problems, List.of());
    }

    /** {@return true when nothing was wrong} */
    public boolean isValid() {
        return problems.isEmpty();
    }

    /**
     * {@return the suite to run}: the whole suite when valid; with problems, the valid cases when {@code skipInvalid}
     * ({@code --skip-invalid}), else nothing
     *
     * @throws AssayException {@code suite.invalid} with every problem in its details, when there are problems and
     *     {@code skipInvalid} is false, or when no valid case is left
     */
    public Suite suite(boolean skipInvalid) {
        if (isValid() || (skipInvalid && !suite.cases().isEmpty())) {
            return suite;
        }
        return requireValid();
    }

    /**
     * {@return the suite when there were no problems}
     *
     * @throws AssayException {@code suite.invalid}; its details hold {@code suite}, the suite's name, and
     *     {@code problems}, a list of problem maps ({@code type}, {@code message}, {@code file}, {@code line},
     *     {@code case_id}...)
     */
    public Suite requireValid() {
        if (isValid()) {
            return suite;
        }
        var listed = problems.stream().map(SuiteLoad::asMap).toList();
        throw new AssayException(new Problem(
                "suite.invalid",
                "suite '" + suite.name() + "' has " + problems.size() + " problem(s); first: " + problems.getFirst(),
                Map.of("suite", suite.name(), "problems", listed)));
    }

    private static Map<String, Object> asMap(CaseProblem problem) {
        var asProblem = problem.toProblem();
        var map = new java.util.LinkedHashMap<String, Object>();
        map.put("type", asProblem.type());
        map.put("message", asProblem.message());
        map.putAll(asProblem.details());
        return map;
    }
}
