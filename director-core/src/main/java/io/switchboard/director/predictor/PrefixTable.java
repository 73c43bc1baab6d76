package io.switchboard.director.predictor;

import io.switchboard.director.config.Subnet;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * An immutable longest-prefix-match table from address prefixes ({@link Subnet}, IPv4 and IPv6) to
 * values: the route-map ("turbo") predictor's prefixes and their reals. An IPv4 address never
 * matches an IPv6 prefix and the other way round.
 *
 * <p>Per family, one level per prefix length present, longest first; each level holds its networks
 * sorted, so a lookup is one binary search per distinct length and allocates nothing. Addresses are
 * held left-aligned in two longs (an IPv4 address in the top 32 bits of the first), so one masking
 * rule serves both families.
 */
public final class PrefixTable<V> {

    private static final PrefixTable<?> EMPTY = new PrefixTable<>(Map.of());

    /** One prefix length: its networks (high, low 64 bits), sorted unsigned, and their values. */
    private record Level(int bits, long[] high, long[] low, Object[] values) {
    }

    private final Level[] ipv4;
    private final Level[] ipv6;
    private final Map<Subnet, V> entries;

    private PrefixTable(Map<Subnet, V> entries) {
        this.entries = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(entries));
        this.ipv4 = levels(entries, 4);
        this.ipv6 = levels(entries, 16);
    }

    /**
     * @param entries each prefix once (a {@link Subnet} holds its network with the host bits cleared,
     *                so {@code 10.1.2.3/16} and {@code 10.1.0.0/16} are the same prefix); the values
     *                must not be null
     */
    public static <V> PrefixTable<V> of(Map<Subnet, V> entries) {
        entries.forEach((prefix, value) -> java.util.Objects.requireNonNull(value, "value of " + prefix));
        return entries.isEmpty() ? empty() : new PrefixTable<>(entries);
    }

    @SuppressWarnings("unchecked")
    public static <V> PrefixTable<V> empty() {
        return (PrefixTable<V>) EMPTY;
    }

    public boolean isEmpty() {
        return entries.isEmpty();
    }

    /** The prefixes and their values, in the order given. */
    public Map<Subnet, V> entries() {
        return entries;
    }

    /** The value of the longest prefix holding {@code address}, or null. */
    public V lookup(InetAddress address) {
        byte[] a = address.getAddress();
        return a.length == 4 ? lookupIpv4(ipv4(a)) : find(ipv6, word(a, 0), word(a, 8));
    }

    /** The value of the longest IPv4 prefix holding {@code ipv4} (an unsigned 32-bit address), or null. */
    public V lookupIpv4(long ipv4) {
        return find(this.ipv4, ipv4 << 32, 0);
    }

    /**
     * The value of the longest IPv6 prefix that holds the whole of the prefix {@code bits} long at the
     * first 16 octets of {@code octets} (so one no longer than {@code bits}), or null: where a
     * subscriber's delegated or framed prefix lies.
     */
    public V lookupIpv6(byte[] octets, int bits) {
        return find(ipv6, word(octets, 0), word(octets, 8), bits);
    }

    private V find(Level[] levels, long high, long low) {
        return find(levels, high, low, 128);
    }

    /** Over the levels no longer than {@code maxBits}. */
    @SuppressWarnings("unchecked")
    private V find(Level[] levels, long high, long low, int maxBits) {
        for (Level level : levels) {
            if (level.bits > maxBits) {
                continue;
            }
            long h = high & highMask(level.bits);
            long l = low & lowMask(level.bits);
            int lo = 0;
            int hi = level.high.length - 1;
            while (lo <= hi) {
                int mid = (lo + hi) >>> 1;
                int c = compare(level.high[mid], level.low[mid], h, l);
                if (c == 0) {
                    return (V) level.values[mid];
                }
                if (c < 0) {
                    lo = mid + 1;
                } else {
                    hi = mid - 1;
                }
            }
        }
        return null;
    }

    private static Level[] levels(Map<Subnet, ?> entries, int family) {
        // Prefix length (longest first) -> that length's prefixes.
        TreeMap<Integer, List<Map.Entry<Subnet, ?>>> byLength = new TreeMap<>(Comparator.reverseOrder());
        for (Map.Entry<Subnet, ?> e : entries.entrySet()) {
            if (e.getKey().network().getAddress().length == family) {
                byLength.computeIfAbsent(e.getKey().prefixLength(), b -> new ArrayList<>()).add(e);
            }
        }
        List<Level> levels = new ArrayList<>();
        byLength.forEach((bits, list) -> {
            long[][] keys = new long[list.size()][];
            for (int i = 0; i < keys.length; i++) {
                keys[i] = key(list.get(i).getKey().network());
            }
            Integer[] order = new Integer[keys.length];
            Arrays.setAll(order, i -> i);
            Arrays.sort(order, (x, y) -> compare(keys[x][0], keys[x][1], keys[y][0], keys[y][1]));
            long[] high = new long[keys.length];
            long[] low = new long[keys.length];
            Object[] values = new Object[keys.length];
            for (int i = 0; i < order.length; i++) {
                high[i] = keys[order[i]][0];
                low[i] = keys[order[i]][1];
                values[i] = list.get(order[i]).getValue();
            }
            levels.add(new Level(bits, high, low, values));
        });
        return levels.toArray(new Level[0]);
    }

    /** A network as its left-aligned (high, low) words. */
    private static long[] key(InetAddress network) {
        byte[] a = network.getAddress();
        return network instanceof Inet4Address ? new long[] {ipv4(a) << 32, 0} : new long[] {word(a, 0), word(a, 8)};
    }

    /** An IPv4 address's four octets as an unsigned 32-bit number. */
    private static long ipv4(byte[] a) {
        return Integer.toUnsignedLong(((a[0] & 0xff) << 24) | ((a[1] & 0xff) << 16) | ((a[2] & 0xff) << 8) | (a[3] & 0xff));
    }

    private static long word(byte[] a, int from) {
        long w = 0;
        for (int i = from; i < from + 8; i++) {
            w = (w << 8) | (a[i] & 0xff);
        }
        return w;
    }

    private static long highMask(int bits) {
        return bits == 0 ? 0 : bits >= 64 ? -1L : -1L << (64 - bits);
    }

    private static long lowMask(int bits) {
        return bits <= 64 ? 0 : bits == 128 ? -1L : -1L << (128 - bits);
    }

    private static int compare(long high1, long low1, long high2, long low2) {
        int c = Long.compareUnsigned(high1, high2);
        return c != 0 ? c : Long.compareUnsigned(low1, low2);
    }

    @Override
    public String toString() {
        return "PrefixTable" + entries;
    }
}
