package io.switchboard.director.spi;

import java.net.InetAddress;
import java.net.UnknownHostException;
import java.nio.charset.StandardCharsets;
import java.util.HexFormat;
import java.util.Objects;

/**
 * What a sticky table is keyed by: a name (as written under {@code sticky: key:} and in the admin
 * API's {@code /sticky/{kind}/...}) and how a key's bytes read as text. The engine defines only
 * {@link #CLIENT_ADDRESS}, which generic UDP uses; each plug-in defines the kinds its protocol
 * carries (IMSI, MSID, Framed-IP-Address, ...) as constants and declares them in its
 * {@link PluginModule}, so the configuration and the admin API know them by name.
 *
 * <p>Kinds are equal when their names are: a key read back from the cluster, or named by a module
 * that only looks it up ({@link #named}), is the same key as the plug-in's own.
 */
public final class StickyKind {

    /** How the value bytes of a kind's keys are read from and printed as text. */
    public interface Format {

        /** The value of {@code text}; {@link IllegalArgumentException} with the reason when it is none. */
        byte[] parse(String text);

        String print(byte[] value);

        /** Address bytes, as a dotted or colon literal (never a name to look up). */
        Format ADDRESS = new Format() {
            @Override
            public byte[] parse(String text) {
                if (!text.matches("[0-9.]+|[0-9a-fA-F:.]*:[0-9a-fA-F:.]*")) {
                    throw new IllegalArgumentException("not an IP address literal: " + text);
                }
                try {
                    return InetAddress.getByName(text).getAddress(); // a literal: no lookup happens
                } catch (UnknownHostException e) {
                    throw new IllegalArgumentException("not an IP address literal: " + text, e);
                }
            }

            @Override
            public String print(byte[] value) {
                try {
                    return InetAddress.getByAddress(value).getHostAddress();
                } catch (UnknownHostException e) {
                    return HexFormat.of().formatHex(value);
                }
            }
        };

        /**
         * An address prefix, {@code 2001:db8:1::/48}: the address's octets (4 or 16) with the bits past
         * the length cleared, then the length (so {@code 2001:db8:1::5/48} is the same key). RADIUS's
         * Framed-IPv6-Prefix and Delegated-IPv6-Prefix.
         */
        Format PREFIX = new Format() {
            @Override
            public byte[] parse(String text) {
                int slash = text.indexOf('/');
                if (slash < 0 || !text.substring(slash + 1).matches("[0-9]{1,3}")) {
                    throw new IllegalArgumentException("not a prefix (ADDRESS/LENGTH): " + text);
                }
                byte[] address = ADDRESS.parse(text.substring(0, slash));
                int bits = Integer.parseInt(text.substring(slash + 1));
                if (bits > address.length * 8) {
                    throw new IllegalArgumentException("prefix length must be 0.." + address.length * 8 + ": " + text);
                }
                byte[] value = java.util.Arrays.copyOf(address, address.length + 1);
                for (int i = 0; i < address.length; i++) {
                    int keep = Math.max(0, Math.min(8, bits - i * 8));
                    value[i] &= (byte) (0xff00 >> keep);
                }
                value[address.length] = (byte) bits;
                return value;
            }

            @Override
            public String print(byte[] value) {
                if (value.length != 5 && value.length != 17) {
                    return HexFormat.of().formatHex(value);
                }
                return ADDRESS.print(java.util.Arrays.copyOf(value, value.length - 1)) + "/"
                        + (value[value.length - 1] & 0xff);
            }
        };

        /** The bytes of a string (digits of an IMSI, a RADIUS string attribute), UTF-8. */
        Format TEXT = new Format() {
            @Override
            public byte[] parse(String text) {
                return text.getBytes(StandardCharsets.UTF_8);
            }

            @Override
            public String print(byte[] value) {
                return new String(value, StandardCharsets.UTF_8);
            }
        };

        /** Octets as hex pairs separated by colons ({@code 00:1b:2c:3d:4e:5f}). */
        Format COLON_HEX = new Format() {
            @Override
            public byte[] parse(String text) {
                return HexFormat.ofDelimiter(":").parseHex(text);
            }

            @Override
            public String print(byte[] value) {
                return HexFormat.ofDelimiter(":").formatHex(value);
            }
        };
    }

    /** The client's IP address, optionally masked to a subnet: the generic UDP and TCP key. */
    public static final StickyKind CLIENT_ADDRESS = of("client-address", Format.ADDRESS);

    private final String name;
    private final Format format;
    private final boolean listedUnderItsName;

    private StickyKind(String name, Format format, boolean listedUnderItsName) {
        this.name = Objects.requireNonNull(name, "name");
        this.format = Objects.requireNonNull(format, "format");
        this.listedUnderItsName = listedUnderItsName;
    }

    public static StickyKind of(String name, Format format) {
        return new StickyKind(name, format, false);
    }

    /**
     * This kind, whose admin API answers also carry the key under the kind's name ({@code "imsi":
     * ...}, a field older clients read).
     */
    public StickyKind listedUnderItsName() {
        return new StickyKind(name, format, true);
    }

    /**
     * The kind some installed plug-in declares under {@code name}; without one (a key of a plug-in
     * this node lacks, read from the cluster), a kind of that name whose values print as hex.
     */
    public static StickyKind named(String name) {
        return Plugins.installed().stickyKind(name).orElseGet(() -> of(name, Format.COLON_HEX));
    }

    /** The name in the configuration and the admin API. */
    public String configName() {
        return name;
    }

    public byte[] parse(String text) {
        return format.parse(text);
    }

    public String print(byte[] value) {
        return format.print(value);
    }

    /** See {@link #listedUnderItsName()}. */
    public boolean isListedUnderItsName() {
        return listedUnderItsName;
    }

    @Override
    public boolean equals(Object o) {
        return o == this || (o instanceof StickyKind k && k.name.equals(name));
    }

    @Override
    public int hashCode() {
        return name.hashCode();
    }

    @Override
    public String toString() {
        return name;
    }
}
