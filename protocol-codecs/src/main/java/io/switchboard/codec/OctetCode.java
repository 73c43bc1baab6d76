package io.switchboard.codec;

/**
 * The base of the one-octet wire codes (message types, causes, IE and attribute types): an open
 * value class rather than an enum, because a director relays what it does not understand — every
 * value 0..255 has an instance, named by the specification or not. Instances are canonical (one per
 * value, held by the class's {@link OctetCodes}), so equality is by value.
 */
public abstract class OctetCode {

    private final int value;
    private final String name;
    private final boolean named;

    protected OctetCode(int value, String name, boolean named) {
        if (value < 0 || value > 255) {
            throw new IllegalArgumentException("not an octet: " + value);
        }
        this.value = value;
        this.name = name;
        this.named = named;
    }

    public final int value() {
        return value;
    }

    public final String name() {
        return name;
    }

    /** Whether the specification names this value (false for the placeholders of unnamed values). */
    public final boolean isNamed() {
        return named;
    }

    @Override
    public final boolean equals(Object o) {
        return o != null && o.getClass() == getClass() && ((OctetCode) o).value == value;
    }

    @Override
    public final int hashCode() {
        return value;
    }

    @Override
    public String toString() {
        return name;
    }
}
