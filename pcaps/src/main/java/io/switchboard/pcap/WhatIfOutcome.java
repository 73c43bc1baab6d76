package io.switchboard.pcap;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One request's outcome in a what-if run, offline or live: one JSON line.
 *
 * @param real     {@code farm/address:port} as configured, null when dropped or not sent to a real
 * @param reason   {@code sticky}, {@code predictor}, {@code reassigned}, {@code backup},
 *                 {@code fan-out}, {@code answered-locally}, {@code relayed} or {@code dropped:<reason>}
 * @param answer   {@code captured} (the real answered with the capture's answer), {@code accepted} (the
 *                 capture has none: the real took it silently), or null when nothing answers through
 *                 the director
 * @param binding  how the key's binding had ended before this request, or null
 */
public record WhatIfOutcome(String file, int frame, String vserver, String keyKind, String key, String real,
                            String reason, boolean violation, String error, String answer, List<String> refusedBy,
                            BindingEnd binding) {

    /** A request that reached no real. */
    static WhatIfOutcome notSent(String file, int frame, String vserver, String keyKind, String key, String reason) {
        return new WhatIfOutcome(file, frame, vserver, keyKind, key, null, reason, false, null, null, List.of(), null);
    }

    /** A frame that could not be read (cut by the snap length, fragments that never completed). */
    static WhatIfOutcome unreadable(String file, int frame, String error) {
        return new WhatIfOutcome(file, frame, null, null, null, null, null, false, error, null, List.of(), null);
    }

    public Map<String, Object> toMap() {
        Map<String, Object> m = new LinkedHashMap<>();
        if (file != null) {
            m.put("file", file);
        }
        m.put("frame", frame);
        if (error != null) {
            m.put("error", error);
            return m;
        }
        m.put("vserver", vserver);
        m.put("key_kind", keyKind);
        m.put("key", key);
        m.put("real", real);
        m.put("reason", reason);
        if (answer != null) {
            m.put("answer", answer);
        }
        if (!refusedBy.isEmpty()) {
            m.put("refused_by", refusedBy);
        }
        if (binding != null) {
            m.put("binding", binding.tag());
        }
        if (violation) {
            m.put("violation", true);
        }
        return m;
    }
}
