package io.switchboard.director.gtp.demo;

import static org.assertj.core.api.Assertions.assertThat;

import io.switchboard.codec.gtp.v2.GtpV2Cause;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.time.Duration;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * The demo's simulated SGW and PGW talking to each other directly, without a director: what the demo
 * relies on them to do when it counts contexts, refusals and deletes.
 */
class SimulatedPeersTest {

    private SimulatedPgw pgw;
    private SimulatedSgw sgw;

    @BeforeEach
    void start() throws Exception {
        pgw = new SimulatedPgw("pgw-t", (Inet4Address) InetAddress.getByName("127.0.0.1"));
        sgw = new SimulatedSgw((Inet4Address) InetAddress.getByName("127.0.0.21"), pgw.address(),
                Duration.ofSeconds(2));
    }

    @AfterEach
    void stop() {
        sgw.close();
        pgw.close();
    }

    @Test
    void anAcceptedCreateKeepsAContextUntilItsDeleteNamesItsTeid() throws Exception {
        SimulatedSgw.Session session = sgw.create("001010000000042", "internet", 5);

        assertThat(session.accepted()).isTrue();
        assertThat(session.answers()).isEqualTo(1);
        assertThat(session.peer().ipv4()).isEqualTo(pgw.address().getAddress());
        assertThat(pgw.contexts()).hasSize(1);
        SimulatedPgw.Context context = pgw.contexts().get(session.peer().teid());
        assertThat(context).isEqualTo(new SimulatedPgw.Context("001010000000042", "internet", 5, session.ownTeid()));

        assertThat(sgw.delete(session)).isEqualTo(GtpV2Cause.REQUEST_ACCEPTED.value());
        assertThat(pgw.contexts()).isEmpty();
        assertThat(sgw.delete(session)).isEqualTo(GtpV2Cause.CONTEXT_NOT_FOUND.value());
        assertThat(pgw.creates()).isEqualTo(1);
        assertThat(pgw.deletes()).isEqualTo(2);
    }

    @Test
    void outOfResourcesItRefusesCreatesWithCause73AndKeepsNothing() throws Exception {
        pgw.outOfResources(true);

        SimulatedSgw.Session refused = sgw.create("001010000000043", "ims", 6);

        assertThat(refused.accepted()).isFalse();
        assertThat(refused.cause()).isEqualTo(GtpV2Cause.NO_RESOURCES_AVAILABLE.value()).isEqualTo(73);
        assertThat(pgw.refused()).isEqualTo(1);
        assertThat(pgw.contexts()).isEmpty();

        pgw.outOfResources(false);
        assertThat(sgw.create("001010000000043", "ims", 6).accepted()).isTrue();
        assertThat(pgw.refused()).isEqualTo(1);
        assertThat(pgw.contexts()).hasSize(1);
    }
}
