package io.switchboard.codec.mip;

/** The flag bits of a Registration Request, most significant first (RFC 5944 §3.3). */
public final class MipFlags {

    public static final int S = 0x80; // simultaneous bindings
    public static final int B = 0x40; // broadcast datagrams
    public static final int D = 0x20; // decapsulation by the mobile node (co-located care-of address)
    public static final int M = 0x10; // minimal encapsulation
    public static final int G = 0x08; // GRE encapsulation
    public static final int R = 0x04; // "r": reserved, sent as zero
    public static final int T = 0x02; // reverse tunnelling (RFC 3024)
    public static final int X = 0x01; // "x": reserved, sent as zero

    private MipFlags() {
    }
}
