package io.switchboard.pcap;

import java.io.IOException;

/** A capture file that cannot be opened or read (missing, not a capture, libpcap unavailable). */
public final class CaptureException extends IOException {

    private static final long serialVersionUID = 1L;

    public CaptureException(String message) {
        super(message);
    }

    public CaptureException(String message, Throwable cause) {
        super(message, cause);
    }
}
