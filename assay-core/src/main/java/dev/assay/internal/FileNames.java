package dev.assay.internal;

import java.util.regex.Pattern;

/** Names made from text (case ids, platform names) for use as file names on any file system. Stateless. */
public final class FileNames {
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");

    private FileNames() {}

    /**
     * The longest name made: file systems refuse names over 255 bytes, and callers add to it (a sequence number, a
     * suffix).
     */
    public static final int LONGEST = 120;

    /**
     * {@return the text with every character but ASCII letters, digits, {@code .}, {@code _} and {@code -} replaced by
     * {@code _}, cut to its first {@value #LONGEST} characters} Different texts may give the same name: callers that
     * need unique names add what tells them apart.
     */
    public static String safe(String text) {
        String safe = UNSAFE.matcher(text).replaceAll("_");
        return safe.length() > LONGEST ? safe.substring(0, LONGEST) : safe;
    }
}
