package io.switchboard.director.predictor;

import io.switchboard.director.real.RealServer;
import io.switchboard.director.sticky.KeyHash;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Maglev consistent hashing (Eisenbud et al., NSDI 2016, §3.4) with weights: a lookup table of a
 * prime size is filled by each real in turn along its own permutation, a real of weight w taking w
 * entries per round. The table holds every real with a weight, whatever its state: a key whose real
 * cannot take work (failed, out of service, throttled) walks on along the table to the next one that
 * can, so when a real leaves only its own keys move, spread over the others by weight, and they come
 * back when it returns. That is what lets the sticky table be a cache rather than the truth. The
 * table depends only on the reals' ids and weights, so every node of a cluster builds the same one,
 * and it is rebuilt only when those change.
 */
public final class ConsistentHash implements Predictor {

    /** A prime well above 100 × the number of reals a farm may have. */
    static final int TABLE_SIZE = 65_537;

    private volatile Snapshot snapshot = new Snapshot(new RealServer[0], new int[0], List.of());

    /** @param signature the ids and weights the table was built from */
    private record Snapshot(RealServer[] reals, int[] table, List<String> signature) {
    }

    @Override
    public RealServer pick(long keyHash) {
        Snapshot s = snapshot;
        int n = s.reals.length;
        if (n == 0) {
            return null;
        }
        int slot = (int) Long.remainderUnsigned(keyHash, TABLE_SIZE);
        RealServer first = s.reals[s.table[slot]];
        if (first.tryTakeNewWork()) {
            return first;
        }
        // The key's own real cannot take work: walk on along the table, which spreads these keys
        // over the other reals in proportion to their weights.
        boolean[] tried = new boolean[n];
        tried[s.table[slot]] = true;
        int left = n - 1;
        for (int i = 1; i < TABLE_SIZE && left > 0; i++) {
            int index = s.table[(slot + i) % TABLE_SIZE];
            if (!tried[index]) {
                tried[index] = true;
                left--;
                if (s.reals[index].tryTakeNewWork()) {
                    return s.reals[index];
                }
            }
        }
        return null;
    }

    @Override
    public void rebuild(List<RealServer> reals) {
        List<RealServer> weighted = new ArrayList<>();
        List<String> signature = new ArrayList<>();
        for (RealServer real : reals) {
            if (real.weight() > 0) {
                weighted.add(real);
                signature.add(real.id() + "*" + real.weight());
            }
        }
        if (!signature.equals(snapshot.signature)) {
            snapshot = new Snapshot(weighted.toArray(new RealServer[0]), buildTable(weighted), signature);
        }
    }

    /** Real index per table entry. */
    static int[] buildTable(List<RealServer> reals) {
        if (reals.isEmpty()) {
            return new int[0];
        }
        List<long[]> permutations = new ArrayList<>(); // {realIndex, offset, skip, next}
        for (int r = 0; r < reals.size(); r++) {
            RealServer real = reals.get(r);
            for (int replica = 0; replica < real.weight(); replica++) {
                byte[] name = (real.id() + "#" + replica).getBytes(StandardCharsets.UTF_8);
                long h = KeyHash.of(name);
                long offset = Long.remainderUnsigned(h, TABLE_SIZE);
                long skip = Long.remainderUnsigned(KeyHash.mix(h ^ 0x9E3779B97F4A7C15L), TABLE_SIZE - 1) + 1;
                permutations.add(new long[] {r, offset, skip, 0});
            }
        }
        int[] table = new int[TABLE_SIZE];
        java.util.Arrays.fill(table, -1);
        int filled = 0;
        while (true) {
            for (long[] p : permutations) {
                int c;
                do {
                    c = (int) ((p[1] + p[3] * p[2]) % TABLE_SIZE);
                    p[3]++;
                } while (table[c] >= 0);
                table[c] = (int) p[0];
                if (++filled == TABLE_SIZE) {
                    return table;
                }
            }
        }
    }
}
