package dev.assay.internal;

import java.util.function.Function;

/**
 * Remembers the value computed for the last key it was asked about, that very object: for work that is the same for
 * every call of a run and is given the same instance each time (the tools offered with every model request), where
 * hashing the key by its contents would cost about as much as the work. Thread-safe; a different key replaces the
 * remembered one.
 *
 * @param <K> the key, compared by identity
 * @param <V> the value
 */
public final class IdentityMemo<K, V> {
    private record Entry<K, V>(K key, V value) {}

    private final Function<K, V> compute;
    private volatile Entry<K, V> last;

    /** @param compute makes the value of a key; called again for a key that is not the last one */
    public IdentityMemo(Function<K, V> compute) {
        this.compute = compute;
    }

    /** {@return the value of the key: the remembered one if the key is the last one asked about, else a new one} */
    public V get(K key) {
        Entry<K, V> remembered = last;
        if (remembered != null && remembered.key() == key) {
            return remembered.value();
        }
        V value = compute.apply(key);
        last = new Entry<>(key, value);
        return value;
    }
}
