package dev.assay;

import java.util.regex.Pattern;

/** Names made from text (case ids, platform names) for use as file names on any file system. Stateless. */
public final class FileNames {
    private static final Pattern UNSAFE = Pattern.compile("[^A-Za-z0-9._-]");

    private FileNames() {}

    /**
     * {@return the text with every character but ASCII letters, digits, {@code .}, {@code _} and {@code -} replaced by
     * {@code _}} Different texts may give the same name: callers that need unique names add what tells them apart.
     */
    public static String safe(String text) {
        return UNSAFE.matcher(text).replaceAll("_");
    }
}
