package dev.assay.cases;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

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
        fixtures = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(fixtures));
        sources = List.copyOf(sources);
    }

    public Suite withCases(List<Case> selected) {
        return new Suite(name, version, selected, fixtures, sources);
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
