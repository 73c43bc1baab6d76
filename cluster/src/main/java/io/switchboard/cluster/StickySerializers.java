package io.switchboard.cluster;

import com.hazelcast.config.CompactSerializationConfig;
import com.hazelcast.config.SerializationConfig;
import com.hazelcast.core.HazelcastInstance;
import com.hazelcast.internal.serialization.SerializationService;
import com.hazelcast.nio.serialization.compact.CompactReader;
import com.hazelcast.nio.serialization.compact.CompactSerializer;
import com.hazelcast.nio.serialization.compact.CompactWriter;
import com.hazelcast.spi.impl.SerializationServiceSupport;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;

/**
 * Explicit Hazelcast Compact serializers for what the sticky tables store and send: keys, bindings
 * (in the dictionary of reals; the map's values are {@code Long}s, {@link BindingValue}) and the entry
 * processors that change them; the reals' shared state and its changes; the entries
 * of shared tables. Nothing goes through Java serialization, and the
 * engine's {@link StickyKey} and {@link StickyBinding} stay free of Hazelcast types.
 *
 * <p>The map compares keys by their serialized bytes, so every serializer here must write the same
 * bytes for equal values on every node and every version: field names and type names are wire
 * constants. A key's kind is written by its name, which its plug-in declares: a member without that
 * plug-in still reads, stores and compares the key (see {@link StickyKind#named}).
 */
public final class StickySerializers {

    private StickySerializers() {
    }

    /** Registers every serializer of the sticky tables; every member and client must do this. */
    public static void register(SerializationConfig config) {
        CompactSerializationConfig compact = config.getCompactSerializationConfig();
        compact.addSerializer(new KeySerializer());
        compact.addSerializer(new BindingSerializer());
        compact.addSerializer(new Claim.Serializer());
        compact.addSerializer(new Refresh.Serializer());
        compact.addSerializer(new Rebind.Serializer());
        compact.addSerializer(new Release.Serializer());
        compact.addSerializer(new Expire.Serializer());
        compact.addSerializer(new RealRecord.Serializer());
        compact.addSerializer(new RealChange.Serializer());
        compact.addSerializer(new SharedEntry.Serializer());
        compact.addSerializer(new SharedWrite.Serializer());
    }

    /**
     * Serializes one of each type once. A member that writes a Compact type for the first time
     * replicates its schema to the whole cluster and waits for it; this does that wait at startup
     * rather than on the first packet that binds a subscriber.
     */
    static void announceSchemas(HazelcastInstance hazelcast) {
        // Internal API, and the only way to reach the member's serialization service.
        SerializationService serialization = ((SerializationServiceSupport) hazelcast).getSerializationService();
        StickyBinding binding = new StickyBinding("", "");
        Object[] samples = {StickyKey.of(StickyKind.CLIENT_ADDRESS, new byte[0]),
            binding, new Claim(1, 0, 1),
            new Refresh(1, 0, 1), new Rebind(1, 1, 0, 1), new Release(1), new Expire(0),
            RealRecord.UNCHANGED, RealChange.failed(0, ""), new SharedWrite(SharedEntry.tombstone(0, 0), 1)};
        for (Object sample : samples) {
            serialization.toData(sample);
        }
    }

    /**
     * A key that is not an IMSI: its kind's name ({@code kind}) and its value bytes ({@code v}). IMSI
     * keys never come here: the map holds them as their TBCD {@code Long} ({@link Replica#mapKey}),
     * 16 bytes serialized where this form took 45 (and an earlier TBCD field in it 30).
     */
    static final class KeySerializer implements CompactSerializer<StickyKey> {

        @Override
        public StickyKey read(CompactReader in) {
            return StickyKey.of(StickyKind.named(in.readString("kind")), in.readArrayOfInt8("v"));
        }

        @Override
        public void write(CompactWriter out, StickyKey key) {
            out.writeString("kind", key.kind().configName());
            out.writeArrayOfInt8("v", key.value());
        }

        @Override
        public String getTypeName() {
            return "sb.StickyKey2";
        }

        @Override
        public Class<StickyKey> getCompactClass() {
            return StickyKey.class;
        }
    }

    /** farm + real, as strings: a handful of distinct values, each shared by many keys. */
    static final class BindingSerializer implements CompactSerializer<StickyBinding> {

        @Override
        public StickyBinding read(CompactReader in) {
            return new StickyBinding(in.readString("f"), in.readString("r"));
        }

        @Override
        public void write(CompactWriter out, StickyBinding binding) {
            out.writeString("f", binding.farm());
            out.writeString("r", binding.real());
        }

        @Override
        public String getTypeName() {
            return "sb.StickyBinding";
        }

        @Override
        public Class<StickyBinding> getCompactClass() {
            return StickyBinding.class;
        }
    }
}
