package io.switchboard.director.asn;

import io.switchboard.director.spi.MetricSpec;
import io.switchboard.director.spi.PluginModule;
import io.switchboard.director.spi.StickyKind;
import io.switchboard.director.spi.DatagramService;
import java.util.List;

/** WiMAX ASN gateway load balancing: {@code asn}, sticky by MSID. */
public final class AsnModule implements PluginModule {

    /** The WiMAX MSID (the MS's MAC address) from the R6 header, printed aa:bb:cc:dd:ee:ff. */
    public static final StickyKind MSID = StickyKind.of("msid", StickyKind.Format.COLON_HEX);

    @Override
    public List<DatagramService> services() {
        return List.of(new AsnService());
    }

    @Override
    public List<StickyKind> stickyKinds() {
        return List.of(MSID);
    }

    @Override
    public List<MetricSpec> metrics() {
        return List.of(AsnCounters.MESSAGES);
    }
}
