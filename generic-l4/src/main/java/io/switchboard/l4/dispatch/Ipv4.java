package io.switchboard.l4.dispatch;

/** IPv4 addresses as the dispatcher keeps them: one int, network order. */
final class Ipv4 {

    private Ipv4() {
    }

    static int of(byte[] address) {
        return (address[0] & 0xff) << 24 | (address[1] & 0xff) << 16 | (address[2] & 0xff) << 8 | (address[3] & 0xff);
    }

    static byte[] bytes(int address) {
        return new byte[] {(byte) (address >>> 24), (byte) (address >>> 16), (byte) (address >>> 8), (byte) address};
    }
}
