package dev.assay.code;

import dev.assay.Problem;
import dev.assay.code.internal.Comparison;
import java.util.List;

/**
 * The grade of one answer to a code question.
 *
 * @param language the language the code was run as
 * @param sandbox the sandbox kind that ran it ({@code bubblewrap}, or {@code none} when the user allowed it)
 * @param source where the tests came from: {@code test_cases}, {@code examples} or {@code test_code}
 * @param parse the description's examples (all of them, parsed or not); null when explicit tests were used
 * @param comparison how outputs were compared
 * @param cases one result per test, unsupported examples included
 * @param problem why the answer could not be graded at all; null when it was
 */
public record Grade(
        String language,
        String sandbox,
        String source,
        ParsedExamples parse,
        Comparison comparison,
        List<CaseResult> cases,
        Problem problem) {
    public Grade {
        cases = List.copyOf(cases);
    }

    /** {@return how many tests ran (unsupported examples are not tests)} */
    public int total() {
        return (int) cases.stream()
                .filter(c -> c.status() != CaseResult.Status.UNSUPPORTED)
                .count();
    }

    /** {@return how many tests passed} */
    public int passed() {
        return (int) cases.stream()
                .filter(c -> c.status() == CaseResult.Status.PASSED)
                .count();
    }

    /** {@return the pass ratio; 0 when nothing ran} */
    public double score() {
        return total() == 0 ? 0 : (double) passed() / total();
    }

    /** {@return the strict flag: at least one test ran and every one passed} */
    public boolean allPassed() {
        return problem == null && total() > 0 && passed() == total();
    }
}
