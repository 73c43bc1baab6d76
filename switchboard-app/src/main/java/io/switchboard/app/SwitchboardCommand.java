package io.switchboard.app;

import io.switchboard.app.demo.DemoCommand;
import picocli.CommandLine;
import picocli.CommandLine.Command;

/** {@code switchboard}: the launcher's entry point. */
@Command(name = "switchboard", mixinStandardHelpOptions = true, version = "Switchboard 0.1.0",
        description = "Signaling director for mobile packet cores.",
        subcommands = {RunCommand.class, CheckCommand.class, DemoCommand.class, ShowCommand.class,
            InspectCommand.class, WhatIfCommand.class, ReplayCommand.class})
public final class SwitchboardCommand implements Runnable {

    @CommandLine.Spec
    CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(System.out);
    }

    public static void main(String[] args) {
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
