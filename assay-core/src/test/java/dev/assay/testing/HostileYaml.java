package dev.assay.testing;

import java.util.Collections;

/** YAML documents written to hurt a reader, shared by the tests of every YAML reader. */
public final class HostileYaml {
    /** Ten levels of nine aliases each: billions of strings once expanded, 500 bytes as written. */
    public static final String BILLION_LAUGHS = billionLaughs();

    private HostileYaml() {}

    private static String billionLaughs() {
        var yaml = new StringBuilder("a: &a [lol, lol, lol, lol, lol, lol, lol, lol, lol]\n");
        for (char level = 'b'; level <= 'j'; level++) {
            String previous = "*" + (char) (level - 1);
            yaml.append(level)
                    .append(": &")
                    .append(level)
                    .append(" [")
                    .append(String.join(", ", Collections.nCopies(9, previous)))
                    .append("]\n");
        }
        return yaml.toString();
    }
}
