package io.switchboard.director.ha;

import io.switchboard.director.config.ServiceOptions;

/**
 * The {@code ipmobile:} settings of a Home Agent Director virtual server.
 *
 * @param relayReplies     true: home agents answer the director, which matches each Registration
 *                         Reply to its request and relays it from the virtual address; false: the
 *                         director forwards and forgets (IOS), for home agents that send the reply
 *                         to the requester by themselves
 * @param rewriteHomeAgent true: the Home Agent field of a forwarded request is rewritten to the
 *                         chosen home agent's address, and back to the original (the virtual
 *                         address) in the relayed reply; this breaks the MN-HA authenticator
 */
public record HaOptions(boolean relayReplies, boolean rewriteHomeAgent) implements ServiceOptions {

    /** Replies relayed (a director that forwards from its own address gets them back), no rewrite. */
    public static final HaOptions DEFAULT = new HaOptions(true, false);
}
