package dev.assay.queue;

import dev.assay.AssayException;
import dev.assay.Problem;
import java.sql.Array;
import java.sql.Connection;
import java.sql.SQLException;
import java.time.Duration;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;
import javax.sql.DataSource;

/**
 * The per-endpoint concurrency limit, shared by every worker on the database: an endpoint with limit {@code n} has
 * {@code n} slots, rows of the table {@code endpoint_slots}, and a case runs only while its worker holds one. A worker
 * holds a slot as a lease ({@link #renew}, at each heartbeat), so a worker that dies (kill -9, a lost node) frees its
 * slots when their lease lapses. Runs with different limits on one endpoint share its slots from 0 up, so the endpoint
 * gets at most the largest of their limits at once.
 *
 * <p>The database is asked in batches, not once per case: the cases of an endpoint waiting here are served by one query
 * that claims as many free slots as there are waiters ({@code FOR UPDATE SKIP LOCKED}); a slot a case frees goes
 * straight to a case waiting here for the same endpoint, or to the next case, and is freed by {@link #flush}, with all
 * others no case used for a while, in one statement. Thread-safe.
 */
final class EndpointSlots {
    /** How long a case waits, on average, before its worker asks again for a slot when all were taken. */
    private static final Duration RETRY = Duration.ofMillis(50);

    private final DataSource dataSource;
    private final String holder;
    private final Duration lease;
    private final Map<String, Endpoint> endpoints = new HashMap<>();

    /**
     * @param dataSource connections to claim and free slots with, each only for a statement
     * @param holder the worker's name, unique among the workers of the database
     * @param lease how long a slot stays held without being renewed
     */
    EndpointSlots(DataSource dataSource, String holder, Duration lease) {
        this.dataSource = dataSource;
        this.holder = holder;
        this.lease = lease;
    }

    /** What this worker holds of an endpoint; guarded by itself. */
    private static final class Endpoint {
        /**
         * Slots held but not in use, the last freed first: handed to the next case, or freed by a flush once idle for a
         * flush period.
         */
        final ArrayDeque<Idle> idle = new ArrayDeque<>();

        /** The limits of the cases waiting for a slot, one entry per case. */
        final List<Integer> waiting = new ArrayList<>();

        /** Whether a case is asking the database for slots for all of them. */
        boolean claiming;

        /** Slots whose rows exist up to (the limits already seen). */
        int rows;
    }

    /** A slot held but not in use since {@code since} ({@link System#nanoTime()}). */
    private record Idle(int number, long since) {}

    /** A slot held; closing it frees it. */
    final class Slot implements AutoCloseable {
        private final String endpoint;
        private final int number;

        private Slot(String endpoint, int number) {
            this.endpoint = endpoint;
            this.number = number;
        }

        /** {@return its number, from 0} */
        int number() {
            return number;
        }

        @Override
        public void close() {
            Endpoint held = endpoint(endpoint);
            synchronized (held) {
                held.idle.push(new Idle(number, System.nanoTime()));
                held.notifyAll();
            }
        }
    }

    /**
     * Waits for a free slot of the endpoint and takes it.
     *
     * @param endpoint the endpoint's name ({@code host:port})
     * @param limit its slots, >= 1
     * @param stop whether to stop waiting
     * @return the slot, or null when {@code stop} said so first
     * @throws AssayException {@code store.unavailable} when the database cannot be reached
     */
    Slot acquire(String endpoint, int limit, BooleanSupplier stop) throws InterruptedException {
        Endpoint held = endpoint(endpoint);
        Integer me = limit;
        synchronized (held) {
            held.waiting.add(me);
        }
        try {
            while (!stop.getAsBoolean()) {
                int rows;
                int wanted;
                int widest;
                synchronized (held) {
                    Integer slot = take(held, limit);
                    if (slot != null) {
                        return new Slot(endpoint, slot);
                    }
                    if (held.claiming) {
                        // Another case of this endpoint is asking the database for every waiting case.
                        held.wait(RETRY.toMillis());
                        continue;
                    }
                    held.claiming = true;
                    rows = held.rows;
                    wanted = held.waiting.size();
                    widest = held.waiting.stream()
                            .mapToInt(Integer::intValue)
                            .max()
                            .orElse(limit);
                }
                List<Integer> claimed = List.of();
                boolean asked = false;
                try {
                    claimed = claim(endpoint, rows, widest, wanted);
                    asked = true;
                } finally {
                    synchronized (held) {
                        held.claiming = false;
                        if (asked) {
                            // Its rows exist now; the slots are handed out before the other waiters wake.
                            held.rows = Math.max(held.rows, widest);
                            long now = System.nanoTime();
                            claimed.forEach(number -> held.idle.add(new Idle(number, now)));
                        }
                        held.notifyAll();
                    }
                }
                synchronized (held) {
                    Integer slot = take(held, limit);
                    if (slot != null) {
                        return new Slot(endpoint, slot);
                    }
                    if (claimed.isEmpty()) {
                        held.wait(RETRY.toMillis() / 2
                                + ThreadLocalRandom.current().nextLong(RETRY.toMillis()));
                    }
                }
            }
            return null;
        } finally {
            synchronized (held) {
                held.waiting.remove(me);
            }
        }
    }

    /**
     * Frees, in one statement, the slots held here that no case used for {@code idleFor}: those a worker that keeps
     * running cases reuses stay held, since freeing them made each of its threads claim one again, one statement per
     * case.
     *
     * @throws AssayException {@code store.unavailable} when the database cannot be reached; the slots stay held, and
     *     their lease lapses if it stays away
     */
    void flush(Duration idleFor) {
        long before = System.nanoTime() - idleFor.toNanos();
        Map<String, List<Integer>> free = new HashMap<>();
        synchronized (endpoints) {
            for (Map.Entry<String, Endpoint> entry : endpoints.entrySet()) {
                Endpoint held = entry.getValue();
                synchronized (held) {
                    var unused = new ArrayList<Integer>();
                    held.idle.removeIf(slot -> slot.since() - before < 0 && unused.add(slot.number()));
                    if (!unused.isEmpty()) {
                        free.put(entry.getKey(), unused);
                    }
                }
            }
        }
        if (free.isEmpty()) {
            return;
        }
        var endpointNames = new ArrayList<String>();
        var slots = new ArrayList<Integer>();
        free.forEach((endpoint, numbers) -> numbers.forEach(number -> {
            endpointNames.add(endpoint);
            slots.add(number);
        }));
        try (Connection connection = connection();
                var update = connection.prepareStatement("UPDATE endpoint_slots s SET holder = NULL, expires = NULL"
                        + " FROM unnest(?::text[], ?::int[]) AS f(endpoint, slot)"
                        + " WHERE s.endpoint = f.endpoint AND s.slot = f.slot AND s.holder = ?")) {
            Array names = connection.createArrayOf("text", endpointNames.toArray());
            Array numbers = connection.createArrayOf("integer", slots.toArray());
            update.setArray(1, names);
            update.setArray(2, numbers);
            update.setString(3, holder);
            update.executeUpdate();
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    /** Extends the lease of every slot this worker holds, in one statement. */
    void renew() {
        try (Connection connection = connection();
                var update = connection.prepareStatement(
                        "UPDATE endpoint_slots SET expires = now() + ? * interval '1 millisecond' WHERE holder = ?")) {
            update.setLong(1, lease.toMillis());
            update.setString(2, holder);
            update.executeUpdate();
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    /** Frees every slot this worker holds, in one statement: the worker stops. */
    void releaseAll() {
        synchronized (endpoints) {
            endpoints.clear();
        }
        try (Connection connection = connection();
                var update = connection.prepareStatement(
                        "UPDATE endpoint_slots SET holder = NULL, expires = NULL WHERE holder = ?")) {
            update.setString(1, holder);
            update.executeUpdate();
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    private Endpoint endpoint(String endpoint) {
        synchronized (endpoints) {
            return endpoints.computeIfAbsent(endpoint, key -> new Endpoint());
        }
    }

    /** {@return an idle slot below {@code limit}, taken out of the idle ones, or null}; called holding {@code held} */
    private static Integer take(Endpoint held, int limit) {
        for (var slots = held.idle.iterator(); slots.hasNext(); ) {
            Idle slot = slots.next();
            if (slot.number() < limit) {
                slots.remove();
                return slot.number();
            }
        }
        return null;
    }

    /**
     * {@return up to {@code wanted} free slots below {@code limit}, now held by this worker}: one statement, and one
     * more the first time a limit wider than {@code rows} is seen, to make its rows
     */
    private List<Integer> claim(String endpoint, int rows, int limit, int wanted) {
        try (Connection connection = connection()) {
            if (limit > rows) {
                try (var insert = connection.prepareStatement("INSERT INTO endpoint_slots (endpoint, slot)"
                        + " SELECT ?, g FROM generate_series(0, ? - 1) AS g ON CONFLICT DO NOTHING")) {
                    insert.setString(1, endpoint);
                    insert.setInt(2, limit);
                    insert.executeUpdate();
                }
            }
            try (var update = connection.prepareStatement("UPDATE endpoint_slots s"
                    + " SET holder = ?, expires = now() + ? * interval '1 millisecond'"
                    + " FROM (SELECT slot FROM endpoint_slots WHERE endpoint = ? AND slot < ?"
                    + " AND (holder IS NULL OR expires < now()) LIMIT ? FOR UPDATE SKIP LOCKED) AS f"
                    + " WHERE s.endpoint = ? AND s.slot = f.slot RETURNING s.slot")) {
                update.setString(1, holder);
                update.setLong(2, lease.toMillis());
                update.setString(3, endpoint);
                update.setInt(4, limit);
                update.setInt(5, wanted);
                update.setString(6, endpoint);
                var claimed = new ArrayList<Integer>();
                try (var result = update.executeQuery()) {
                    while (result.next()) {
                        claimed.add(result.getInt(1));
                    }
                }
                return claimed;
            }
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    private Connection connection() {
        try {
            return dataSource.getConnection();
        } catch (SQLException e) {
            throw unavailable(e);
        }
    }

    private static AssayException unavailable(SQLException e) {
        return new AssayException(Problem.of(
                "store.unavailable", "the endpoint slots cannot be reached in the database: " + e.getMessage()));
    }
}
