package io.switchboard.pcap;

import io.micrometer.core.instrument.MeterRegistry;
import io.switchboard.director.VirtualServer;
import io.switchboard.director.config.DebugCaptureConfig;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * The debug captures of a node, at most one per virtual server, started and stopped by the admin
 * API or from start-up ({@code debug-capture.start}). Starting sets the virtual server's tap;
 * stopping removes it first, then lets the writer finish the queued datagrams.
 */
public final class DebugCaptures implements AutoCloseable {

    private final DebugCaptureConfig config;
    private final Map<String, VirtualServer> virtualServers;
    private final MeterRegistry registry;
    private final Map<String, DebugCapture> running = new TreeMap<>();

    public DebugCaptures(DebugCaptureConfig config, Map<String, VirtualServer> virtualServers, MeterRegistry registry) {
        this.config = config;
        this.virtualServers = virtualServers;
        this.registry = registry;
    }

    /** Starts the virtual servers named in the configuration. */
    public void startConfigured() throws IOException {
        for (String name : config.start()) {
            start(name);
        }
    }

    /**
     * Starts capturing {@code vserver} (nothing changes when it already is).
     *
     * @throws IllegalArgumentException when there is no such virtual server
     * @throws IOException              when the capture directory or file cannot be made
     */
    public synchronized Map<String, Object> start(String vserver) throws IOException {
        VirtualServer vs = virtualServer(vserver);
        DebugCapture capture = running.get(vserver);
        if (capture == null) {
            capture = new DebugCapture(vserver, config.directory(), config.fileBytes(), config.files(), config.queue(),
                    registry);
            running.put(vserver, capture);
            vs.tap(capture);
        }
        return status(capture, true);
    }

    /** Stops capturing {@code vserver}; its files stay. */
    public synchronized Map<String, Object> stop(String vserver) {
        VirtualServer vs = virtualServer(vserver);
        DebugCapture capture = running.remove(vserver);
        if (capture == null) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("vserver", vserver);
            m.put("capturing", false);
            return m;
        }
        vs.tap(null);
        capture.close();
        return status(capture, false);
    }

    /** Every running capture. */
    public synchronized List<Map<String, Object>> status() {
        return running.values().stream().map(c -> status(c, true)).toList();
    }

    private VirtualServer virtualServer(String name) {
        VirtualServer vs = virtualServers.get(name);
        if (vs == null) {
            throw new IllegalArgumentException("no virtual server named '" + name + "'");
        }
        return vs;
    }

    private static Map<String, Object> status(DebugCapture capture, boolean capturing) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("vserver", capture.vserver());
        m.put("capturing", capturing);
        m.put("files", capture.files().stream().map(Object::toString).toList());
        m.put("captured", capture.capturedCount());
        m.put("dropped", capture.droppedCount());
        return m;
    }

    @Override
    public synchronized void close() {
        for (String name : List.copyOf(running.keySet())) {
            stop(name);
        }
    }
}
