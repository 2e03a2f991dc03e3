package dev.assay.cases;

import dev.assay.cases.internal.SpilledCases;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;

/**
 * Which cases of a suite a run evaluates. Filters combine with AND; each list filter is "any of" and matches everything
 * when empty. The result keeps file order unless {@code seed} is set; then it is shuffled with that seed (the same seed
 * gives the same order on every machine), and only then cut to {@code limit}.
 *
 * @param dimensions keep cases of these dimensions; empty keeps all
 * @param language keep cases in this language (case-insensitive); a case without a language matches any; empty keeps
 *     all
 * @param tags keep cases carrying at least one of these tags; empty keeps all
 * @param ids keep only these case ids; empty keeps all; ids not in the suite match nothing
 * @param seed shuffle with this seed before applying the limit; null keeps file order
 * @param limit keep at most this many cases; 0 means no limit
 */
public record Selection(
        List<String> dimensions, String language, List<String> tags, List<String> ids, Long seed, int limit) {
    /** Everything, in file order. */
    public static final Selection ALL = new Selection(List.of(), "", List.of(), List.of(), null, 0);

    public Selection {
        dimensions = dimensions == null ? List.of() : List.copyOf(dimensions);
        language = language == null ? "" : language.strip();
        tags = tags == null ? List.of() : List.copyOf(tags);
        ids = ids == null ? List.of() : List.copyOf(ids);
        if (limit < 0) {
            throw new IllegalArgumentException("limit must be >= 0 (0 = no limit), got " + limit);
        }
    }

    /** {@return true when the case passes every filter (the order and limit aside)} */
    public boolean matches(Case evalCase) {
        return (dimensions.isEmpty() || dimensions.contains(evalCase.dimension()))
                && (language.isEmpty()
                        || evalCase.language().isEmpty()
                        || language.equalsIgnoreCase(evalCase.language()))
                && (tags.isEmpty() || evalCase.tags().stream().anyMatch(tags::contains))
                && (ids.isEmpty() || ids.contains(evalCase.id()));
    }

    /** {@return the suite with only the selected cases, in the documented order}; name and version are kept */
    public Suite select(Suite suite) {
        List<Case> cases = suite.cases();
        boolean filtered = !dimensions.isEmpty() || !language.isEmpty() || !tags.isEmpty() || !ids.isEmpty();
        var selected = new ArrayList<Integer>();
        for (int index = 0; index < cases.size(); index++) {
            // Without a filter a large suite's cases are not read back just to match them all.
            if (!filtered || matches(cases.get(index))) {
                selected.add(index);
            }
        }
        if (seed != null) {
            // The same permutation as shuffling the cases themselves: it depends only on the size and the seed.
            Collections.shuffle(selected, new Random(seed));
        }
        List<Integer> kept = limit > 0 && selected.size() > limit ? selected.subList(0, limit) : selected;
        if (kept.size() == cases.size() && seed == null) {
            // Everything, in file order: the suite as it is, not a copy.
            return suite;
        }
        return suite.withCases(
                cases instanceof SpilledCases spilled
                        ? spilled.select(kept)
                        : kept.stream().map(cases::get).toList());
    }
}
