package dev.assay.store.internal;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;
import dev.assay.store.Store;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.sql.DataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The writer's held connection: kept with its statements, replaced after a failure, lent out to nobody else. */
class HeldWriterTest {
    private static final String INSERT = "INSERT INTO notes (text) VALUES (?)";

    @TempDir
    Path directory;

    private HikariDataSource pool;
    private final AtomicInteger borrowed = new AtomicInteger();
    private final AtomicInteger prepared = new AtomicInteger();

    @BeforeEach
    void open() throws SQLException {
        var config = new HikariConfig();
        config.setJdbcUrl("jdbc:sqlite:" + directory.resolve("notes.db"));
        config.setMaximumPoolSize(3);
        pool = new HikariDataSource(config);
        try (Connection connection = pool.getConnection();
                var statement = connection.createStatement()) {
            statement.execute("PRAGMA journal_mode=WAL");
            statement.execute("CREATE TABLE notes (text TEXT NOT NULL)");
        }
    }

    @AfterEach
    void close() {
        pool.close();
    }

    @Test
    void writes_share_one_connection_and_its_prepared_statement() throws SQLException {
        try (var writer = new HeldWriter(counting(pool), true)) {
            writeNotes(writer, 5);
        }
        assertThat(notes()).hasSize(5);
        assertThat(borrowed).hasValue(1);
        assertThat(prepared).hasValue(1);
    }

    @Test
    void a_writer_that_does_not_hold_borrows_a_connection_for_each_write() throws SQLException {
        try (var writer = new HeldWriter(counting(pool), false)) {
            writeNotes(writer, 3);
            assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
        }
        assertThat(notes()).hasSize(3);
        assertThat(borrowed).hasValue(3);
    }

    @Test
    void a_failed_write_is_rolled_back_and_the_next_takes_a_new_connection() throws SQLException {
        try (var writer = new HeldWriter(counting(pool), true)) {
            writer.inTransaction(statements -> insert(statements, "first"));
            assertThatThrownBy(() -> writer.inTransaction(statements -> {
                        insert(statements, "rolled back");
                        insert(statements, null);
                    }))
                    .isInstanceOf(SQLException.class)
                    .hasMessageContaining("NOT NULL");
            writer.inTransaction(statements -> insert(statements, "after"));
        }
        assertThat(notes()).containsExactly("first", "after");
        assertThat(borrowed).hasValue(2);
    }

    @Test
    void rows_a_failed_write_left_in_a_batch_are_never_committed() throws SQLException {
        try (var writer = new HeldWriter(counting(pool), true)) {
            assertThatThrownBy(() -> writer.inTransaction(statements -> {
                        PreparedStatement insert = statements.prepared(INSERT);
                        insert.setString(1, "left in the batch");
                        insert.addBatch();
                        throw new IllegalStateException("a bug while binding the next row");
                    }))
                    .isInstanceOf(IllegalStateException.class);
            writer.inTransaction(statements -> {
                PreparedStatement insert = statements.prepared(INSERT);
                insert.setString(1, "next");
                insert.addBatch();
                insert.executeBatch();
            });
        }
        assertThat(notes()).containsExactly("next");
    }

    @Test
    void a_write_that_finds_the_held_connection_in_use_borrows_one_from_the_pool() throws Exception {
        var inside = new CountDownLatch(1);
        var release = new CountDownLatch(1);
        try (var writer = new HeldWriter(counting(pool), true)) {
            Thread holder = Thread.ofVirtual().start(() -> {
                try {
                    writer.inTransaction(statements -> {
                        inside.countDown();
                        await(release);
                        insert(statements, "held");
                    });
                } catch (SQLException e) {
                    throw new IllegalStateException(e);
                }
            });
            assertThat(inside.await(10, TimeUnit.SECONDS)).isTrue();
            writer.inTransaction(statements -> insert(statements, "borrowed"));
            assertThat(notes()).containsExactly("borrowed");
            release.countDown();
            holder.join();
        }
        assertThat(notes()).containsExactlyInAnyOrder("borrowed", "held");
        assertThat(borrowed).hasValue(2);
        assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
    }

    @Test
    void closing_gives_the_connection_back_and_later_writes_borrow_one() throws SQLException {
        var writer = new HeldWriter(counting(pool), true);
        writer.inTransaction(statements -> insert(statements, "held"));
        assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isOne();
        writer.close();
        assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
        writer.inTransaction(statements -> insert(statements, "after close"));
        assertThat(pool.getHikariPoolMXBean().getActiveConnections()).isZero();
        assertThat(notes()).containsExactly("held", "after close");
    }

    private static void writeNotes(HeldWriter writer, int count) throws SQLException {
        for (int i = 0; i < count; i++) {
            String text = "note " + i;
            writer.inTransaction(statements -> insert(statements, text));
        }
    }

    private static void insert(Store.Statements statements, String text) throws SQLException {
        PreparedStatement insert = statements.prepared(INSERT);
        insert.setString(1, text);
        insert.executeUpdate();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }

    private List<String> notes() throws SQLException {
        try (Connection connection = pool.getConnection();
                var rows = connection.createStatement().executeQuery("SELECT text FROM notes ORDER BY rowid")) {
            var notes = new ArrayList<String>();
            while (rows.next()) {
                notes.add(rows.getString(1));
            }
            return notes;
        }
    }

    /** The pool, counting the connections borrowed from it and the statements prepared on them. */
    private DataSource counting(DataSource delegate) {
        return (DataSource) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {DataSource.class}, (proxy, method, arguments) -> {
                    Object result = invoke(delegate, method, arguments);
                    if (method.getName().equals("getConnection")) {
                        borrowed.incrementAndGet();
                        return countingPrepares((Connection) result);
                    }
                    return result;
                });
    }

    private Connection countingPrepares(Connection delegate) {
        return (Connection) Proxy.newProxyInstance(
                getClass().getClassLoader(), new Class<?>[] {Connection.class}, (proxy, method, arguments) -> {
                    if (method.getName().equals("prepareStatement")) {
                        prepared.incrementAndGet();
                    }
                    return invoke(delegate, method, arguments);
                });
    }

    private static Object invoke(Object target, Method method, Object[] arguments) throws Throwable {
        try {
            return method.invoke(target, arguments);
        } catch (InvocationTargetException e) {
            throw e.getCause();
        }
    }
}
