package io.switchboard.codec;

import java.util.function.IntFunction;

/**
 * The 256 instances of one {@link OctetCode} class: the named ones, defined by the class's
 * constants, and a placeholder for every other value, made once by {@link #complete}. Lookups are a
 * bounds check and an array read, cheap enough for the packet path.
 *
 * @param <T> the code class
 */
public final class OctetCodes<T extends OctetCode> {

    private final String what;
    private final Object[] all = new Object[256];

    /** @param what what the codes are, for the out-of-range message ("GTPv1 cause") */
    public OctetCodes(String what) {
        this.what = what;
    }

    /** Registers a named code; call from the class's constant initialisers. */
    public <C extends T> C define(C code) {
        if (all[code.value()] != null) {
            throw new IllegalStateException(what + " " + code.value() + " defined twice");
        }
        all[code.value()] = code;
        return code;
    }

    /** Makes a placeholder for every value not defined; call once, after the last constant. */
    public void complete(IntFunction<? extends T> unnamed) {
        for (int value = 0; value < all.length; value++) {
            if (all[value] == null) {
                all[value] = unnamed.apply(value);
            }
        }
    }

    /** The code with this value; never null for 0..255. */
    @SuppressWarnings("unchecked")
    public T of(int value) {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException(what + " out of range: " + value);
        }
        return (T) all[value];
    }
}
