package io.switchboard.director.gtp;

import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.PluginModule;
import io.switchboard.director.spi.ProbeType;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.spi.DatagramService;
import java.util.List;

/** GPRS/EPC load balancing: {@code gtp} and {@code gtp-inspect}, sticky by IMSI, probed by GTP Echo. */
public final class GtpModule implements PluginModule {

    /**
     * The IMSI from GTP (v0 TID, v1 IE 2, v2 IE 1), as its ASCII digits. Admin API answers also carry
     * it as {@code imsi}, as they did before keys had kinds.
     */
    public static final StickyKind IMSI = StickyKind.of("imsi", StickyKind.Format.TEXT).listedUnderItsName();

    @Override
    public List<DatagramService> services() {
        return List.of(new GtpService(), new GtpInspectService());
    }

    @Override
    public List<StickyKind> stickyKinds() {
        return List.of(IMSI);
    }

    @Override
    public List<ProbeType> probeTypes() {
        return List.of(GtpEchoCheck.TYPE);
    }

    @Override
    public List<MetricSpec> metrics() {
        return GtpMeters.ALL;
    }
}
