package io.switchboard.pcap;

import java.net.InetAddress;
import java.util.ArrayDeque;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * The answers of a capture, for the simulated reals of a what-if run: each request takes the first
 * answer not yet taken that was captured after it, sent to the request's source address, of the same
 * protocol, with the request's transaction id (GTP sequence number, RADIUS identifier, Mobile IP
 * Identification, R6 transaction id — {@link MessageDirection#transactionId}). The answer's port is
 * not compared: a GTP peer may answer from or to another port than the request used.
 */
final class CapturedAnswers {

    private record Key(SignalingProtocol protocol, InetAddress client, long transactionId) {
    }

    private record Answer(int frame, byte[] payload) {
    }

    private final Map<Key, ArrayDeque<Answer>> answers = new HashMap<>();
    private int size;

    /** Remembers {@code d} when it is an answer the codecs can pair with its request. */
    void offer(UdpDatagram d) {
        SignalingProtocol protocol = SignalingProtocol.classify(d.sourcePort(), d.destinationPort(), d.payload());
        if (!MessageDirection.isAnswer(protocol, d.payload())) {
            return;
        }
        long id = MessageDirection.transactionId(protocol, d.payload());
        if (id < 0) {
            return;
        }
        answers.computeIfAbsent(new Key(family(protocol), d.destination(), id), k -> new ArrayDeque<>())
                .add(new Answer(d.frame(), d.payload()));
        size++;
    }

    /** The answer to a request of frame {@code frame} from {@code client}, taken; null when the capture has none. */
    byte[] take(SignalingProtocol protocol, InetAddress client, long transactionId, int frame) {
        ArrayDeque<Answer> queue = answers.get(new Key(family(protocol), client, transactionId));
        if (queue == null) {
            return null;
        }
        for (Iterator<Answer> it = queue.iterator(); it.hasNext(); ) {
            Answer a = it.next();
            if (a.frame() > frame) {
                it.remove();
                size--;
                return a.payload();
            }
        }
        return null;
    }

    /** Answers not taken by any request. */
    int left() {
        return size;
    }

    /** GTPv1 and GTPv2 share port 2123 and a sequence space per peer: one family. */
    private static SignalingProtocol family(SignalingProtocol protocol) {
        return protocol == SignalingProtocol.GTPV2 ? SignalingProtocol.GTPV1 : protocol;
    }
}
