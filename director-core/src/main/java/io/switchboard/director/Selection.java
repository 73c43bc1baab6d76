package io.switchboard.director;

import io.switchboard.director.real.RealServer;

/** The real chosen for a request and why. */
public record Selection(RealServer real, Reason reason) {

    public enum Reason {
        /** The key's live binding. */
        STICKY("sticky"),
        /** The farm's predictor, for a key without binding. */
        PREDICTOR("predictor"),
        /** The key was bound to a real that can no longer serve it; the predictor chose again. */
        REASSIGNED("reassigned"),
        /** No real of the primary farm could take the request; a backup farm's did. */
        BACKUP("backup"),
        /** A request every real of the farm must see (RADIUS Accounting-On/Off): sent to each that serves. */
        FAN_OUT("fan-out");

        private final String tag;

        Reason(String tag) {
            this.tag = tag;
        }

        /** The metrics tag. */
        public String tag() {
            return tag;
        }
    }
}
