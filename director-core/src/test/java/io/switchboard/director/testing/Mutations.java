package io.switchboard.director.testing;

import java.util.Arrays;
import java.util.SplittableRandom;

/**
 * Mutated copies of valid datagrams for the plug-ins' robustness tests (bad input must come out of a
 * plug-in only as the {@code DecodeException} the engine counts and drops).
 */
public final class Mutations {

    private Mutations() {
    }

    /**
     * A truncation (one time in five), or one to four bytes — header fields and lengths alike —
     * flipped by a bit, set to 0 or 0xff, or set to a random value.
     */
    public static byte[] mutate(byte[] valid, SplittableRandom random) {
        byte[] bytes = valid.clone();
        if (random.nextInt(5) == 0) {
            return Arrays.copyOf(bytes, random.nextInt(bytes.length));
        }
        for (int n = 1 + random.nextInt(4); n > 0; n--) {
            int at = random.nextInt(bytes.length);
            switch (random.nextInt(3)) {
                case 0 -> bytes[at] ^= (byte) (1 << random.nextInt(8));
                case 1 -> bytes[at] = random.nextBoolean() ? 0 : (byte) 0xff;
                default -> bytes[at] = (byte) random.nextInt(256);
            }
        }
        return bytes;
    }
}
