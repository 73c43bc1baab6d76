package io.switchboard.director.transaction;

import java.net.InetSocketAddress;
import io.netty.buffer.ByteBuf;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.RealStreams;

/**
 * A lane's way to the reals when its plug-in reaches some of them over streams of its own
 * ({@link RealStreams}): requests for those go on the plug-in's connection of the same director
 * socket, the others on the datagram sockets. The id spaces (sockets opened and retired) are the
 * datagram side's; a stream connection follows the socket index it was sent under.
 */
public final class StreamedRealSide implements RealSide {

    private final RealSide datagrams;
    private final RealStreams streams;
    private final RealStreams.Lane lane;

    public StreamedRealSide(RealSide datagrams, RealStreams streams, RealStreams.Lane lane) {
        this.datagrams = datagrams;
        this.streams = streams;
        this.lane = lane;
    }

    @Override
    public void open(int index) {
        datagrams.open(index);
    }

    @Override
    public boolean closable(int index) {
        return datagrams.closable(index);
    }

    @Override
    public void close(int index) {
        datagrams.close(index);
    }

    @Override
    public void toReal(ByteBuf datagram, RealServer real, int socket, long transactionId, InetSocketAddress client) {
        if (streams.carries(real)) {
            lane.send(datagram, real, socket);
        } else {
            datagrams.toReal(datagram, real, socket, transactionId, client);
        }
    }

    /** Flushes the streams written since the last flush. */
    public void flush() {
        lane.flush();
    }

    /** Closes the streams' connections (the datagram sockets are their owner's to close). */
    public void close() {
        lane.close();
    }
}
