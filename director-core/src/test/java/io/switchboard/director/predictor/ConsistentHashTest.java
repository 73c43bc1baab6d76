package io.switchboard.director.predictor;

import static io.switchboard.director.testing.TestFarms.FAIL_AT_ONCE;
import static io.switchboard.director.testing.TestFarms.farm;
import static io.switchboard.director.testing.TestFarms.ip;
import static io.switchboard.director.testing.TestFarms.real;
import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import io.switchboard.director.sticky.TestKinds;
import io.switchboard.director.real.RealServer;
import io.switchboard.director.real.RealState;
import io.switchboard.director.real.ServerFarm;
import io.switchboard.director.sticky.StickyKey;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.assertj.core.data.Percentage;
import org.junit.jupiter.api.Test;

class ConsistentHashTest {

    private static final int KEYS = 10_000;

    /** 10,000 consecutive 15-digit IMSIs of one PLMN: the hardest case for a weak hash. */
    private static final List<StickyKey> IMSIS = imsis();

    private static List<StickyKey> imsis() {
        List<StickyKey> keys = new ArrayList<>(KEYS);
        for (int i = 0; i < KEYS; i++) {
            String digits = String.format("00101%010d", 123_400_000L + i);
            keys.add(StickyKey.of(TestKinds.IMSI, digits.getBytes(StandardCharsets.US_ASCII)));
        }
        return keys;
    }

    private static ServerFarm farmOf(RealConfig... reals) {
        return new ServerFarm(farm("gw", PredictorKind.HASH, FAIL_AT_ONCE, reals), 0);
    }

    private static ServerFarm fourEqualReals() {
        return farmOf(real("10.0.0.1", 8), real("10.0.0.2", 8), real("10.0.0.3", 8), real("10.0.0.4", 8));
    }

    /** The id of the real each key is sent to, in key order. */
    private static List<String> assign(ServerFarm farm) {
        List<String> ids = new ArrayList<>(KEYS);
        for (StickyKey key : IMSIS) {
            RealServer r = farm.pick(key.hash());
            ids.add(r == null ? null : r.id());
        }
        return ids;
    }

    private static Map<String, Integer> counts(List<String> assignment) {
        Map<String, Integer> counts = new HashMap<>();
        for (String id : assignment) {
            counts.merge(id, 1, Integer::sum);
        }
        return counts;
    }

    private static void failNow(RealServer real) {
        real.requestForwarded();
        real.requestUnanswered(ip("192.0.2.1"), 0);
        assertThat(real.state()).isEqualTo(RealState.FAILED);
    }

    @Test
    void consecutiveImsisSpreadEvenlyOverEqualReals() {
        ServerFarm farm = fourEqualReals();

        Map<String, Integer> counts = counts(assign(farm));

        assertThat(counts).hasSize(4).doesNotContainKey(null);
        for (RealServer r : farm.reals()) {
            assertThat(counts.get(r.id())).as(r.id()).isCloseTo(KEYS / 4, Percentage.withPercentage(15));
        }
    }

    @Test
    void weightsTwoOneOneShareTheKeysTwoOneOne() {
        ServerFarm farm = farmOf(real("10.0.0.1", 2), real("10.0.0.2", 1), real("10.0.0.3", 1));

        Map<String, Integer> counts = counts(assign(farm));

        assertThat(counts.get("10.0.0.1:2123")).isCloseTo(KEYS / 2, Percentage.withPercentage(15));
        assertThat(counts.get("10.0.0.2:2123")).isCloseTo(KEYS / 4, Percentage.withPercentage(15));
        assertThat(counts.get("10.0.0.3:2123")).isCloseTo(KEYS / 4, Percentage.withPercentage(15));
    }

    @Test
    void theSameKeyAlwaysGoesToTheSameReal() {
        ServerFarm farm = fourEqualReals();

        assertThat(assign(farm)).isEqualTo(assign(farm));
    }

    @Test
    void twoIndependentlyBuiltFarmsAgreeOnEveryKey() {
        List<String> first = assign(fourEqualReals());
        List<String> second = assign(fourEqualReals());

        assertThat(second).isEqualTo(first);
    }

    @Test
    void aFailedRealsKeysSpreadOverTheOthersAndAlmostAllOtherKeysStay() {
        ServerFarm farm = fourEqualReals();
        List<String> before = assign(farm);
        RealServer failed = farm.reals().get(2);

        failNow(failed);
        List<String> after = assign(farm);

        Map<String, Integer> movedTo = new HashMap<>();
        int others = 0;
        int othersMoved = 0;
        for (int i = 0; i < KEYS; i++) {
            assertThat(after.get(i)).isNotNull().isNotEqualTo(failed.id());
            if (before.get(i).equals(failed.id())) {
                movedTo.merge(after.get(i), 1, Integer::sum);
            } else {
                others++;
                if (!after.get(i).equals(before.get(i))) {
                    othersMoved++;
                }
            }
        }
        int orphans = KEYS - others;
        assertThat(movedTo).hasSize(3);
        for (int count : movedTo.values()) {
            assertThat(count).isCloseTo(orphans / 3, Percentage.withPercentage(25));
        }
        // Maglev's bound, not the exact property (see the disabled test below): a few percent at most.
        assertThat(othersMoved).isLessThan(others / 20);
    }

    @Test
    void whenARealFailsOnlyItsOwnKeysMove() {
        ServerFarm farm = fourEqualReals();
        List<String> before = assign(farm);
        RealServer failed = farm.reals().get(2);

        failNow(failed);
        List<String> after = assign(farm);

        List<Integer> strayed = new ArrayList<>();
        for (int i = 0; i < KEYS; i++) {
            if (!before.get(i).equals(failed.id()) && !after.get(i).equals(before.get(i))) {
                strayed.add(i);
            }
        }
        assertThat(strayed.size()).as("keys of live reals that moved, first ones: %s",
                strayed.subList(0, Math.min(5, strayed.size()))).isZero();
    }

    @Test
    void aThrottledRealsKeysGoElsewhereAndComeBack() {
        ServerFarm farm = farmOf(real("10.0.0.1", 8), real("10.0.0.2", 8, 1), real("10.0.0.3", 8));
        List<String> before = assign(farm);
        RealServer throttled = farm.reals().get(1);
        throttled.requestForwarded();
        assertThat(throttled.state()).isEqualTo(RealState.MAXCONNS_THROTTLED);

        List<String> during = assign(farm);
        for (int i = 0; i < KEYS; i++) {
            assertThat(during.get(i)).isNotEqualTo(throttled.id());
            if (!before.get(i).equals(throttled.id())) {
                // The table is not rebuilt for a throttle: every other key stays exactly where it was.
                assertThat(during.get(i)).isEqualTo(before.get(i));
            }
        }

        throttled.requestAnswered();
        assertThat(assign(farm)).isEqualTo(before);
    }

    @Test
    void aRealBackFromFailureGetsItsKeysBack() {
        ServerFarm farm = fourEqualReals();
        List<String> before = assign(farm);
        RealServer r = farm.reals().get(0);
        failNow(r);
        assertThat(assign(farm)).doesNotContain(r.id());

        r.putInService();

        assertThat(assign(farm)).isEqualTo(before);
    }

    @Test
    void noRealWhenNoneMayTakeWork() {
        ServerFarm farm = farmOf(real("10.0.0.1", 8), real("10.0.0.2", 8));
        farm.reals().forEach(RealServer::takeOutOfService);

        assertThat(farm.pick(IMSIS.get(0).hash())).isNull();
    }
}
