package io.switchboard.director.gtp;

/** What a response's cause value means to {@code gtp-inspect}, per version. */
final class GtpCauses {

    private GtpCauses() {
    }

    /** TS 29.060 §7.7.1: 128..191 accept; TS 29.274 §8.4: 16..63 accept. */
    static boolean accepted(int version, int cause) {
        return version == 2 ? cause >= 16 && cause <= 63 : cause >= 128 && cause <= 191;
    }

    /**
     * The real no longer knows the session (TS 29.060 §7.7.1 192 non-existent, TS 29.274 §8.4 64
     * context not found): the session is gone there, so it ends here too.
     */
    static boolean unknownContext(int version, int cause) {
        return version == 2 ? cause == 64 : cause == 192;
    }
}
