package dev.assay.store;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileTime;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Instant;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.sqlite.SQLiteJDBCLoader;
import org.sqlite.util.OSInfo;

class SqliteLibraryTest {
    private static final String PATH = "org.sqlite.lib.path";
    private static final String NAME = "org.sqlite.lib.name";

    @TempDir
    Path cache;

    private String pathBefore;
    private String nameBefore;

    @BeforeEach
    void clearProperties() {
        // Process-wide: this JVM's driver has loaded its library already, so only the properties are at stake.
        pathBefore = System.clearProperty(PATH);
        nameBefore = System.clearProperty(NAME);
    }

    @AfterEach
    void restoreProperties() {
        restore(PATH, pathBefore);
        restore(NAME, nameBefore);
    }

    private static void restore(String property, String value) {
        if (value == null) {
            System.clearProperty(property);
        } else {
            System.setProperty(property, value);
        }
    }

    private Path driverDirectory() {
        return cache.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion());
    }

    private Path expected() {
        return driverDirectory()
                .resolve(OSInfo.getNativeLibFolderPathForCurrentOS())
                .resolve(System.mapLibraryName("sqlitejdbc"));
    }

    /** Keeps the library as a later process does: one that has not pointed the driver anywhere yet. */
    private void keepInALaterProcess() {
        System.clearProperty(PATH);
        SqliteLibrary.keepIn(cache);
    }

    private static long jarSize() throws IOException {
        return SQLiteJDBCLoader.class
                .getResource("/org/sqlite/native/" + OSInfo.getNativeLibFolderPathForCurrentOS() + "/"
                        + System.mapLibraryName("sqlitejdbc"))
                .openConnection()
                .getContentLengthLong();
    }

    private static String mode(Path path) throws IOException {
        return PosixFilePermissions.toString(Files.getPosixFilePermissions(path));
    }

    @Test
    void directories_an_older_assay_left_writable_by_anyone_are_made_owner_only_before_the_library_is_kept()
            throws IOException {
        // What Files.createDirectories made under umask 000.
        Path folder = Files.createDirectories(expected().getParent());
        for (Path dir = folder; !dir.equals(cache); dir = dir.getParent()) {
            Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxrwxrwx"));
        }

        SqliteLibrary.keepIn(cache);

        assertThat(System.getProperty(PATH)).isEqualTo(folder.toString());
        for (Path dir = folder; !dir.equals(cache); dir = dir.getParent()) {
            assertThat(mode(dir)).as(dir.toString()).isEqualTo("rwx------");
        }
        assertThat(mode(expected())).isEqualTo("rw-------");
    }

    @Test
    void a_new_cache_is_owner_only() throws IOException {
        Path fresh = cache.resolve("home/cache");

        SqliteLibrary.keepIn(fresh);

        assertThat(System.getProperty(PATH)).startsWith(fresh.toString());
        assertThat(mode(fresh)).isEqualTo("rwx------");
        assertThat(mode(fresh.resolve("sqlite-jdbc-" + SQLiteJDBCLoader.getVersion())))
                .isEqualTo("rwx------");
    }

    @Test
    void a_cache_anyone_may_write_is_not_used_to_load_the_library() throws IOException {
        Files.setPosixFilePermissions(cache, PosixFilePermissions.fromString("rwxrwxrwx"));

        SqliteLibrary.keepIn(cache);

        assertThat(System.getProperty(PATH))
                .as("the driver extracts its library as it always did")
                .isNull();
        assertThat(expected()).doesNotExist();
    }

    @Test
    void the_library_is_extracted_once_and_the_driver_pointed_at_it() throws IOException {
        SqliteLibrary.keepIn(cache);

        Path library = expected();
        assertThat(library).isRegularFile();
        assertThat(Files.size(library)).isEqualTo(jarSize());
        assertThat(System.getProperty(PATH)).isEqualTo(library.getParent().toString());
        assertThat(System.getProperty(NAME)).isEqualTo(library.getFileName().toString());
        try (var files = Files.list(library.getParent())) {
            assertThat(files).as("no partial file is left").containsExactly(library);
        }

        // A later process finds it whole and leaves it as it is.
        FileTime marked = FileTime.from(Instant.parse("2020-01-01T00:00:00Z"));
        Files.setLastModifiedTime(library, marked);
        keepInALaterProcess();
        assertThat(Files.getLastModifiedTime(library)).isEqualTo(marked);
    }

    @Test
    void a_library_cut_short_is_extracted_again() throws IOException {
        Path library = expected();
        Files.createDirectories(library.getParent());
        Files.write(library, new byte[] {1, 2, 3});

        SqliteLibrary.keepIn(cache);

        assertThat(Files.size(library)).isEqualTo(jarSize());
    }

    @Test
    void a_library_of_the_right_size_but_other_bytes_is_extracted_again() throws IOException {
        SqliteLibrary.keepIn(cache);
        Path library = expected();
        byte[] bytes = Files.readAllBytes(library);
        byte[] zeroed = new byte[bytes.length];
        Files.write(library, zeroed);

        keepInALaterProcess();

        assertThat(Files.readAllBytes(library)).isEqualTo(bytes);
    }

    @Test
    void the_platform_is_named_by_the_driver_once_and_then_remembered() throws IOException {
        SqliteLibrary.keepIn(cache);
        Path remembered;
        try (var files = Files.list(driverDirectory())) {
            remembered = files.filter(file -> file.toString().endsWith(".folder"))
                    .findFirst()
                    .orElseThrow();
        }
        assertThat(remembered).content().isEqualTo(OSInfo.getNativeLibFolderPathForCurrentOS());

        // What it remembers is what the next start uses; a name that is no folder's is asked for again.
        Files.writeString(remembered, "../../elsewhere");
        keepInALaterProcess();
        assertThat(System.getProperty(PATH)).isEqualTo(expected().getParent().toString());
        assertThat(remembered).content().isEqualTo(OSInfo.getNativeLibFolderPathForCurrentOS());
    }

    @Test
    void a_path_the_user_set_is_left_to_the_driver() {
        System.setProperty(PATH, "/opt/sqlite");

        SqliteLibrary.keepIn(cache);

        assertThat(System.getProperty(PATH)).isEqualTo("/opt/sqlite");
        assertThat(cache).isEmptyDirectory();
    }
}
