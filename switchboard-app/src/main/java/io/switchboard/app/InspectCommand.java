package io.switchboard.app;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.switchboard.codec.asn.r6.NwgRelease;
import io.switchboard.codec.gtp.v0.GtpV0TidOrder;
import io.switchboard.pcap.CaptureException;
import io.switchboard.pcap.CaptureInspection;
import io.switchboard.pcap.SignalingInspector;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * {@code switchboard inspect FILE...}: one JSON object per recognised signaling message of each
 * capture, in capture order, then one summary line. Exit 0, or 2 when a file cannot be read.
 */
@Command(name = "inspect", mixinStandardHelpOptions = true,
        description = "Print the GTP, RADIUS, Mobile IP and R6 messages of .pcap/.pcapng captures as JSON lines.")
final class InspectCommand implements Callable<Integer> {

    @Parameters(arity = "1..*", paramLabel = "FILE", description = "capture files (.pcap or .pcapng)")
    List<Path> files;

    @Option(names = "--nwg-release", defaultValue = "R1_0_V1_2_1",
            description = "WiMAX NWG release numbering MS_PreAttachment: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})")
    NwgRelease release;

    @Option(names = "--gtpv0-tid-order", defaultValue = "GSM_09_60",
            description = "order of the IMSI digits in GTPv0 TIDs: ${COMPLETION-CANDIDATES} (default ${DEFAULT-VALUE})")
    GtpV0TidOrder tidOrder;

    @Spec
    CommandSpec spec;

    private static final ObjectMapper JSON = new ObjectMapper();

    @Override
    public Integer call() {
        PrintWriter out = spec.commandLine().getOut();
        CaptureInspection inspection = new CaptureInspection(new SignalingInspector(release, tidOrder));
        int status = 0;
        for (Path file : files) {
            try {
                inspection.inspect(file, files.size() > 1 ? file.toString() : null, d -> out.println(json(d)));
            } catch (CaptureException e) {
                spec.commandLine().getErr().println("inspect: " + e.getMessage());
                status = 2;
            }
        }
        out.println(json(Map.of("summary", inspection.summary())));
        out.flush();
        return status;
    }

    private static String json(Object value) {
        try {
            return JSON.writeValueAsString(value);
        } catch (JsonProcessingException e) {
            throw new UncheckedIOException(e);
        }
    }
}
