package io.switchboard.app.reload;

import io.switchboard.director.config.SwitchboardConfig;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * The configuration a node runs: the validated records, the YAML they were read from (an IOS text
 * is kept as its translation), and their digest.
 */
public record RunningConfig(SwitchboardConfig config, String yaml, String digest) {

    public RunningConfig(SwitchboardConfig config, String yaml) {
        this(config, yaml, digest(config));
    }

    /**
     * A short digest of what every node must share — probes, farms and virtual servers, as validated
     * records, so comments and layout do not count. The cluster and admin sections are left out:
     * each node binds its own interface and admin port.
     */
    public static String digest(SwitchboardConfig config) {
        String shared = config.probes() + "\n" + config.farms() + "\n" + config.virtualServers();
        try {
            byte[] hash = MessageDigest.getInstance("SHA-256").digest(shared.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(hash, 0, 8);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
