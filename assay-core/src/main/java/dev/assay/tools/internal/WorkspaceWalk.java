package dev.assay.tools.internal;

import java.io.IOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Set;

/**
 * Walks a directory of the workspace for list_files and search_files. Symbolic links are listed but never followed, so
 * a link cannot lead a walk out of the workspace; unreadable entries are skipped; version-control and dependency
 * directories are listed but not entered, as their contents drown what a model looks for.
 */
final class WorkspaceWalk {
    private static final Set<String> NOT_ENTERED = Set.of(".git", ".hg", ".svn", "node_modules");

    private WorkspaceWalk() {}

    /**
     * One entry found.
     *
     * @param path absolute path
     * @param directory whether it is a directory (a link to one is not)
     * @param regularFile whether it is a regular file (a link to one is not)
     */
    public record Entry(Path path, boolean directory, boolean regularFile) {}

    /** {@return the entries below {@code start} (not {@code start} itself), sorted by path} */
    static List<Entry> below(Path start, int maxDepth) throws IOException {
        var entries = new ArrayList<Entry>();
        Files.walkFileTree(start.toRealPath(), Set.of(), maxDepth, new SimpleFileVisitor<>() {
            private Path root;

            @Override
            public FileVisitResult preVisitDirectory(Path dir, BasicFileAttributes attributes) {
                if (root == null) {
                    root = dir;
                    return FileVisitResult.CONTINUE;
                }
                entries.add(new Entry(dir, true, false));
                return NOT_ENTERED.contains(dir.getFileName().toString())
                        ? FileVisitResult.SKIP_SUBTREE
                        : FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) {
                // At the depth limit, directories arrive here instead of in preVisitDirectory.
                entries.add(new Entry(file, attributes.isDirectory(), attributes.isRegularFile()));
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult visitFileFailed(Path file, IOException e) {
                return FileVisitResult.CONTINUE;
            }
        });
        entries.sort(Comparator.comparing(Entry::path));
        return entries;
    }
}
