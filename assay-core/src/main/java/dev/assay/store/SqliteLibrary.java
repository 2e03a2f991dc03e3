package dev.assay.store;

import dev.assay.OwnerOnly;
import dev.assay.internal.FileNames;
import dev.assay.internal.WholeFiles;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.JarURLConnection;
import java.net.URL;
import java.net.URLConnection;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.regex.Pattern;
import java.util.zip.CRC32;
import java.util.zip.CheckedInputStream;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

/**
 * SQLite's native library, kept extracted in a directory of the user's. At every start sqlite-jdbc writes its library
 * out of its jar into a new temporary file and reads both back to compare them: about 90 ms of CPU, most of it
 * inflating the library twice, on the way to a short command's first query. Given a directory, the library is extracted
 * there once per driver version and platform (again when it no longer matches the jar's entry, size and CRC-32), and
 * the driver loads it from there ({@code org.sqlite.lib.path}); where that cannot be done, where someone else could
 * write there, or the user set the path, the driver does as it always did. Thread-safe.
 */
public final class SqliteLibrary {
    private static final String PATH_PROPERTY = "org.sqlite.lib.path";
    private static final String NAME_PROPERTY = "org.sqlite.lib.name";

    private SqliteLibrary() {}

    /**
     * Has the driver load its native library from {@code directory} (made when needed), extracting it there first when
     * it is missing. Call it before the first SQLite connection of the process; a later call changes nothing.
     */
    public static synchronized void keepIn(Path directory) {
        if (System.getProperty(PATH_PROPERTY) != null) {
            return;
        }
        try {
            Path driverDirectory = directory.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion());
            String folder = platformFolder(driverDirectory);
            String name = System.mapLibraryName("sqlitejdbc");
            URL library = SQLiteJDBCLoader.class.getResource("/org/sqlite/native/" + folder + "/" + name);
            if (library == null) {
                return;
            }
            Path kept = driverDirectory.resolve(folder).resolve(name);
            if (!privateDirectories(directory, kept.getParent())) {
                return;
            }
            URLConnection entry = library.openConnection();
            long crc = entry instanceof JarURLConnection jar ? jar.getJarEntry().getCrc() : -1;
            if (!matches(kept, entry.getContentLengthLong(), crc)) {
                // Synced: a library moved into place unsynced may be found after a power cut at its size, zeroed.
                try (InputStream in = entry.getInputStream()) {
                    WholeFiles.writeSynced(kept, in::transferTo);
                }
            }
            System.setProperty(PATH_PROPERTY, kept.getParent().toString());
            System.setProperty(NAME_PROPERTY, name);
        } catch (IOException | RuntimeException cannotKeep) {
            // A read-only or full home: the driver extracts its library to a temporary file, as without this.
        }
    }

    /**
     * The kept library is checked by size and CRC-32 only, which someone who can write where it lies can match: Assay
     * loads it only from directories nobody else may write. {@return whether {@code directory} (the cache, whose mode
     * is its owner's) and every directory from there to {@code libraryDirectory} (Assay's own, made owner-only here,
     * also when an older Assay made them under a permissive umask) are this user's and written by no one else}
     */
    private static boolean privateDirectories(Path directory, Path libraryDirectory) throws IOException {
        OwnerOnly.createDirectories(libraryDirectory);
        if (!OwnerOnly.noOneElseWrites(directory.toAbsolutePath())) {
            return false;
        }
        Path cache = directory.toAbsolutePath();
        for (Path dir = libraryDirectory.toAbsolutePath(); !dir.equals(cache); dir = dir.getParent()) {
            if (!OwnerOnly.makePrivate(dir)) {
                return false;
            }
        }
        return true;
    }

    /**
     * {@return the driver's folder of this platform's library ({@code Linux/x86_64})}, remembered in {@code directory}:
     * to name it, the driver starts {@code uname -o} (Termux on Android says Android there), which took 20-30 ms of a
     * short command's start. It is remembered by operating system, architecture and C library, what tells apart the
     * machines that may share a home (a musl container beside its glibc host); a remembered name that is not a folder
     * name is asked for again.
     */
    private static String platformFolder(Path directory) throws IOException {
        String platform =
                System.getProperty("os.name") + "-" + System.getProperty("os.arch") + (OSInfo.isMusl() ? "-musl" : "");
        Path remembered = directory.resolve(FileNames.safe(platform) + ".folder");
        if (Files.isRegularFile(remembered)) {
            String folder = Files.readString(remembered, StandardCharsets.UTF_8).strip();
            if (FOLDER.matcher(folder).matches()) {
                return folder;
            }
        }
        String folder = OSInfo.getNativeLibFolderPathForCurrentOS();
        WholeFiles.write(remembered, out -> out.write(folder.getBytes(StandardCharsets.UTF_8)));
        return folder;
    }

    private static final Pattern FOLDER = Pattern.compile("[A-Za-z0-9_-]+/[A-Za-z0-9_-]+");

    /** {@return whether the kept file has the entry's size and, when known (not -1), its CRC-32} */
    private static boolean matches(Path kept, long size, long crc) throws IOException {
        if (!Files.isRegularFile(kept) || Files.size(kept) != size) {
            return false;
        }
        if (crc == -1) {
            return true;
        }
        var checksum = new CRC32();
        try (var in = new CheckedInputStream(Files.newInputStream(kept), checksum)) {
            in.transferTo(OutputStream.nullOutputStream());
        }
        return checksum.getValue() == crc;
    }
}
