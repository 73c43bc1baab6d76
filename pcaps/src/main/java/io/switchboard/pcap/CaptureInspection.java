package io.switchboard.pcap;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;
import java.util.function.Consumer;

/**
 * Runs captures through a {@link SignalingInspector}, in capture order, and counts what it saw: the
 * engine of {@code switchboard inspect}. Each recognised message becomes one description; frames that
 * could not be read (cut by the snap length, IPv4 fragments that never completed) become a description
 * with {@code frame} and {@code error} only. {@link #summary()} counts messages by protocol and type.
 */
public final class CaptureInspection {

    private final SignalingInspector inspector;
    private final Map<String, Map<String, Integer>> types = new TreeMap<>();
    private final Map<String, Integer> byProtocol = new TreeMap<>();
    private int packets;
    private int errors;
    private int unreadable;

    public CaptureInspection(SignalingInspector inspector) {
        this.inspector = inspector;
    }

    /** Inspects one capture file; {@code file} is added to each description when {@code label} is not null. */
    public void inspect(Path file, String label, Consumer<Map<String, Object>> out) throws CaptureException {
        UdpExtractor extractor = new UdpExtractor();
        Consumer<CaptureEvent> events = event -> describe(event, label, out);
        try (CaptureFile capture = CaptureFile.open(file)) {
            for (CaptureFrame frame = capture.next(); frame != null; frame = capture.next()) {
                extractor.accept(frame, events);
            }
        }
        extractor.finish(events);
    }

    private void describe(CaptureEvent event, String label, Consumer<Map<String, Object>> out) {
        Map<String, Object> description;
        if (event instanceof UdpDatagram datagram) {
            description = inspector.inspect(datagram);
            if (description == null) {
                return;
            }
            count(description);
        } else {
            CaptureEvent.Unreadable bad = (CaptureEvent.Unreadable) event;
            description = new LinkedHashMap<>();
            description.put("frame", bad.frame());
            description.put("error", bad.reason());
            unreadable++;
        }
        if (label != null) {
            Map<String, Object> labelled = new LinkedHashMap<>();
            labelled.put("file", label);
            labelled.putAll(description);
            description = labelled;
        }
        out.accept(description);
    }

    private void count(Map<String, Object> description) {
        packets++;
        String protocol = (String) description.get("proto");
        byProtocol.merge(protocol, 1, Integer::sum);
        Object type = description.containsKey("code") && "radius".equals(protocol) ? description.get("code")
                : description.get("type");
        types.computeIfAbsent(protocol, p -> new TreeMap<>())
                .merge(type == null ? "unknown" : String.valueOf(type), 1, Integer::sum);
        if (description.containsKey("error")) {
            errors++;
        }
    }

    /**
     * {@code {"packets": N, "errors": E, "unreadable_frames": U, "protocols": {"gtpv2": {"packets": 4,
     * "types": {"32": 2, "33": 2}}, ...}}}; RADIUS is counted by code, the others by message type.
     */
    public Map<String, Object> summary() {
        Map<String, Object> protocols = new LinkedHashMap<>();
        byProtocol.forEach((protocol, count) -> {
            Map<String, Object> p = new LinkedHashMap<>();
            p.put("packets", count);
            p.put("types", types.get(protocol));
            protocols.put(protocol, p);
        });
        Map<String, Object> summary = new LinkedHashMap<>();
        summary.put("packets", packets);
        summary.put("errors", errors);
        summary.put("unreadable_frames", unreadable);
        summary.put("protocols", protocols);
        return summary;
    }
}
