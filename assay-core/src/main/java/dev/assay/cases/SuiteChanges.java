package dev.assay.cases;

import dev.assay.cases.internal.SuiteVersion;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How the cases a suite's files select now differ from the cases a run was started with: what a run continued from its
 * stored description would otherwise judge partly by one version and partly by the other. Immutable.
 *
 * @param added the ids of cases selected now that the run did not have, in the suite's order
 * @param removed the ids of cases the run had that are no longer selected, in the run's order
 * @param modified the ids of cases in both whose content (prompt, checks, files, weight...) changed, in the suite's
 *     order
 * @param fixturesChanged whether the files seeded into every workspace changed
 */
public record SuiteChanges(List<String> added, List<String> removed, List<String> modified, boolean fixturesChanged) {
    /** How many ids of each kind a description names before it says how many more there are. */
    private static final int NAMED = 10;

    public SuiteChanges {
        added = List.copyOf(added);
        removed = List.copyOf(removed);
        modified = List.copyOf(modified);
    }

    /**
     * {@return how {@code now} differs from the cases a run had}
     *
     * @param before each case the run had, by id, and its {@link #fingerprint}, in the run's order
     * @param fixturesBefore the run's fixtures
     * @param now the suite as selected now
     */
    public static SuiteChanges between(Map<String, String> before, Map<String, String> fixturesBefore, Suite now) {
        var unseen = new LinkedHashMap<>(before);
        var added = new ArrayList<String>();
        var modified = new ArrayList<String>();
        for (Case evalCase : now.cases()) {
            String was = unseen.remove(evalCase.id());
            if (was == null) {
                added.add(evalCase.id());
            } else if (!was.equals(fingerprint(evalCase))) {
                modified.add(evalCase.id());
            }
        }
        return new SuiteChanges(added, List.copyOf(unseen.keySet()), modified, !fixturesBefore.equals(now.fixtures()));
    }

    /** {@return a case's content hash: equal for two cases exactly when they count the same in a suite's version} */
    public static String fingerprint(Case evalCase) {
        return SuiteVersion.fingerprint(evalCase);
    }

    /** {@return whether nothing changed that a run would judge differently} */
    public boolean none() {
        return added.isEmpty() && removed.isEmpty() && modified.isEmpty() && !fixturesChanged;
    }

    /** {@return the changes in words, e.g. "2 cases modified (a, b), 1 added (c)", naming at most ten of each} */
    public String inWords() {
        var parts = new ArrayList<String>();
        describe(parts, modified, "modified");
        describe(parts, added, "added");
        describe(parts, removed, "removed");
        if (fixturesChanged) {
            parts.add("the fixtures changed");
        }
        return String.join(", ", parts);
    }

    private static void describe(List<String> parts, List<String> ids, String what) {
        if (ids.isEmpty()) {
            return;
        }
        String named = String.join(", ", ids.subList(0, Math.min(NAMED, ids.size())))
                + (ids.size() > NAMED ? " and " + (ids.size() - NAMED) + " more" : "");
        parts.add(ids.size() + (ids.size() == 1 ? " case " : " cases ") + what + " (" + named + ")");
    }
}
