package io.switchboard.director.testing;

import java.util.Map;
import java.util.LinkedHashMap;
import io.switchboard.director.real.Farms;
import io.switchboard.director.config.FailureDetection;
import io.switchboard.director.config.FarmConfig;
import io.switchboard.director.config.PredictorKind;
import io.switchboard.director.config.RealConfig;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/** Configuration records for engine tests, built from address literals (no name lookups). */
public final class TestFarms {

    /** One unanswered request fails a real: handy when a test only needs a FAILED real. */
    public static final FailureDetection FAIL_AT_ONCE = new FailureDetection(1, 1, Duration.ofSeconds(60));

    private TestFarms() {
    }

    public static InetAddress ip(String literal) {
        try {
            return InetAddress.getByName(literal); // a literal: no lookup happens
        } catch (UnknownHostException e) {
            throw new IllegalArgumentException(literal, e);
        }
    }

    /** An in-service real on port 2123 without a maxconns limit. */
    public static RealConfig real(String address, int weight) {
        return new RealConfig(ip(address), 2123, weight, OptionalInt.empty(), true);
    }

    public static RealConfig real(String address, int weight, int maxconns) {
        return new RealConfig(ip(address), 2123, weight, OptionalInt.of(maxconns), true);
    }

    /** The id the engine gives a real built by {@link #real}: {@code address:port}. */
    public static String id(String address) {
        return address + ":2123";
    }

    public static FarmConfig farm(String name, PredictorKind predictor, FailureDetection failure,
            RealConfig... reals) {
        return new FarmConfig(name, predictor, failure, Arrays.asList(reals), Optional.empty());
    }

    public static FarmConfig farm(String name, PredictorKind predictor, FailureDetection failure,
            String backup, List<RealConfig> reals) {
        return new FarmConfig(name, predictor, failure, reals, Optional.of(backup));
    }

    /** The engine's farms over {@code configs}, in their order. */
    public static Farms farms(FarmConfig... configs) {
        Map<String, FarmConfig> map = new LinkedHashMap<>();
        for (FarmConfig c : configs) {
            map.put(c.name(), c);
        }
        return new Farms(map);
    }
}
