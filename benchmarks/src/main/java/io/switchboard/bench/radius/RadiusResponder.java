package io.switchboard.bench.radius;

import io.netty.buffer.ByteBuf;
import io.netty.buffer.Unpooled;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.radius.RadiusAuthenticators;
import io.switchboard.codec.radius.RadiusView;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;

/**
 * A minimal RADIUS responder for load tests: answers every Access-Request with an Access-Accept
 * (Accounting-Request with Accounting-Response) carrying no attributes, signed with its secret.
 * It verifies nothing (like an AAA server that trusts its network). One thread.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.radius.RadiusResponder ADDRESS PORT SECRET</pre>
 */
public final class RadiusResponder {

    private RadiusResponder() {
    }

    public static void main(String[] args) throws Exception {
        InetSocketAddress local = new InetSocketAddress(args[0], Integer.parseInt(args[1]));
        byte[] secret = args[2].getBytes(StandardCharsets.UTF_8);
        try (DatagramSocket socket = new DatagramSocket(local)) {
            socket.setReceiveBufferSize(4 << 20);
            socket.setSendBufferSize(4 << 20);
            byte[] in = new byte[4096];
            byte[] out = new byte[20];
            ByteBuf request = Unpooled.wrappedBuffer(in);
            ByteBuf answer = Unpooled.wrappedBuffer(out);
            DatagramPacket packet = new DatagramPacket(in, in.length);
            System.out.println("responder ready on " + local);
            while (true) {
                packet.setData(in);
                socket.receive(packet);
                request.setIndex(0, packet.getLength());
                RadiusView view;
                try {
                    view = RadiusView.wrap(request);
                } catch (DecodeException e) {
                    continue;
                }
                int code = view.code() == 4 ? 5 : 2;
                out[0] = (byte) code;
                out[1] = (byte) view.identifier();
                out[2] = 0;
                out[3] = 20;
                answer.setIndex(0, 20);
                RadiusAuthenticators.signResponse(RadiusView.wrap(answer), view.authenticator(), secret);
                packet.setData(out, 0, 20);
                socket.send(packet);
            }
        }
    }
}
