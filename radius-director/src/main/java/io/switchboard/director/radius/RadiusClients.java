package io.switchboard.director.radius;

import io.switchboard.codec.DecodeException;
import io.switchboard.director.EngineDrops;
import io.switchboard.director.radius.radsec.RadsecOptions;
import io.switchboard.director.radius.radsec.RadsecPeers;
import io.switchboard.director.radius.radsec.RadsecTransport;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A virtual server's configured clients, longest prefix first, with their secrets: which client a
 * request comes from and the secret it signs with. A UDP client is known by its source address; a
 * RadSec peer by what its listener identified once its TLS handshake was done (its address or its
 * certificate, {@link RadsecOptions.Identify}), for as long as its connection lasts, and signs with
 * the fixed secret {@code radsec} (RFC 6614 §2.3).
 */
final class RadiusClients implements RadsecPeers {

    private final RadiusOptions.Client[] clients;
    private final byte[][] secrets;
    private final RadsecOptions.Identify identify;
    /** Connected RadSec peers → which client each is; null when the virtual server accepts no RadSec. */
    private final ConcurrentMap<InetSocketAddress, Peer> tlsPeers;
    /**
     * The client index of each UDP source address seen, so that a request costs one map lookup and no
     * copies of addresses ({@code InetAddress.getAddress()} makes an array per call; matching every
     * prefix made two per client). Only known clients are kept, at most {@link #KNOWN_LIMIT}: a flood
     * from forged sources walks the prefixes each time instead of filling memory.
     */
    private final ConcurrentMap<InetAddress, Integer> known = new ConcurrentHashMap<>();
    private static final int KNOWN_LIMIT = 4096;
    /** The clients of the virtual server that replaced this one (a reload), told of the peers that leave. */
    private volatile RadiusClients successor;

    /** A connected peer: its client's index and the names its certificate carries. */
    private record Peer(int client, List<String> names) {
    }

    RadiusClients(RadiusOptions options) {
        List<RadiusOptions.Client> sorted = new ArrayList<>(options.clients());
        sorted.sort(Comparator.comparingInt(RadiusOptions.Client::prefixBits).reversed());
        this.clients = sorted.toArray(new RadiusOptions.Client[0]);
        this.secrets = new byte[clients.length][];
        for (int i = 0; i < clients.length; i++) {
            secrets[i] = clients[i].secretBytes();
        }
        RadsecOptions radsec = options.radsec().filter(RadsecOptions::accepts).orElse(null);
        this.identify = radsec == null ? RadsecOptions.Identify.ADDRESS : radsec.identify();
        this.tlsPeers = radsec == null ? null : new ConcurrentHashMap<>();
    }

    /** Longest prefix first. */
    RadiusOptions.Client[] all() {
        return clients;
    }

    /** The client {@code sender} is; dropped as not allowed when none is. */
    int of(InetSocketAddress sender) throws DecodeException {
        if (tlsPeers != null) {
            Peer peer = tlsPeers.get(sender);
            if (peer != null) {
                return peer.client();
            }
        }
        InetAddress address = sender.getAddress();
        Integer cached = known.get(address);
        if (cached != null) {
            return cached;
        }
        int i = byAddress(address, null);
        if (i >= 0 && known.size() < KNOWN_LIMIT) {
            known.put(address, i);
        }
        if (i < 0) {
            throw new DecodeException(EngineDrops.CLIENT_NOT_ALLOWED, "no client entry for " + sender.getAddress());
        }
        return i;
    }

    /** The secret of client {@code index} as {@code sender} uses it: {@code radsec} over TLS. */
    byte[] secret(int index, InetSocketAddress sender) {
        return tlsPeers != null && tlsPeers.containsKey(sender) ? RadsecTransport.SECRET_BYTES : secrets[index];
    }

    /** The secret of whatever client {@code sender} is. */
    byte[] secretOf(InetSocketAddress sender) throws DecodeException {
        return secret(of(sender), sender);
    }

    @Override
    public String connected(InetSocketAddress address, List<String> names) {
        if (tlsPeers == null) {
            return null;
        }
        int i = byAddress(address.getAddress(), identify == RadsecOptions.Identify.CERTIFICATE ? names : null);
        if (i < 0) {
            return null;
        }
        tlsPeers.put(address, new Peer(i, List.copyOf(names)));
        return clients[i].label() + clients[i].certificateName().map(n -> " (" + n + ")").orElse("");
    }

    @Override
    public void closed(InetSocketAddress address) {
        if (tlsPeers != null) {
            tlsPeers.remove(address);
        }
        RadiusClients next = successor;
        if (next != null) {
            next.closed(address); // its connection was accepted before the reload
        }
    }

    /**
     * A reload replaced the virtual server on the same listener: the peers connected to the old one
     * are identified again against these clients (a peer that is no client any more is not served:
     * its requests are dropped as from an unknown client), and the old table tells this one when
     * they leave.
     */
    @Override
    public void takeOver(RadsecPeers previous) {
        if (!(previous instanceof RadiusClients old) || old.tlsPeers == null || tlsPeers == null) {
            return;
        }
        old.successor = this;
        old.tlsPeers.forEach((address, peer) -> connected(address, peer.names()));
    }

    /**
     * The first client (longest prefix) whose network holds {@code address} and, when {@code names} is
     * given, whose {@code certificate-name} is one of them; -1 when none.
     */
    private int byAddress(InetAddress address, List<String> names) {
        for (int i = 0; i < clients.length; i++) {
            if (clients[i].matches(address)
                    && (names == null || clients[i].certificateName().filter(names::contains).isPresent())) {
                return i;
            }
        }
        return -1;
    }
}
