package io.switchboard.director.testing;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/** Runs tshark (installed by {@code .ci/run}) over a capture and returns the requested fields, one row per packet. */
public final class Tshark {

    private Tshark() {
    }

    /**
     * @param options tshark arguments such as {@code -d udp.port==2231,wimaxasncp} or
     *                {@code -o wimaxasncp.nwg_version:R1.0 v1.0.0}, one list element per argument
     * @return one list of field values (tab-separated by tshark) per packet
     */
    public static List<List<String>> fields(Path capture, List<String> options, String... fields)
            throws IOException, InterruptedException {
        List<String> command = new ArrayList<>(List.of("tshark", "-n", "-r", capture.toString()));
        command.addAll(options);
        command.addAll(List.of("-T", "fields", "-E", "separator=/t", "-E", "occurrence=a", "-E", "aggregator=,"));
        for (String field : fields) {
            command.addAll(List.of("-e", field));
        }
        Process process = new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.DISCARD).start();
        byte[] out = process.getInputStream().readAllBytes();
        if (!process.waitFor(60, TimeUnit.SECONDS)) {
            process.destroyForcibly();
            throw new IOException("tshark did not finish reading " + capture);
        }
        if (process.exitValue() != 0) {
            throw new IOException("tshark failed on " + capture + " (exit " + process.exitValue() + ")");
        }
        List<List<String>> rows = new ArrayList<>();
        for (String line : new String(out, StandardCharsets.UTF_8).split("\n")) {
            if (!line.isEmpty()) {
                rows.add(List.of(line.split("\t", -1)));
            }
        }
        return rows;
    }
}
