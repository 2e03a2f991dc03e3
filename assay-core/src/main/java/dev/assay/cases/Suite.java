package dev.assay.cases;

import dev.assay.cases.internal.SpilledCases;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SortedMap;
import java.util.SortedSet;
import java.util.TreeMap;
import java.util.TreeSet;

/**
 * A loaded set of cases: what a run evaluates. Immutable.
 *
 * @param name the case-set name ({@code case_set} in the files, else the directory or file name)
 * @param version content hash (hex SHA-256 over the normalised cases and fixtures): the snapshot's identity
 * @param cases the cases in file order; those of a large loaded suite are read from a scratch file as they are used, so
 *     go through them once rather than asking for each one often
 * @param fixtures files seeded into every case's workspace (relative path, may hold placeholders, to content)
 * @param sources the files the suite was read from
 */
public record Suite(String name, String version, List<Case> cases, Map<String, String> fixtures, List<String> sources) {
    public Suite {
        Objects.requireNonNull(name, "name");
        version = version == null ? "" : version;
        // A loaded suite's many cases live in a scratch file; that list is immutable already, and copying would read
        // every case into memory.
        cases = cases instanceof SpilledCases ? cases : List.copyOf(cases);
        fixtures = Collections.unmodifiableMap(new LinkedHashMap<>(fixtures));
        sources = List.copyOf(sources);
    }

    public Suite withCases(List<Case> selected) {
        return new Suite(name, version, selected, fixtures, sources);
    }

    /** {@return how many cases each dimension has and the languages they are in, counted in one pass} */
    public Breakdown breakdown() {
        return Breakdown.of(cases);
    }

    /**
     * What a set of cases holds, as listings and messages show it.
     *
     * @param casesByDimension how many cases each dimension has, dimensions in alphabetical order
     * @param languages the languages of the cases that name one, in alphabetical order
     */
    public record Breakdown(SortedMap<String, Integer> casesByDimension, SortedSet<String> languages) {
        /** {@return the breakdown of {@code cases}, read once: a large suite's are read back from a scratch file} */
        public static Breakdown of(List<Case> cases) {
            var dimensions = new TreeMap<String, Integer>();
            var languages = new TreeSet<String>();
            for (Case evalCase : cases) {
                dimensions.merge(evalCase.dimension(), 1, Integer::sum);
                if (!evalCase.language().isEmpty()) {
                    languages.add(evalCase.language());
                }
            }
            return new Breakdown(
                    Collections.unmodifiableSortedMap(dimensions), Collections.unmodifiableSortedSet(languages));
        }
    }

    /**
     * {@return the tags of the cases that have any, by case id, in the suite's order}: what a run's coverage by tag
     * needs, without holding a large suite's untagged ids or reading its cases back from their scratch file
     */
    public Map<String, List<String>> caseTags() {
        if (cases instanceof SpilledCases spilled) {
            return spilled.caseTags();
        }
        var tags = new LinkedHashMap<String, List<String>>();
        cases.stream()
                .filter(evalCase -> !evalCase.tags().isEmpty())
                .forEach(evalCase -> tags.put(evalCase.id(), evalCase.tags()));
        return tags;
    }
}
