package io.switchboard.director.radius;

import static io.switchboard.director.radius.DaeTestBed.AAA_SECRET;
import static io.switchboard.director.radius.DaeTestBed.NAS_SECRET;
import static io.switchboard.director.radius.DaeTestBed.accounting;
import static io.switchboard.director.radius.DaeTestBed.radclient;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.codec.radius.RadiusAttributeType;
import io.switchboard.codec.radius.RadiusCode;
import io.switchboard.director.Director;
import io.switchboard.director.NodeSlot;
import io.switchboard.director.shared.SharedTables;
import io.switchboard.director.sticky.StickyTableFactory;
import io.vertx.core.Vertx;
import io.vertx.core.VertxOptions;
import java.net.InetSocketAddress;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Dynamic Authorization (RFC 5176) through the director against radclient (Debian
 * {@code freeradius-utils}, which verifies every answer's authenticator with its secret): radclient
 * as the NAS sends accounting through {@code radius-acct}, so that the director learns the session;
 * radclient as the AAA (the farm's real, 127.0.23.5) sends {@code coa} and {@code disconnect} to
 * the {@code dae} listener; a NAS stand-in answers on port 3799 of its own address, 127.0.23.7.
 */
class DynamicAuthorizationIT {

    static final String VIP = "127.0.23.1";
    static final String AAA = "127.0.23.5";
    static final String NAS = "127.0.23.7";

    @TempDir
    Path work;

    private RadiusDirectorIT.Responder aaa;
    private DaeTestBed.NasStandIn nas;
    private Vertx vertx;
    private Director director;
    private InetSocketAddress acct;
    private InetSocketAddress dae;

    @BeforeEach
    void start() throws Exception {
        aaa = new RadiusDirectorIT.Responder(AAA, AAA_SECRET);
        nas = new DaeTestBed.NasStandIn(NAS, DaeOptions.DEFAULT_DAE_PORT);
        director = DaeTestBed.node(VIP, aaa, "127.0.23.0", DaeOptions.DEFAULT_DAE_PORT, StickyTableFactory.IN_MEMORY,
                NodeSlot.SINGLE, SharedTables.IN_MEMORY);
        vertx = Vertx.vertx(new VertxOptions().setEventLoopPoolSize(1));
        director.start(vertx).toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        acct = director.localAddress("radius-acct");
        dae = director.localAddress("dae");
    }

    @AfterEach
    void stop() throws Exception {
        director.stop().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        vertx.close().toCompletionStage().toCompletableFuture().get(10, TimeUnit.SECONDS);
        nas.close();
        aaa.close();
    }

    @Test
    void coaAndDisconnectForALearntSessionReachItsNasAndTheAcksComeBackNakAfterItsStop() throws Exception {
        DynamicAuthorization plugin = DaeTestBed.plugin(director);
        FreeRadiusProcess.Result start = radclient(work, NAS, acct, "acct", NAS_SECRET,
                accounting("Start", "dae-session-1", "alice", "10.23.0.7", "491700000001"));
        assertThat(start.output()).contains("Received Accounting-Response");

        // By Acct-Session-Id: at the NAS re-signed with its secret, the ACK back under the AAA's.
        FreeRadiusProcess.Result coa = radclient(work, AAA, dae, "coa", AAA_SECRET,
                "Acct-Session-Id = \"dae-session-1\"\nFilter-Id = \"gold\"");
        assertThat(coa.output()).contains("Received CoA-ACK");
        assertThat(coa.exit()).as(coa.output()).isZero();
        assertThat(nas.received).hasSize(1);
        DaeTestBed.NasStandIn.Received first = nas.received.get(0);
        assertThat(first.verified()).as("signed with the NAS's secret").isTrue();
        assertThat(first.view().code()).isEqualTo(RadiusCode.COA_REQUEST.value());
        assertThat(first.text(11)).as("Filter-Id").isEqualTo("gold");
        assertThat(first.from()).as("from the DAE listener").isEqualTo(dae);

        // By Framed-IP-Address and User-Name: the same session.
        FreeRadiusProcess.Result disconnect = radclient(work, AAA, dae, "disconnect", AAA_SECRET,
                "Framed-IP-Address = 10.23.0.7\nUser-Name = \"alice\"");
        assertThat(disconnect.output()).contains("Received Disconnect-ACK");
        assertThat(nas.received).hasSize(2);
        assertThat(nas.received.get(1).verified()).isTrue();
        assertThat(nas.received.get(1).view().code()).isEqualTo(RadiusCode.DISCONNECT_REQUEST.value());
        assertThat(plugin.count("relayed", RadiusCode.COA_REQUEST)).isEqualTo(1);
        assertThat(plugin.count("relayed", RadiusCode.DISCONNECT_REQUEST)).isEqualTo(1);
        assertThat(plugin.count("answers", RadiusCode.COA_ACK)).isEqualTo(1);
        assertThat(plugin.count("answers", RadiusCode.DISCONNECT_ACK)).isEqualTo(1);

        // A session attribute that contradicts the session found: no session (RFC 5176 §3).
        FreeRadiusProcess.Result other = radclient(work, AAA, dae, "coa", AAA_SECRET,
                "Acct-Session-Id = \"dae-session-1\"\nUser-Name = \"bob\"");
        assertThat(other.output()).contains("Received CoA-NAK").contains("Session-Context-Not-Found");

        // After its Stop the session is unknown: CoA-NAK with Error-Cause 503, nothing at the NAS.
        FreeRadiusProcess.Result stop = radclient(work, NAS, acct, "acct", NAS_SECRET,
                accounting("Stop", "dae-session-1", "alice", "10.23.0.7", "491700000001"));
        assertThat(stop.output()).contains("Received Accounting-Response");
        FreeRadiusProcess.Result gone = radclient(work, AAA, dae, "coa", AAA_SECRET,
                "Acct-Session-Id = \"dae-session-1\"\nFilter-Id = \"gold\"");
        assertThat(gone.output()).contains("Received CoA-NAK").contains("Session-Context-Not-Found");
        FreeRadiusProcess.Result goneByIp = radclient(work, AAA, dae, "disconnect", AAA_SECRET,
                "Framed-IP-Address = 10.23.0.7");
        assertThat(goneByIp.output()).contains("Received Disconnect-NAK").contains("Session-Context-Not-Found");
        assertThat(nas.received).hasSize(2);
        assertThat(plugin.count("session-not-found", RadiusCode.COA_REQUEST)).isEqualTo(2);
        assertThat(plugin.count("session-not-found", RadiusCode.DISCONNECT_REQUEST)).isEqualTo(1);
    }

    @Test
    void aRequestFromAnAddressThatIsNoRealIsDroppedAndCountedAndOneWithTheWrongSecretToo() throws Exception {
        FreeRadiusProcess.Result start = radclient(work, NAS, acct, "acct", NAS_SECRET,
                accounting("Start", "dae-session-2", "carol", "10.23.0.8", "491700000002"));
        assertThat(start.output()).contains("Received Accounting-Response");
        var metrics = director.virtualServers().get("dae").metrics();

        // The NAS's own address (a client, not a real) with the AAA's secret: no answer.
        FreeRadiusProcess.Result stranger = radclient(work, NAS, dae, "coa", AAA_SECRET,
                "Acct-Session-Id = \"dae-session-2\"");
        assertThat(stranger.output()).doesNotContain("Received CoA");
        await().atMost(Duration.ofSeconds(5)).until(() -> metrics.droppedCount(DynamicAuthorization.NOT_A_REAL) >= 1);

        FreeRadiusProcess.Result forged = radclient(work, AAA, dae, "coa", "not-the-secret",
                "Acct-Session-Id = \"dae-session-2\"");
        assertThat(forged.output()).doesNotContain("Received CoA");
        await().atMost(Duration.ofSeconds(5)).until(() -> metrics.droppedCount(RadiusPlugin.BAD_AUTHENTICATOR) >= 1);
        assertThat(nas.received).isEmpty();

        // The session is there all along.
        FreeRadiusProcess.Result coa = radclient(work, AAA, dae, "coa", AAA_SECRET, "Acct-Session-Id = \"dae-session-2\"");
        assertThat(coa.output()).contains("Received CoA-ACK");
        assertThat(nas.received).hasSize(1);
        assertThat(nas.received.get(0).text(RadiusAttributeType.ACCT_SESSION_ID.value())).isEqualTo("dae-session-2");
    }
}
