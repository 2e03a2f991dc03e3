package dev.assay.store;

import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.net.URLConnection;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

/**
 * SQLite's native library, kept extracted in a directory of the user's. At every start sqlite-jdbc writes its library
 * out of its jar into a new temporary file and reads both back to compare them: about 90 ms of CPU, most of it
 * inflating the library twice, on the way to a short command's first query. Given a directory, the library is extracted
 * there once per driver version and platform, and the driver loads it from there ({@code org.sqlite.lib.path}); where
 * that cannot be done, or the user set the path, the driver does as it always did. Thread-safe.
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
            String folder = OSInfo.getNativeLibFolderPathForCurrentOS();
            String name = System.mapLibraryName("sqlitejdbc");
            URL library = SQLiteJDBCLoader.class.getResource("/org/sqlite/native/" + folder + "/" + name);
            if (library == null) {
                return;
            }
            Path kept = directory
                    .resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion())
                    .resolve(folder)
                    .resolve(name);
            URLConnection entry = library.openConnection();
            if (!Files.isRegularFile(kept) || Files.size(kept) != entry.getContentLengthLong()) {
                extract(entry, kept);
            }
            System.setProperty(PATH_PROPERTY, kept.getParent().toString());
            System.setProperty(NAME_PROPERTY, name);
        } catch (IOException | RuntimeException cannotKeep) {
            // A read-only or full home: the driver extracts its library to a temporary file, as without this.
        }
    }

    /** Written beside its place and moved there whole: a process that starts meanwhile never loads half a library. */
    private static void extract(URLConnection entry, Path kept) throws IOException {
        Files.createDirectories(kept.getParent());
        Path partial = Files.createTempFile(kept.getParent(), kept.getFileName().toString(), ".partial");
        try (InputStream in = entry.getInputStream()) {
            Files.copy(in, partial, StandardCopyOption.REPLACE_EXISTING);
            Files.move(partial, kept, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
        } finally {
            Files.deleteIfExists(partial);
        }
    }
}
