package io.switchboard.director.testing;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.spi.RealView;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.codec.DropReason;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyBinding;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.ResponseVerdict;
import io.switchboard.director.spi.TransactionPlugin;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * A test protocol for the engine's tests, no real protocol: a request is {@code 'Q', id (2 bytes),
 * "key;words"}, an answer {@code 'R', id (2 bytes), "text"}. The sticky key is the text before ';'.
 * Words of a request steer the plug-in's answers to the engine: {@code oneway} (no answer expected),
 * {@code all} (fan out to every real), {@code pin=FARM/REAL} (routed to that real),
 * {@code unpreparable} (prepareRequest refuses it). Words of an answer: {@code retry}
 * ({@link ResponseVerdict#RETRY_ELSEWHERE}), {@code drop} ({@link ResponseVerdict#DROP}). What else
 * the engine asks (id width, sockets, rewriting, reassign limit) is set on the instance. Not final:
 * a test overrides {@link #decide} (local answers, relays) or {@link #fromReal} in a subclass.
 */
public class ToyPlugin implements TransactionPlugin<Object> {

    private int idBits = 16;
    private int sockets = 1;
    private boolean rewrites = true;
    private boolean throughDirector = true;
    private int reassignLimit;

    /**
     * A service named {@code name} whose virtual servers get a plug-in from {@code plugins}: the
     * engine's tests register their toys under a real service's name (its predictors all allowed).
     */
    public static io.switchboard.director.spi.DatagramService service(String name,
            java.util.function.Supplier<? extends io.switchboard.director.spi.DatagramPlugin> plugins) {
        return new io.switchboard.director.spi.DatagramService() {
            @Override
            public io.switchboard.director.spi.ServiceSpec spec() {
                return io.switchboard.director.spi.ServiceSpec.udp(name,
                        java.util.EnumSet.allOf(io.switchboard.director.config.PredictorKind.class));
            }

            @Override
            public io.switchboard.director.spi.DatagramPlugin create(
                    io.switchboard.director.config.VirtualServerConfig config) {
                return plugins.get();
            }
        };
    }

    public ToyPlugin idBits(int bits) {
        this.idBits = bits;
        return this;
    }

    public ToyPlugin sockets(int count) {
        this.sockets = count;
        return this;
    }

    /** The client's id is the id toward the real ({@link #rewritesTransactionId()} false). */
    public ToyPlugin keepsClientIds() {
        this.rewrites = false;
        return this;
    }

    /** The reals answer the clients directly ({@link #answersThroughDirector()} false). */
    public ToyPlugin answeredDirectly() {
        this.throughDirector = false;
        return this;
    }

    public ToyPlugin reassignLimit(int limit) {
        this.reassignLimit = limit;
        return this;
    }

    /** A request with client id {@code id} and text {@code "key;words"}. */
    public static byte[] request(int id, String text) {
        return message('Q', id, text);
    }

    /** The answer a toy real gives to {@code sent} (the request as it reached the real): its id, {@code text}. */
    public static byte[] answer(byte[] sent, String text) {
        return message('R', id(sent), text);
    }

    /** The id of a toy message. */
    public static int id(byte[] message) {
        return ((message[1] & 0xff) << 8) | (message[2] & 0xff);
    }

    /** The text of a toy message. */
    public static String text(byte[] message) {
        return new String(message, 3, message.length - 3, StandardCharsets.US_ASCII);
    }

    private static byte[] message(char kind, int id, String text) {
        byte[] body = text.getBytes(StandardCharsets.US_ASCII);
        byte[] out = Arrays.copyOf(new byte[] {(byte) kind, (byte) (id >> 8), (byte) id}, 3 + body.length);
        System.arraycopy(body, 0, out, 3, body.length);
        return out;
    }

    private static String text(ByteBuf message) {
        return message.toString(message.readerIndex() + 3, message.readableBytes() - 3, StandardCharsets.US_ASCII);
    }

    /** The words after the key of a request. */
    private static String words(ByteBuf request) {
        String text = text(request);
        int semicolon = text.indexOf(';');
        return semicolon < 0 ? "" : text.substring(semicolon + 1);
    }

    private static boolean has(String words, String word) {
        return Arrays.asList(words.split(" ")).contains(word);
    }

    /** A request keyed by its text before ';', by its id, placed and fanned out as its words say. */
    @Override
    public Decision decide(ByteBuf datagram, java.net.InetSocketAddress sender, ByteBufAllocator alloc)
            throws DecodeException {
        StickyKey key = classify(datagram);
        String words = words(datagram);
        StickyBinding pinned = pinned(words);
        return new Decision.Direct(key, datagram.getUnsignedShort(datagram.readerIndex() + 1),
                pinned == null ? Decision.Placement.BALANCE : new Decision.Placement.Pinned(pinned), has(words, "all"),
                !has(words, "oneway"));
    }

    /** The key of a toy request: its text before ';'. */
    public static StickyKey classify(ByteBuf datagram) throws DecodeException {
        if (datagram.readableBytes() < 4 || datagram.getByte(datagram.readerIndex()) != 'Q') {
            throw new DecodeException(DropReason.MALFORMED, "not a toy request");
        }
        String text = text(datagram);
        int semicolon = text.indexOf(';');
        return StickyKey.of(TestKinds.USERNAME,
                (semicolon < 0 ? text : text.substring(0, semicolon)).getBytes(StandardCharsets.US_ASCII));
    }

    @Override
    public int transactionIdBits() {
        return idBits;
    }

    @Override
    public boolean rewritesTransactionId() {
        return rewrites;
    }

    @Override
    public boolean answersThroughDirector() {
        return throughDirector;
    }

    @Override
    public int upstreamSockets() {
        return sockets;
    }

    @Override
    public int reassignLimit() {
        return reassignLimit;
    }

    private static StickyBinding pinned(String words) {
        for (String word : words.split(" ")) {
            if (word.startsWith("pin=")) {
                String[] farmAndReal = word.substring(4).split("/", 2);
                return new StickyBinding(farmAndReal[0], farmAndReal[1]);
            }
        }
        return null;
    }

    /** The keys the engine prepared requests with, in order (the engine runs a test's steps on its thread). */
    public final List<StickyKey> preparedKeys = new ArrayList<>();

    @Override
    public Object prepareRequest(ByteBuf request, long transactionId, RealView real, java.net.InetSocketAddress client,
            StickyKey key) throws DecodeException {
        preparedKeys.add(key);
        return prepareRequest(request, transactionId, real, client);
    }

    @Override
    public Object prepareRequest(ByteBuf request, long transactionId, RealView real, java.net.InetSocketAddress client)
            throws DecodeException {
        if (has(words(request), "unpreparable")) {
            throw new DecodeException(DropReason.MALFORMED, "the toy request refuses to be prepared");
        }
        request.setShort(request.readerIndex() + 1, (int) transactionId);
        return null;
    }

    @Override
    public long responseTransactionId(ByteBuf response) throws DecodeException {
        if (response.readableBytes() < 3 || response.getByte(response.readerIndex()) != 'R') {
            throw new DecodeException(DropReason.MALFORMED, "not a toy response");
        }
        return response.getUnsignedShort(response.readerIndex() + 1);
    }

    @Override
    public ResponseVerdict inspectResponse(ByteBuf response, RealView real, Object context) {
        String text = text(response);
        return has(text, "retry") ? ResponseVerdict.RETRY_ELSEWHERE
                : has(text, "drop") ? ResponseVerdict.DROP : ResponseVerdict.RELAY;
    }

    @Override
    public void prepareResponse(ByteBuf response, long clientTransactionId, Object context) {
        response.setShort(response.readerIndex() + 1, (int) clientTransactionId);
    }
}
