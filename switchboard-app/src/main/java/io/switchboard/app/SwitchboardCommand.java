package io.switchboard.app;

import io.switchboard.app.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code switchboard}: the launcher's entry point. */
@Command(name = "switchboard", mixinStandardHelpOptions = true, version = "Switchboard 0.1.0",
        description = "Signaling director for mobile packet cores.",
        subcommands = {RunCommand.class, CheckCommand.class, DemoCommand.class, ShowCommand.class, ClearCommand.class,
            InspectCommand.class, WhatIfCommand.class, ReplayCommand.class, ImportIosCommand.class,
            ExportIosCommand.class, ReloadCommand.class, ConfigReferenceCommand.class})
public final class SwitchboardCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    /**
     * Netty checks a buffer's reference count on every single-byte read (AbstractByteBuf
     * ensureAccessible); the codecs walk IEs byte by byte, and on the director's packet path that
     * check was about a sixth of the CPU (JFR, GTP benchmark). The launcher turns it off unless the
     * operator sets it; the tests keep it on (with paranoid leak detection), so a read of a released
     * buffer is still caught there.
     */
    static final String CHECK_ACCESSIBLE = "io.netty.buffer.checkAccessible";

    public static void main(String[] args) {
        if (System.getProperty(CHECK_ACCESSIBLE) == null) {
            System.setProperty(CHECK_ACCESSIBLE, "false"); // before any Netty buffer class is loaded
        }
        int exit = new CommandLine(new SwitchboardCommand()).execute(args);
        if (exit != 0 || args.length == 0 || !"run".equals(args[0]) && !isKeepRunning(args)) {
            System.exit(exit);
        }
    }

    /** {@code run} and {@code demo --keep-running} return from execute() while the node serves. */
    private static boolean isKeepRunning(String[] args) {
        return "demo".equals(args[0]) && java.util.Arrays.asList(args).contains("--keep-running");
    }
}
