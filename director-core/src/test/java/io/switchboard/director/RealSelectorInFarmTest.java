package io.switchboard.director;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.farms;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.real.Farms;
import io.switchboard.director.real.RealState;
import io.switchboard.director.sticky.InMemoryStickyTable;
import io.switchboard.director.sticky.StickyKey;
import io.switchboard.director.sticky.TestKinds;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/**
 * A request a plug-in places in another farm than its virtual server's (a GTP APN map's,
 * {@code Decision.Placement.InFarm}): selected by that farm's predictor, bound in the virtual server's
 * table, sticky there afterwards.
 */
class RealSelectorInFarmTest {

    private static final StickyKey ALICE_AT_IMS = StickyKey.parse(TestKinds.IMSI, "001010000000001@ims");

    private final Farms farms = farms(
            farm("gw", PredictorKind.ROUNDROBIN, FAIL_AT_ONCE, real("10.0.0.1", 1)),
            farm("ims", PredictorKind.LEASTCONNS, FAIL_AT_ONCE, real("10.0.2.1", 1), real("10.0.2.2", 1)));
    private final InMemoryStickyTable sticky = new InMemoryStickyTable("gtp/imsi", Duration.ofMinutes(5), 100);
    private final RealSelector gw = new RealSelector(farms, farms.farm("gw"), sticky);


    @Test
    void aSelectionInAnotherFarmBindsTheKeyThereInTheVirtualServersTable() {
        RealSelector ims = gw.inFarm("ims");
        Selection first = ims.select(ALICE_AT_IMS, 0);
        assertThat(first.real().farm()).isEqualTo("ims");
        assertThat(first.reason()).isEqualTo(Selection.Reason.PREDICTOR);
        assertThat(sticky.lookup(ALICE_AT_IMS, 0)).isEqualTo(first.real().binding());
        Selection again = gw.inFarm("ims").select(ALICE_AT_IMS, 1);
        assertThat(again.real()).isSameAs(first.real());
        assertThat(again.reason()).isEqualTo(Selection.Reason.STICKY);
        assertThat(first.real().state()).isEqualTo(RealState.OPERATIONAL);
    }

    @Test
    void itsOwnFarmIsItselfAndAFarmNoneHasIsNone() {
        assertThat(gw.inFarm("gw")).isSameAs(gw);
        assertThat(gw.inFarm("ims")).as("made once").isSameAs(gw.inFarm("ims"));
        assertThat(gw.inFarm("nowhere")).isNull();
    }
}
