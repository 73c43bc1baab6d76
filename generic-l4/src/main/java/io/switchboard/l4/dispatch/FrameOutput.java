package io.switchboard.l4.dispatch;

/** Where dispatched frames go out: an interface of the director, by name. */
interface FrameOutput {

    /**
     * Sends the first {@code length} octets of {@code frame} on {@code interfaceName}, with the
     * interface's own MAC address written as the source; the destination MAC is already set.
     *
     * @return false when the interface refused the frame
     */
    boolean send(String interfaceName, byte[] frame, int length);
}
