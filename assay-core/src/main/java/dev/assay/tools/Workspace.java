package dev.assay.tools;

import dev.assay.AssayException;
import dev.assay.Problem;
import dev.assay.internal.WorkspacePath;
import dev.assay.sandbox.Sandbox;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.util.Optional;

/**
 * The directory one case works in. Every path a tool or checker receives is resolved here, and nothing may leave it:
 * absolute paths, {@code ..} segments that climb out, and symbolic links pointing outside are all refused with
 * {@code workspace.escape}. The directory is made when first used: most cases (a question and its answer) never touch
 * it, and making and removing a directory per case was a tenth of a large run's CPU. Thread-safe.
 */
public final class Workspace {
    private final Path requested;
    private final Sandbox sandbox;
    private volatile Path root;

    /** @param root the case's directory; it and its parents are created when the workspace is first used */
    public Workspace(Path root) {
        this(root, null);
    }

    private Workspace(Path root, Sandbox sandbox) {
        this.requested = root.toAbsolutePath().normalize();
        this.sandbox = sandbox;
    }

    /**
     * {@return this workspace as the trial's own sandbox shows it}: a container whose workdir is this directory, in
     * which the trial's commands and command checks run instead of the run's sandbox
     */
    public Workspace in(Sandbox trialSandbox) {
        return new Workspace(requested, trialSandbox);
    }

    /** {@return the trial's own sandbox (its container), or empty when commands run in the run's sandbox} */
    public Optional<Sandbox> sandbox() {
        return Optional.ofNullable(sandbox);
    }

    /**
     * {@return the case's directory, absolute and real, created with its parents if this is its first use}
     *
     * @throws UncheckedIOException when it cannot be created
     */
    public Path root() {
        Path made = root;
        if (made == null) {
            synchronized (this) {
                made = root;
                if (made == null) {
                    try {
                        Files.createDirectories(requested);
                        made = requested.toRealPath();
                    } catch (IOException e) {
                        throw new UncheckedIOException("cannot create workspace " + requested, e);
                    }
                    root = made;
                }
            }
        }
        return made;
    }

    @Override
    public String toString() {
        return "Workspace[" + requested + "]";
    }

    /**
     * Resolves a path given by a model or a case file: refused by the rules of {@link WorkspacePath#outside}, or when
     * it goes through a link that leaves.
     *
     * @param relative a path relative to the workspace; {@code ""} or {@code "."} is the workspace itself
     * @return the absolute path inside the workspace (which need not exist yet)
     * @throws AssayException with {@code workspace.escape} when the path would leave the workspace
     */
    public Path resolve(String relative) {
        String outside = WorkspacePath.outside(relative);
        if (outside != null) {
            throw escape(relative == null ? "" : relative, outside);
        }
        String cleaned = relative.strip().replace('\\', '/');
        Path root = root();
        Path candidate = root.resolve(cleaned.isEmpty() ? "." : cleaned).normalize();
        if (!candidate.startsWith(root)) {
            throw escape(relative, "the path leaves the workspace");
        }
        Path real = realPathOfExistingPrefix(candidate);
        if (!real.startsWith(root)) {
            throw escape(relative, "the path goes through a link that leaves the workspace");
        }
        return candidate;
    }

    /**
     * Deletes a directory and everything below it, best effort: what cannot be deleted is left behind, because a
     * leftover scratch directory affects no result. Links are deleted, never followed.
     */
    public static void deleteTree(Path directory) {
        try {
            // Most workspaces are left empty (a plain question): one call deletes them, with no walk.
            Files.deleteIfExists(directory);
            return;
        } catch (DirectoryNotEmptyException full) {
            // Walked below.
        } catch (IOException e) {
            // A link or an unreadable entry: the walk below deletes what it can.
        }
        try (java.util.stream.Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(java.util.Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    // Left behind, as documented.
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // The walk itself failed part-way; what it reached is deleted.
        }
    }

    /** {@return the path relative to the workspace root, with forward slashes} */
    public String relativize(Path path) {
        return root().relativize(path).toString().replace('\\', '/');
    }

    /**
     * {@return the text with the workspace's host path replaced by paths relative to it: messages shown to the model
     * (I/O errors, tool failures) must not tell it where the workspace lives on the host}
     */
    public String hideRoot(String text) {
        Path root = root();
        String host = root.toString();
        return text.replace(host + root.getFileSystem().getSeparator(), "").replace(host, ".");
    }

    /** A link anywhere along the path (even a dangling one) could point outside, so follow what exists. */
    private Path realPathOfExistingPrefix(Path candidate) {
        Path existing = candidate;
        Path rest = null;
        while (existing != null && !Files.exists(existing, LinkOption.NOFOLLOW_LINKS)) {
            rest = rest == null
                    ? existing.getFileName()
                    : existing.getFileName().resolve(rest);
            existing = existing.getParent();
        }
        if (existing == null) {
            return candidate;
        }
        try {
            Path real = existing.toRealPath();
            return rest == null ? real : real.resolve(rest).normalize();
        } catch (IOException e) {
            // A dangling symlink: its target cannot be checked, so it is refused.
            throw escape(root().relativize(candidate).toString(), "the path goes through a dangling link");
        }
    }

    private static AssayException escape(String path, String why) {
        return new AssayException(
                Problem.of("workspace.escape", why + ": " + path).withDetail("path", path));
    }
}
