package dev.assay.sandbox.container;

import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermission;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.commons.compress.archivers.tar.TarArchiveEntry;
import org.apache.commons.compress.archivers.tar.TarArchiveInputStream;

/**
 * The host side of a trial's workdir: a directory bind-mounted at the container's workdir, seeded with what the image
 * holds there (its tar stream from the engine), owned by the container's user so that the agent can write it, and the
 * case's own files laid over it. Stateless.
 */
final class Workdirs {
    private Workdirs() {}

    /**
     * Unpacks the engine's tar stream of a directory into {@code directory}, dropping the stream's top directory; files
     * already there (a case's own) win. Only directories, regular files and links are made, and nothing outside
     * {@code directory}.
     */
    static void unpack(byte[] tar, Path directory) throws IOException {
        Files.createDirectories(directory);
        try (var in = new TarArchiveInputStream(new ByteArrayInputStream(tar))) {
            for (TarArchiveEntry entry = in.getNextEntry(); entry != null; entry = in.getNextEntry()) {
                String name = entry.getName();
                int slash = name.indexOf('/');
                String relative = slash < 0 ? "" : name.substring(slash + 1);
                if (relative.isEmpty() || relative.equals("/")) {
                    continue;
                }
                Path target = directory.resolve(relative).normalize();
                if (!target.startsWith(directory) || target.equals(directory)) {
                    continue;
                }
                if (Files.exists(target, LinkOption.NOFOLLOW_LINKS) && !entry.isDirectory()) {
                    continue;
                }
                Files.createDirectories(target.getParent());
                if (entry.isDirectory()) {
                    Files.createDirectories(target);
                    setMode(target, entry.getMode());
                } else if (entry.isSymbolicLink()) {
                    Files.createSymbolicLink(target, Path.of(entry.getLinkName()));
                } else if (entry.isLink()) {
                    Path source =
                            directory.resolve(stripTop(entry.getLinkName())).normalize();
                    if (source.startsWith(directory) && Files.isRegularFile(source, LinkOption.NOFOLLOW_LINKS)) {
                        Files.copy(source, target);
                    }
                } else if (entry.isFile()) {
                    Files.copy(in, target);
                    setMode(target, entry.getMode());
                }
            }
        }
    }

    /** Gives everything below {@code directory}, and itself, to the container's user; links are not followed. */
    static void chown(Path directory, int uid, int gid) throws IOException {
        try (Stream<Path> paths = Files.walk(directory)) {
            for (Path path : (Iterable<Path>) paths::iterator) {
                Files.setAttribute(path, "unix:uid", uid, LinkOption.NOFOLLOW_LINKS);
                Files.setAttribute(path, "unix:gid", gid, LinkOption.NOFOLLOW_LINKS);
            }
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    /**
     * Lays the files of {@code workspace} (the case's own, just written) over the warm directory {@code warm}, then
     * puts {@code warm} in {@code workspace}'s place: the warm container's bind mount follows its directory.
     *
     * @return the files moved, for their owner to be set
     */
    static List<Path> adopt(Path warm, Path workspace) throws IOException {
        var moved = new ArrayList<Path>();
        if (Files.isDirectory(workspace, LinkOption.NOFOLLOW_LINKS)) {
            List<Path> files;
            try (Stream<Path> paths = Files.walk(workspace)) {
                files = paths.filter(path -> !Files.isDirectory(path, LinkOption.NOFOLLOW_LINKS))
                        .toList();
            }
            for (Path file : files) {
                Path target = warm.resolve(workspace.relativize(file).toString());
                if (Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
                    delete(target);
                }
                Files.createDirectories(target.getParent());
                Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
                moved.add(target);
            }
            delete(workspace);
        }
        Files.createDirectories(workspace.getParent());
        try {
            Files.move(warm, workspace, StandardCopyOption.ATOMIC_MOVE);
        } catch (FileAlreadyExistsException | DirectoryNotEmptyException e) {
            throw new IOException("the workspace " + workspace + " is still there", e);
        }
        return moved;
    }

    /** Deletes a directory tree, best effort, never following links. */
    static void delete(Path directory) {
        if (!Files.exists(directory, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> {
                try {
                    Files.deleteIfExists(path);
                } catch (IOException e) {
                    // Left behind: a leftover scratch file affects no result.
                }
            });
        } catch (IOException | UncheckedIOException e) {
            // What the walk reached is deleted.
        }
    }

    private static String stripTop(String name) {
        int slash = name.indexOf('/');
        return slash < 0 ? "" : name.substring(slash + 1);
    }

    private static void setMode(Path path, int mode) throws IOException {
        Set<PosixFilePermission> permissions = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] order = {
            PosixFilePermission.OTHERS_EXECUTE, PosixFilePermission.OTHERS_WRITE, PosixFilePermission.OTHERS_READ,
            PosixFilePermission.GROUP_EXECUTE, PosixFilePermission.GROUP_WRITE, PosixFilePermission.GROUP_READ,
            PosixFilePermission.OWNER_EXECUTE, PosixFilePermission.OWNER_WRITE, PosixFilePermission.OWNER_READ
        };
        for (int bit = 0; bit < order.length; bit++) {
            if ((mode & (1 << bit)) != 0) {
                permissions.add(order[bit]);
            }
        }
        // The owner always keeps reading and writing: the workspace is the agent's to change.
        permissions.add(PosixFilePermission.OWNER_READ);
        permissions.add(PosixFilePermission.OWNER_WRITE);
        Files.setPosixFilePermissions(path, permissions);
    }
}
