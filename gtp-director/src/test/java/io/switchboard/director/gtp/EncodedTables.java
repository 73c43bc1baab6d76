package io.switchboard.director.gtp;

import io.switchboard.director.shared.Codec;
import io.switchboard.director.shared.SharedTable;
import io.switchboard.director.shared.SharedTables;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiConsumer;

/**
 * A TEST stand-in for the cluster's shared tables, within one JVM: every node that opens a name sees
 * one map of encoded keys and values, and each node reads through its own codecs, as nodes of a
 * cluster do (so a node gets its own real objects, and the codec's layout is exercised). Visibility is
 * immediate, unlike a cluster's few milliseconds; {@link GtpInspectClusterTest} uses Hazelcast.
 */
final class EncodedTables {

    private final Map<String, Map<ByteBuffer, byte[]>> maps = new ConcurrentHashMap<>();

    /** One node's view: opens the shared maps through that node's codecs. */
    SharedTables node() {
        return new SharedTables() {
            @Override
            public <K, V> SharedTable<K, V> open(String name, Codec<K> keys, Codec<V> values) {
                Map<ByteBuffer, byte[]> map = maps.computeIfAbsent(name, n -> new ConcurrentHashMap<>());
                return new SharedTable<>() {
                    @Override
                    public String name() {
                        return name;
                    }

                    @Override
                    public V get(K key) {
                        byte[] value = map.get(ByteBuffer.wrap(keys.encode(key)));
                        return value == null ? null : values.decode(value);
                    }

                    @Override
                    public void put(K key, V value) {
                        map.put(ByteBuffer.wrap(keys.encode(key)), values.encode(value));
                    }

                    @Override
                    public boolean remove(K key) {
                        return map.remove(ByteBuffer.wrap(keys.encode(key))) != null;
                    }

                    @Override
                    public long size() {
                        return map.size();
                    }

                    @Override
                    public void forEach(BiConsumer<? super K, ? super V> action) {
                        map.forEach((k, v) -> action.accept(keys.decode(k.array()), values.decode(v)));
                    }

                    @Override
                    public void close() {
                    }
                };
            }
        };
    }
}
