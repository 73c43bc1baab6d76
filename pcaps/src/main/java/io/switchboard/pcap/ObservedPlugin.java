package io.switchboard.pcap;

import io.netty.buffer.ByteBuf;
import io.switchboard.director.spi.RealView;
import io.netty.buffer.ByteBufAllocator;
import io.switchboard.codec.DecodeException;
import io.switchboard.director.Ticker;
import io.switchboard.director.spi.Decision;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.spi.DatagramPlugin;
import io.switchboard.director.spi.PluginContext;
import io.switchboard.director.spi.StickyBindings;
import java.net.InetSocketAddress;

/**
 * A virtual server's plug-in in a live what-if run, seen from outside by the run: everything is the
 * plug-in's own answer, and the run notes what it cannot see on the wire — the sticky key of the
 * request it sent (and how that key's binding had ended when it was classified), what the director
 * kept for each request it forwarded (what the simulated real needs to answer as a real would,
 * {@code simulateAnswerOf}), and why an answer was refused — and the clock time of the lane's
 * last housekeeping ({@link #housekeptAt}): the run waits for it after moving its clock, so that
 * what expires at that time (pending requests, idle flows, the plug-in's own timers) has expired
 * before the next request, each time.
 */
class ObservedPlugin implements DatagramPlugin {

    private final DatagramPlugin plugin;
    private volatile StickyBindings sticky;
    private volatile Ticker ticker = () -> 0;
    private volatile StickyKey key;
    private volatile BindingEnd ended;
    private volatile boolean expectsAnswer = true;
    private volatile long housekept = Long.MIN_VALUE;

    ObservedPlugin(DatagramPlugin plugin) {
        this.plugin = plugin;
    }

    /** The plug-in's own, wrapped as {@link ObservedTransactionPlugin} when it keeps transactions. */
    static ObservedPlugin of(DatagramPlugin plugin) {
        return plugin instanceof io.switchboard.director.spi.TransactionPlugin<?> t
                ? new ObservedTransactionPlugin(t) : new ObservedPlugin(plugin);
    }

    DatagramPlugin plugin() {
        return plugin;
    }

    /** Forgets what the previous request left: call before sending the next. */
    void startRequest() {
        key = null;
        ended = null;
        expectsAnswer = true;
    }

    /** The sticky key of the request sent since {@link #startRequest}, or null when none was classified. */
    StickyKey key() {
        return key;
    }

    /** Whether the plug-in decided that the request sent since {@link #startRequest} expects an answer. */
    boolean expectsAnswer() {
        return expectsAnswer;
    }

    /** How that key's binding had ended when it was classified, or null. */
    BindingEnd ended() {
        return ended;
    }

    /** The clock time of the lane's last housekeeping (its upstream's, then the plug-in's), or Long.MIN_VALUE. */
    long housekeptAt() {
        return housekept;
    }

    @Override
    public Decision decide(ByteBuf datagram, InetSocketAddress sender, ByteBufAllocator alloc) throws DecodeException {
        Decision decision = plugin.decide(datagram, sender, alloc);
        if (decision instanceof Decision.Direct direct) {
            ended = ObservedStickyTables.ended(sticky, direct.key(), ticker.nanos());
            key = direct.key();
            expectsAnswer = direct.expectsAnswer();
        }
        return decision;
    }

    @Override
    public void attach(PluginContext context) {
        sticky = context.sticky();
        ticker = context.ticker();
        plugin.attach(context);
    }

    @Override
    public void realRestarted(RealView real) {
        plugin.realRestarted(real);
    }

    /** The lane's timer, after its upstream's housekeeping at the same time. */
    @Override
    public void housekeep(long nowNanos) {
        plugin.housekeep(nowNanos);
        if (nowNanos > housekept) {
            housekept = nowNanos;
        }
    }

    @Override
    public void close() {
        plugin.close();
    }

    @Override
    public boolean lengthensRequests() {
        return plugin.lengthensRequests();
    }

}
