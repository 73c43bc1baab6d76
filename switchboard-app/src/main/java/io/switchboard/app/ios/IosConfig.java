package io.switchboard.app.ios;

import java.util.List;

/**
 * A parsed IOS configuration: the {@code ip slb} commands as IOS nests them, and every other line
 * with why it was not read.
 *
 * @param commands the top-level {@code ip slb ...} commands, each with its mode's lines
 * @param skipped  lines outside IOS SLB and the mode-changing lines ({@code exit}, {@code end});
 *                 blank lines and {@code !} comments are not listed
 */
record IosConfig(List<IosCommand> commands, List<Skipped> skipped) {

    IosConfig {
        commands = List.copyOf(commands);
        skipped = List.copyOf(skipped);
    }

    /** A line that configures nothing of IOS SLB. */
    record Skipped(int line, String text, IosReport.Outcome outcome, String why) {
    }
}
