package io.switchboard.director.gtp;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;

/**
 * The director's GTP restart counter (the value of its Recovery IE, TS 29.060 §7.7.11, TS 29.274
 * §8.5), kept in a file so that it changes with every restart, as peers expect: a missing or
 * unreadable file counts as 0.
 */
final class GtpRestartCounter {

    private GtpRestartCounter() {
    }

    /** Reads the counter, increments it (modulo 256), writes it back atomically and returns the new value. */
    static int next(Path file) {
        int previous = -1;
        try {
            if (Files.exists(file)) {
                previous = Integer.parseInt(Files.readString(file, StandardCharsets.US_ASCII).trim());
            }
        } catch (IOException | NumberFormatException e) {
            previous = -1;
        }
        int next = (previous + 1) & 0xFF;
        try {
            Path parent = file.toAbsolutePath().getParent();
            if (parent != null) {
                Files.createDirectories(parent);
            }
            Path temporary = Files.createTempFile(parent, file.getFileName().toString(), ".tmp");
            Files.writeString(temporary, next + "\n", StandardCharsets.US_ASCII);
            Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the GTP restart counter file " + file, e);
        }
        return next;
    }
}
