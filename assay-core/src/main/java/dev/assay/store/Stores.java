package dev.assay.store;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.assay.AssayException;
import dev.assay.Plugins;
import dev.assay.Problem;
import dev.assay.store.internal.JdbiStore;
import dev.assay.store.internal.SqliteDialect;
import java.nio.file.Path;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.flywaydb.core.Flyway;

/**
 * Opens stores. The one place that turns a JDBC URL into a migrated, ready {@link Store}, in the {@link StoreDialect}
 * the URL's scheme names: SQLite's is built in, others are plug-ins (PostgreSQL's is in assay-postgres). Thread-safe.
 */
public final class Stores {
    private static final Pattern USER_INFO = Pattern.compile("//([^/@?#]*)@");
    private static final Pattern SCHEME = Pattern.compile("jdbc:([A-Za-z0-9]+):.*", Pattern.DOTALL);
    static final String HISTORY_TABLE = "assay_schema_history";

    private static final Plugins<StoreDialect> DIALECTS =
            Plugins.load(StoreDialect.class, "database", StoreDialect::scheme, List.of(new SqliteDialect()));

    /** Assay's modules that bring a dialect, by scheme: a URL of one of these schemes names the module it needs. */
    private static final Map<String, String> MODULES = Map.of("postgresql", "assay-postgres");

    private Stores() {}

    /** {@return the default database of an Assay home directory: {@code jdbc:sqlite:<home>/assay.db}} */
    public static String defaultUrl(Path assayHome) {
        return "jdbc:sqlite:" + assayHome.toAbsolutePath().normalize().resolve("assay.db");
    }

    /**
     * Opens a store and brings its schema up to date with Flyway, unless it is already ({@link SchemaHistory}).
     *
     * @param jdbcUrl {@code jdbc:sqlite:<path>} (parent directories are created), or a URL of a dialect on the class
     *     path: {@code jdbc:postgresql://...} with assay-postgres
     * @return the store; close it to release its connections
     * @throws AssayException {@code store.unsupported_url} for any other URL, {@code plugin.unknown} (with the detail
     *     {@code module}) for a URL of an Assay module that is not on the class path, {@code store.unavailable} when
     *     the database cannot be reached, {@code store.migration_failed} when its schema cannot be migrated; messages
     *     never contain passwords
     */
    public static Store open(String jdbcUrl) {
        StoreDialect dialect = dialect(jdbcUrl);
        dialect.prepare(jdbcUrl);
        HikariDataSource dataSource = connect(jdbcUrl, dialect);
        try {
            // A schema already current is opened as it is: one query instead of Flyway, whose start was half of
            // opening a store. Any other is Flyway's: our own history table, baselined below V1, so Assay can share
            // a PostgreSQL schema with an application that keeps its own flyway_schema_history. The dialect's class
            // loader finds its migrations and Flyway's support for its database, both in the dialect's module.
            // Processes opening a new database at once take turns (the dialect's), and whoever waited looks again.
            if (!SchemaHistory.isCurrent(dataSource, dialect)) {
                dialect.migrateInTurn(jdbcUrl, dataSource, () -> {
                    if (!SchemaHistory.isCurrent(dataSource, dialect)) {
                        Flyway.configure(dialect.getClass().getClassLoader())
                                .dataSource(dataSource)
                                .locations(dialect.migrationLocation())
                                .table(HISTORY_TABLE)
                                .baselineOnMigrate(true)
                                .baselineVersion("0")
                                .load()
                                .migrate();
                    }
                });
            }
        } catch (SQLException | RuntimeException e) {
            dataSource.close();
            throw new AssayException(new Problem(
                    "store.migration_failed",
                    "cannot migrate the database schema at " + redact(jdbcUrl) + ": " + scrub(e.getMessage(), jdbcUrl),
                    Map.of("url", redact(jdbcUrl))));
        }
        return new JdbiStore(dataSource, dialect);
    }

    /** {@return the dialect the URL's scheme names} */
    private static StoreDialect dialect(String jdbcUrl) {
        Matcher scheme = SCHEME.matcher(jdbcUrl == null ? "" : jdbcUrl);
        if (!scheme.matches()) {
            throw unsupportedUrl(String.valueOf(jdbcUrl));
        }
        Optional<StoreDialect> dialect = DIALECTS.find(scheme.group(1));
        if (dialect.isPresent()) {
            return dialect.get();
        }
        String module = MODULES.get(scheme.group(1));
        if (module == null) {
            throw unsupportedUrl(jdbcUrl);
        }
        throw new AssayException(Problem.of(
                        "plugin.unknown",
                        "the database " + redact(jdbcUrl) + " needs the module " + module + " on the class path (the "
                                + "command line and the server bundle it); known databases: "
                                + String.join(", ", DIALECTS.names()))
                .withDetail("module", module));
    }

    /** {@return the URL forms of the dialects on the class path, for messages} */
    static String accepted() {
        return DIALECTS.all().stream().map(StoreDialect::urlForm).collect(Collectors.joining(" or "));
    }

    /**
     * {@return the problem {@code store.unsupported_url} for a URL no dialect opens}, naming the accepted forms (detail
     * {@code accepted}); for a dialect's {@link StoreDialect#prepare} to refuse a URL of its scheme
     */
    public static AssayException unsupportedUrl(String jdbcUrl) {
        return unsupported("unsupported database URL " + redact(jdbcUrl));
    }

    public static AssayException unsupported(String reason) {
        return new AssayException(
                new Problem("store.unsupported_url", reason + "; use " + accepted(), Map.of("accepted", accepted())));
    }

    private static HikariDataSource connect(String jdbcUrl, StoreDialect dialect) {
        var config = new HikariConfig();
        config.setJdbcUrl(jdbcUrl);
        config.setDataSourceProperties(dialect.connectionProperties());
        config.setMaximumPoolSize(dialect.maxPoolSize());
        config.setMinimumIdle(1);
        // One attempt's wait for a connection; the engine retries writes through longer outages (StoreWrites), so
        // this only bounds how late an outage is noticed. SQLite's busy timeout is the same 5 s.
        config.setConnectionTimeout(5_000);
        config.setPoolName("assay-store");
        try {
            return new HikariDataSource(config);
        } catch (RuntimeException e) {
            // Hikari fails fast when the first connection cannot be made (initializationFailTimeout = 1). The
            // cause is not chained: drivers echo parts of the URL (pgjdbc names "user:password@host" as the host).
            Throwable root = e;
            while (root.getCause() != null && root.getCause() != root) {
                root = root.getCause();
            }
            throw new AssayException(new Problem(
                    "store.unavailable",
                    "cannot connect to the database at " + redact(jdbcUrl) + ": " + scrub(root.toString(), jdbcUrl),
                    Map.of("url", redact(jdbcUrl))));
        }
    }

    /**
     * {@return the URL without user-info and without query parameters whose name contains "password"} (pgjdbc reads
     * both {@code password} and {@code sslpassword} from the URL).
     */
    public static String redact(String jdbcUrl) {
        String url = USER_INFO.matcher(jdbcUrl).replaceFirst("//");
        int query = url.indexOf('?');
        if (query < 0) {
            return url;
        }
        String kept = Arrays.stream(url.substring(query + 1).split("&"))
                .filter(parameter -> !isPasswordKey(parameter.split("=", 2)[0]))
                .collect(Collectors.joining("&"));
        return kept.isEmpty() ? url.substring(0, query) : url.substring(0, query + 1) + kept;
    }

    /** {@return the text with the URL redacted and every secret the URL carries masked} */
    static String scrub(String text, String jdbcUrl) {
        if (text == null) {
            return "";
        }
        String scrubbed = text.replace(jdbcUrl, redact(jdbcUrl));
        for (String secret : secrets(jdbcUrl)) {
            scrubbed = scrubbed.replace(secret, "***");
        }
        return scrubbed;
    }

    private static List<String> secrets(String jdbcUrl) {
        var secrets = new ArrayList<String>();
        Matcher userInfo = USER_INFO.matcher(jdbcUrl);
        if (userInfo.find()) {
            secrets.add(userInfo.group(1));
        }
        int query = jdbcUrl.indexOf('?');
        if (query >= 0) {
            for (String parameter : jdbcUrl.substring(query + 1).split("&")) {
                String[] pair = parameter.split("=", 2);
                if (pair.length == 2 && isPasswordKey(pair[0]) && !pair[1].isEmpty()) {
                    secrets.add(pair[1]);
                }
            }
        }
        return secrets;
    }

    private static boolean isPasswordKey(String key) {
        return key.toLowerCase(Locale.ROOT).contains("password");
    }
}
