package dev.assay.internal;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/**
 * The known name a misspelt one was probably meant to be, for "did you mean" in problems ({@code promt} →
 * {@code prompt}, {@code contain} → {@code contains}). Stateless and thread-safe.
 */
public final class Spelling {
    /** At most this many edits apart, and fewer than half the typed name's length, so short names are not guessed. */
    private static final int MAX_EDITS = 2;
    /** Longer input is no typo of a name, and its distance would cost time and memory in proportion. */
    private static final int MAX_LENGTH = 64;

    private Spelling() {}

    /**
     * {@return the known name closest to {@code typed} by edit distance (insertions, deletions, substitutions and
     * adjacent swaps, ignoring case), when it is near enough to be a typo; the first of equally close ones}
     */
    public static Optional<String> closest(String typed, Collection<String> known) {
        if (typed.length() > MAX_LENGTH) {
            return Optional.empty();
        }
        String lower = typed.toLowerCase(Locale.ROOT);
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String name : known) {
            int distance = distance(lower, name.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = name;
                bestDistance = distance;
            }
        }
        boolean near = bestDistance > 0 && bestDistance <= MAX_EDITS && bestDistance * 2 < typed.length();
        return near ? Optional.of(best) : Optional.empty();
    }

    /** The optimal string alignment distance: Levenshtein's, with a swap of two neighbours counting one edit. */
    private static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
