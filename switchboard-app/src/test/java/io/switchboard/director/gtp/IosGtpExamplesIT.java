package io.switchboard.director.gtp;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.switchboard.app.Node;
import io.switchboard.app.ios.IosLoopback;
import io.switchboard.director.real.RealState;
import java.io.IOException;
import java.net.DatagramPacket;
import java.net.DatagramSocket;
import java.net.InetSocketAddress;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The GTP examples (src/test/resources/ios/gtp.ios and gtp-inspect.ios) run as {@code run -c} runs
 * them, against GGSN stand-ins on loopback ({@link IosLoopback} substitutes 127.0.0.1 and ephemeral
 * ports for the example's addresses): weighted round robin in IOS order from the weights, IMSI
 * stickiness, in-band failure detection from {@code faildetect}, cause-code inspection and the
 * backup farm.
 */
class IosGtpExamplesIT {

    private final List<GtpResponder> ggsns = new ArrayList<>();
    private Node node;

    @AfterEach
    void stop() throws InterruptedException {
        if (node != null) {
            node.close();
        }
        for (GtpResponder g : ggsns) {
            g.close();
        }
    }

    private GtpResponder ggsn() throws IOException {
        GtpResponder g = new GtpResponder();
        ggsns.add(g);
        return g;
    }

    private static InetSocketAddress at(GtpResponder g) {
        return new InetSocketAddress("127.0.0.1", g.port());
    }

    /** A Create PDP Context Request to the virtual server; the response's cause, or -1 when none came. */
    private int create(String vserver, String imsi, int sequence, int nsapi, int timeoutMillis) throws IOException {
        byte[] request = GtpMessages.v1CreateRequest(imsi, sequence, nsapi);
        try (DatagramSocket sgsn = new DatagramSocket(new InetSocketAddress("127.0.0.1", 0))) {
            sgsn.setSoTimeout(timeoutMillis);
            sgsn.send(new DatagramPacket(request, request.length, node.director().localAddress(vserver)));
            DatagramPacket in = new DatagramPacket(new byte[2048], 2048);
            try {
                sgsn.receive(in);
            } catch (SocketTimeoutException e) {
                return -1;
            }
            byte[] answer = Arrays.copyOf(in.getData(), in.getLength());
            assertThat(answer[1]).as("Create PDP Context Response").isEqualTo((byte) 17);
            assertThat(answer[12]).as("Cause IE first (TS 29.060 §7.3.2)").isEqualTo((byte) 1);
            return answer[13] & 0xff;
        }
    }

    private static String imsi(int n) {
        return String.format("26242%010d", n);
    }

    @Test
    void gtpExampleBalancesByWeightKeepsImsisStickyAndFailsASilentGgsn() throws Exception {
        GtpResponder a = ggsn();
        GtpResponder b = ggsn();
        GtpResponder c = ggsn();
        node = IosLoopback.start("gtp.ios", Optional.empty(),
                Map.of("10.20.10.1", at(a), "10.20.10.2", at(b), "10.20.10.3", at(c)));

        // weight 3 / 1 / 2: six new subscribers go A, A, A, B, C, C (IOS WRR order).
        for (int n = 1; n <= 6; n++) {
            assertThat(create("FOR_GPRS", imsi(n), n, 5, 5000)).isEqualTo(128);
        }
        assertThat(a.imsis()).containsExactly(imsi(1), imsi(2), imsi(3));
        assertThat(b.imsis()).containsExactly(imsi(4));
        assertThat(c.imsis()).containsExactly(imsi(5), imsi(6));

        // sticky gtp imsi: a second context of subscriber 4 goes to B again, not to the next in turn.
        assertThat(create("FOR_GPRS", imsi(4), 7, 6, 5000)).isEqualTo(128);
        assertThat(b.imsis()).containsExactly(imsi(4), imsi(4));

        // faildetect numconns 2 numclients 1: B goes silent; two creates left unanswered fail it.
        var realB = node.director().farms().real("GPRS", "127.0.0.1:" + b.port());
        b.socket.close();
        for (int n = 4; realB.state() != RealState.FAILED && n < 8; n++) {
            create("FOR_GPRS", imsi(4), 8 + n, n, 3000);
        }
        await().atMost(Duration.ofSeconds(10)).until(() -> realB.state() == RealState.FAILED);
        // retry 20: for now, new subscribers go to A and C only.
        int before = a.imsis().size() + c.imsis().size();
        for (int n = 20; n < 26; n++) {
            assertThat(create("FOR_GPRS", imsi(n), n, 5, 5000)).isEqualTo(128);
        }
        assertThat(a.imsis().size() + c.imsis().size()).isEqualTo(before + 6);
        assertThat(realB.retryNanos()).isEqualTo(Duration.ofSeconds(20).toNanos());
    }

    @Test
    void gtpInspectExampleHidesResourceCausesResendsAndFallsBackToTheBackupFarm() throws Exception {
        GtpResponder a = ggsn();
        GtpResponder b = ggsn();
        GtpResponder backup = ggsn();
        a.cause = 199; // TS 29.060 §7.7.1 "No resources available"
        node = IosLoopback.start("gtp-inspect.ios", Optional.empty(),
                Map.of("10.20.10.1", at(a), "10.20.10.2", at(b), "10.20.20.1", at(backup)));

        // Until A has seen a create, every create is answered 128: A's 199 is never relayed; the
        // request it refused reached B.
        for (int n = 1; a.imsis().isEmpty(); n++) {
            assertThat(n).as("creates sent").isLessThan(4);
            assertThat(create("FOR_GPRS", imsi(n), n, 5, 5000)).isEqualTo(128);
        }
        assertThat(b.imsis()).contains(a.imsis().get(0));
        var realA = node.director().farms().real("GPRS", "127.0.0.1:" + a.port());
        await().atMost(Duration.ofSeconds(5)).until(() -> realA.state() == RealState.FAILED);
        assertThat(backup.imsis()).isEmpty();

        // B runs out too: its create is resent to the backup farm (serverfarm GPRS backup GPRS_BACKUP).
        b.cause = 211; // "All dynamic PDP addresses are occupied"
        assertThat(create("FOR_GPRS", imsi(50), 50, 5, 5000)).isEqualTo(128);
        assertThat(backup.imsis()).containsExactly(imsi(50));

        // A cause that is not a resource cause reaches the SGSN unchanged (user authentication failed).
        backup.cause = 209;
        assertThat(create("FOR_GPRS", imsi(51), 51, 5, 5000)).isEqualTo(209);
    }
}
