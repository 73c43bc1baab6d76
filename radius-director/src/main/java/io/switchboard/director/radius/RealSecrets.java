package io.switchboard.director.radius;

import io.switchboard.director.radius.radsec.RadsecTransport;
import io.switchboard.director.spi.FarmView;
import io.switchboard.director.spi.FarmViews;
import io.switchboard.director.spi.RealView;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * The RADIUS secret each real shares with the director (its {@code secret} key; {@code radsec} for a
 * real reached by RadSec), as bytes, by the real's slot. A reload may add reals or change a secret: the table is read again from the farms
 * when their {@link FarmViews#version()} moved, so a request pays one volatile read and an array index.
 * An answer from a real that left is verified with the secret it had (a slot is never reused).
 */
final class RealSecrets {

    private final FarmViews farms;
    /** The version read and the secrets then, replaced together. */
    private volatile Snapshot snapshot;

    private record Snapshot(long version, byte[][] bySlot) {
    }

    RealSecrets(FarmViews farms) {
        this.farms = farms;
        this.snapshot = read(farms.version(), new byte[0][]);
    }

    /** The real's own secret, or {@code fallback} (the client's) when it has none. */
    byte[] of(RealView real, byte[] fallback) {
        Snapshot s = snapshot;
        if (s.version() != farms.version()) {
            s = refresh();
        }
        int slot = real.slot();
        byte[] secret = slot < s.bySlot().length ? s.bySlot()[slot] : null;
        return secret == null ? fallback : secret;
    }

    private synchronized Snapshot refresh() {
        Snapshot s = snapshot;
        long version = farms.version();
        if (s.version() != version) {
            s = read(version, s.bySlot());
            snapshot = s;
        }
        return s;
    }

    /** The secrets of the farms' reals now, over those of reals that left ({@code before}). */
    private Snapshot read(long version, byte[][] before) {
        int slots = before.length;
        for (FarmView farm : farms.all()) {
            for (RealView real : farm.reals()) {
                slots = Math.max(slots, real.slot() + 1);
            }
        }
        byte[][] bySlot = Arrays.copyOf(before, slots);
        for (FarmView farm : farms.all()) {
            for (RealView real : farm.reals()) {
                // RFC 6614 §2.3: a RadSec hop's secret is "radsec", whatever the real's secret says.
                bySlot[real.slot()] = RadiusModule.radsec(real) ? RadsecTransport.SECRET_BYTES
                        : real.value(RadiusModule.SECRET).map(s -> s.getBytes(StandardCharsets.UTF_8)).orElse(null);
            }
        }
        return new Snapshot(version, bySlot);
    }
}
