package io.switchboard.l4.dispatch;

import io.switchboard.director.RateLimitedLog;
import io.switchboard.director.Ticker;
import java.io.EOFException;
import java.time.Duration;
import java.util.concurrent.TimeoutException;
import org.pcap4j.core.BpfProgram;
import org.pcap4j.core.NotOpenException;
import org.pcap4j.core.PcapHandle;
import org.pcap4j.core.PcapNativeException;
import org.pcap4j.core.PcapNetworkInterface;
import org.slf4j.LoggerFactory;

/**
 * One thread reading the frames that arrive on one interface (direction in: not the ones the
 * director sends) and handing each to a dispatcher. A frame that makes the dispatcher throw is
 * counted and logged (rate-limited); the loop goes on until closed.
 */
final class CaptureLoop implements AutoCloseable {

    private static final RateLimitedLog LOG =
            new RateLimitedLog(LoggerFactory.getLogger(CaptureLoop.class), Duration.ofSeconds(10), Ticker.SYSTEM);

    /** What a capture loop does with each frame (its buffer may be changed and is not kept). */
    interface FrameHandler {
        void handle(byte[] frame, int length, FrameView view);
    }

    private static final long ERROR_BACKOFF_MILLIS = 100;

    private final String interfaceName;
    private final PcapHandle handle;
    private final Thread thread;
    private final Runnable onError;
    private volatile boolean running = true;

    /** @param filter a BPF expression, or null for every frame */
    CaptureLoop(String name, String interfaceName, String filter, FrameHandler handler, Runnable onError)
            throws PcapNativeException, NotOpenException {
        this.interfaceName = interfaceName;
        this.onError = onError;
        this.handle = new PcapHandle.Builder(interfaceName).snaplen(65_535)
                .promiscuousMode(PcapNetworkInterface.PromiscuousMode.PROMISCUOUS)
                .timeoutMillis(100).immediateMode(true).direction(PcapHandle.PcapDirection.IN).build();
        if (filter != null) {
            handle.setFilter(filter, BpfProgram.BpfCompileMode.OPTIMIZE);
        }
        this.thread = new Thread(() -> run(handler), "dispatch-" + name + "-" + interfaceName);
        thread.setDaemon(true);
    }

    void start() {
        thread.start();
    }

    private void run(FrameHandler handler) {
        FrameView view = new FrameView();
        while (running) {
            byte[] frame;
            try {
                frame = handle.getNextRawPacketEx();
            } catch (TimeoutException quiet) {
                continue; // the read timeout passed without a frame: look at running again
            } catch (NotOpenException | EOFException closed) {
                return;
            } catch (PcapNativeException e) {
                // The interface went away or down (no frame to count): do not spin; try again shortly.
                LOG.warn("capture on {} failed: {}; retrying", interfaceName, e.getMessage());
                try {
                    Thread.sleep(ERROR_BACKOFF_MILLIS);
                } catch (InterruptedException interrupted) {
                    return;
                }
                continue;
            }
            try {
                handler.handle(frame, frame.length, view);
            } catch (RuntimeException e) {
                onError.run();
                LOG.warn("capture on {}: frame of {} octets dropped: {}", interfaceName, frame.length, e.toString());
            }
        }
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        thread.join(2_000);
        handle.close();
    }
}
