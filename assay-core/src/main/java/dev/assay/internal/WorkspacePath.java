package dev.assay.internal;

import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The rules a path relative to a case's workspace obeys, told from its text alone: the workspace applies them to every
 * path a model or a case gives ({@code tools.Workspace#resolve}, which then also follows the links that exist), and the
 * case loader applies them, and the rules for a file to seed, to a case's {@code files}, so that a path that would fail
 * when the case runs fails when the suite is loaded. Stateless.
 */
public final class WorkspacePath {
    /** The longest name of one file or directory that common file systems take ({@code NAME_MAX}), in UTF-8 bytes. */
    public static final int LONGEST_NAME = 255;

    private WorkspacePath() {}

    /**
     * {@return why {@code path} cannot name a place inside the workspace, or null when it can}: an absolute path (a
     * drive letter or {@code ~} too), a NUL character, or {@code ..} that climbs out. {@code ""} and {@code "."} name
     * the workspace itself. Backslashes count as slashes and the path is stripped of surrounding blanks.
     */
    public static String outside(String path) {
        if (path == null) {
            return "no path given";
        }
        String cleaned = cleaned(path);
        if (cleaned.startsWith("/") || cleaned.matches("^[A-Za-z]:.*") || cleaned.startsWith("~")) {
            return "absolute paths are not allowed; give a path relative to the workspace";
        }
        if (cleaned.indexOf('\0') >= 0) {
            return "the path contains a NUL character";
        }
        return normalized(cleaned) == null ? "the path leaves the workspace" : null;
    }

    /**
     * {@return why {@code path} cannot name a file written into the workspace, or null when it can}: the rules of
     * {@link #outside}, and it must name something other than the workspace itself, in names of at most
     * {@value #LONGEST_NAME} bytes each
     */
    public static String notAFile(String path) {
        String outside = outside(path);
        if (outside != null) {
            return outside;
        }
        String normalized = normalized(cleaned(path));
        if (normalized.isEmpty()) {
            return "the path names the workspace itself, not a file in it";
        }
        for (String name : normalized.split("/")) {
            if (name.getBytes(StandardCharsets.UTF_8).length > LONGEST_NAME) {
                return "a name in the path is longer than " + LONGEST_NAME + " bytes";
            }
        }
        return null;
    }

    /**
     * {@return the files of {@code paths} (each one {@link #notAFile} accepts) that cannot all be written, each with
     * why}: two paths naming the same file ({@code a} and {@code ./a}), or a file that another one needs as a directory
     * ({@code a} and {@code a/b}); in the order given
     */
    public static Map<String, String> clashes(Collection<String> paths) {
        var byName = new TreeMap<String, String>();
        var clashes = new LinkedHashMap<String, String>();
        for (String path : paths) {
            String name = normalized(cleaned(path));
            String same = byName.putIfAbsent(name, path);
            if (same != null) {
                clashes.put(path, "'" + path + "' names the same file as '" + same + "'");
            }
        }
        byName.forEach((name, path) -> {
            // Sorted, so a path's descendants follow it at once: "a", then "a/b" ("a-b" and "a.b" sort before "a/").
            String below = byName.ceilingKey(name + "/");
            if (below != null && below.startsWith(name + "/")) {
                clashes.put(
                        path, "'" + path + "' is a file, and '" + byName.get(below) + "' needs it to be a directory");
            }
        });
        return clashes;
    }

    private static String cleaned(String path) {
        return path.strip().replace('\\', '/');
    }

    /** {@return the path without {@code .}, {@code ..} and empty names, joined by slashes; null when it climbs out} */
    private static String normalized(String cleaned) {
        var names = new ArrayDeque<String>();
        for (String name : cleaned.split("/")) {
            if (name.isEmpty() || name.equals(".")) {
                continue;
            }
            if (name.equals("..")) {
                if (names.isEmpty()) {
                    return null;
                }
                names.removeLast();
            } else {
                names.addLast(name);
            }
        }
        return String.join("/", names);
    }
}
