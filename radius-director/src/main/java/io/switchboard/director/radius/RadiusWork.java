package io.switchboard.director.radius;

import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.codec.radius.RadiusView;
import io.switchboard.director.spi.Decision;

/**
 * What a RADIUS request means to the director's overload control: an Access-Request asks for new
 * work (a subscriber not yet admitted); an Accounting-Request (RFC 2866: Start, Interim-Update, Stop,
 * On/Off) reports on a session the NAS already holds, so it is session work and is shed last — a lost
 * Stop leaves a session open at the accounting server, and its retransmissions come back anyway.
 * Shed requests are discarded silently (RFC 2865 §2: a request the server will not answer is
 * discarded), counted as {@code dropped{overload}}.
 */
final class RadiusWork {

    private RadiusWork() {
    }

    /** Session work ({@link Decision.Direct#session()}): an Accounting-Request. */
    static boolean isSession(RadiusView view) {
        return view.code() == RadiusCode.ACCOUNTING_REQUEST.value();
    }
}
