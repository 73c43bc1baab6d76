package io.switchboard.director.config;

import java.nio.file.Path;
import java.util.Set;

/**
 * The debug capture (top-level {@code debug-capture}): where each virtual server's capture files go
 * and how they rotate. Nothing is captured unless a virtual server is named in {@code start} or a
 * capture is started through the admin API.
 *
 * @param directory  where the files are written, {@code <vserver>-<UTC time>-<n>.pcapng}
 * @param fileBytes  a file is closed and the next one opened once it holds this much
 * @param files      files kept per virtual server; the oldest is deleted beyond that
 * @param queue      datagrams waiting for the writer thread; beyond that they are dropped and counted
 * @param start      virtual servers captured from start-up
 */
public record DebugCaptureConfig(Path directory, long fileBytes, int files, int queue, Set<String> start) {

    public static final DebugCaptureConfig DEFAULT = new DebugCaptureConfig(
            Path.of(System.getProperty("java.io.tmpdir"), "switchboard-capture"), 64L << 20, 8, 65_536, Set.of());

    public DebugCaptureConfig {
        start = Set.copyOf(start);
    }
}
