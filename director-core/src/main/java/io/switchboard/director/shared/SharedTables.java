package io.switchboard.director.shared;

import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * Opens {@link SharedTable}s: in memory on a single node ({@link #IN_MEMORY}), backed by the cluster
 * when clustered. A plug-in opens its tables when it is attached ({@code PluginContext.tables()}),
 * under a name that says whose they are (e.g. {@code "gtp-inspect/sessions/" + virtual server}); every
 * node that opens the same name shares one table. Opening blocks until this node's copy has caught
 * up with the cluster: never on an event loop.
 */
@FunctionalInterface
public interface SharedTables {

    <K, V> SharedTable<K, V> open(String name, Codec<K> keys, Codec<V> values);

    /**
     * Opens a table whose entries live no longer than a transaction (a response timeout), such as the
     * relayed requests: shared like any other in a cluster, but not kept across a restart by a
     * snapshot ({@code persistence}), since what they wait for is gone by the time a node is back.
     */
    default <K, V> SharedTable<K, V> openTransient(String name, Codec<K> keys, Codec<V> values) {
        return open(name, keys, values);
    }

    /** Not clustered: each table is a concurrent map of this node (the codecs are not needed). */
    SharedTables IN_MEMORY = new SharedTables() {
        @Override
        public <K, V> SharedTable<K, V> open(String name, Codec<K> keys, Codec<V> values) {
            return new InMemory<>(name);
        }
    };

    /** The single-node table. */
    final class InMemory<K, V> implements SharedTable<K, V> {

        private final String name;
        private final ConcurrentHashMap<K, V> map = new ConcurrentHashMap<>();

        InMemory(String name) {
            this.name = name;
        }

        @Override
        public String name() {
            return name;
        }

        @Override
        public V get(K key) {
            return map.get(key);
        }

        @Override
        public void put(K key, V value) {
            map.put(key, value);
        }

        @Override
        public boolean remove(K key) {
            return map.remove(key) != null;
        }

        @Override
        public long size() {
            return map.mappingCount();
        }

        @Override
        public void forEach(BiConsumer<? super K, ? super V> action) {
            map.forEach(action);
        }

        @Override
        public boolean sharedWithOtherNodes() {
            return false;
        }

        @Override
        public void close() {
        }
    }
}
