package dev.assay.store;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import java.util.zip.CRC32;
import javax.sql.DataSource;

/**
 * Whether a database's schema is already what its dialect's migrations make it, read with one query, so that opening a
 * store at the current version need not start Flyway (its configuration, scan and validation were half of opening a
 * store). Current means what Flyway's migrate would leave untouched and accept: every migration shipped is recorded as
 * applied, with its script's name and Flyway's checksum of its text, and nothing else is recorded but a baseline.
 * Anything else (a new database, one behind or ahead of the code, a failed or edited migration, a location this cannot
 * list) is left to Flyway, which migrates, or refuses, as it always has.
 */
final class SchemaHistory {
    /** A versioned SQL migration, the only kind Assay ships: {@code V<n>__<description>.sql}. */
    private static final Pattern MIGRATION = Pattern.compile("V(\\d+)__[^/]+\\.sql");

    private SchemaHistory() {}

    /** A shipped migration: its script's name and Flyway's checksum of it. */
    private record Script(String name, int checksum) {}

    /** A row of the history: the version applied, by which script, its checksum then, and whether it succeeded. */
    private record Applied(String type, String version, String script, Integer checksum, boolean success) {}

    /** {@return whether the schema behind {@code dataSource} holds exactly the dialect's migrations, all applied} */
    static boolean isCurrent(DataSource dataSource, StoreDialect dialect) {
        // The history first: a new database has none, and then the migrations need not be read here.
        Map<Long, Applied> applied = applied(dataSource);
        if (applied.isEmpty()) {
            return false;
        }
        Map<Long, Script> shipped;
        try {
            shipped = shipped(dialect);
        } catch (IOException | URISyntaxException | RuntimeException e) {
            // What cannot be listed here is Flyway's to read (and to report, when it cannot either).
            return false;
        }
        return applied.keySet().equals(shipped.keySet())
                && shipped.entrySet().stream().allMatch(migration -> {
                    Applied row = applied.get(migration.getKey());
                    return row.script().equals(migration.getValue().name())
                            && Integer.valueOf(migration.getValue().checksum()).equals(row.checksum());
                });
    }

    /**
     * {@return the versioned migrations the history records as applied, by version}; empty when there is no history, or
     * when it records anything but those and a baseline (a failure, another kind of migration), which is Flyway's
     */
    private static Map<Long, Applied> applied(DataSource dataSource) {
        try (Connection connection = dataSource.getConnection();
                Statement statement = connection.createStatement();
                ResultSet rows = statement.executeQuery(
                        "SELECT type, version, script, checksum, success FROM " + Stores.HISTORY_TABLE)) {
            var applied = new HashMap<Long, Applied>();
            while (rows.next()) {
                int checksum = rows.getInt("checksum");
                Integer recorded = rows.wasNull() ? null : checksum;
                var row = new Applied(
                        rows.getString("type"),
                        rows.getString("version"),
                        rows.getString("script"),
                        recorded,
                        rows.getBoolean("success"));
                if (!row.success()) {
                    return Map.of();
                }
                if (row.type().equals("BASELINE")) {
                    continue;
                }
                if (!row.type().equals("SQL")
                        || row.version() == null
                        || !row.version().matches("\\d{1,18}")) {
                    return Map.of();
                }
                if (applied.put(Long.parseLong(row.version()), row) != null) {
                    return Map.of();
                }
            }
            return applied;
        } catch (SQLException e) {
            // No history table yet (a new database), or one this query cannot read.
            return Map.of();
        }
    }

    /** {@return the versioned migrations at the dialect's location, by version; empty when it holds anything else} */
    private static Map<Long, Script> shipped(StoreDialect dialect) throws IOException, URISyntaxException {
        String location = dialect.migrationLocation();
        if (!location.startsWith("classpath:")) {
            return Map.of();
        }
        String folder = location.substring("classpath:".length()).replaceAll("^/+|/+$", "");
        ClassLoader loader = dialect.getClass().getClassLoader();
        var names = new TreeSet<String>();
        for (URL url : Collections.list(loader.getResources(folder))) {
            names.addAll(namesIn(url, folder));
        }
        var shipped = new HashMap<Long, Script>();
        for (String name : names) {
            Matcher migration = MIGRATION.matcher(name);
            if (!migration.matches() || migration.group(1).length() > 18) {
                return Map.of();
            }
            try (InputStream in = loader.getResourceAsStream(folder + "/" + name)) {
                if (in == null
                        || shipped.put(Long.parseLong(migration.group(1)), new Script(name, checksum(in))) != null) {
                    return Map.of();
                }
            }
        }
        return shipped;
    }

    /** {@return the names of the files directly in a class path folder, in a directory or a jar} */
    private static List<String> namesIn(URL url, String folder) throws IOException, URISyntaxException {
        switch (url.getProtocol()) {
            case "file" -> {
                try (Stream<Path> files = Files.list(Path.of(url.toURI()))) {
                    return files.filter(Files::isRegularFile)
                            .map(file -> file.getFileName().toString())
                            .toList();
                }
            }
            case "jar" -> {
                var connection = (JarURLConnection) url.openConnection();
                // A jar of our own to close, not the one the URL cache shares.
                connection.setUseCaches(false);
                String prefix = folder + "/";
                try (JarFile jar = connection.getJarFile()) {
                    return jar.stream()
                            .map(JarEntry::getName)
                            .filter(name -> name.startsWith(prefix)
                                    && name.length() > prefix.length()
                                    && name.indexOf('/', prefix.length()) < 0)
                            .map(name -> name.substring(prefix.length()))
                            .toList();
                }
            }
            default -> throw new IOException("cannot list " + url);
        }
    }

    /**
     * {@return Flyway's checksum of a script}: the CRC-32 of its lines in UTF-8 without their line ends, a byte order
     * mark removed (Flyway's {@code ChecksumCalculator}, which recorded it in the history)
     */
    static int checksum(InputStream script) throws IOException {
        var crc = new CRC32();
        try (var reader = new BufferedReader(new InputStreamReader(script, StandardCharsets.UTF_8), 4096)) {
            String line = reader.readLine();
            if (line != null && line.startsWith("\uFEFF")) {
                line = line.substring(1);
            }
            while (line != null) {
                crc.update(line.getBytes(StandardCharsets.UTF_8));
                line = reader.readLine();
            }
        }
        return (int) crc.getValue();
    }
}
