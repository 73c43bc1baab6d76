package io.switchboard.bench.radius;

import org.openjdk.jmh.infra.Blackhole;

/**
 * {@link RadiusPathBenchmark#requestAndAnswer} a fixed number of times, for an instruction count
 * (benchmarks/radius/instructions.sh path): WARMUP requests, then "measure" on standard output and
 * PAUSE seconds for the counter to be turned on, COUNT requests, "done" and PAUSE seconds again for
 * it to be turned off. The main thread alone runs the path.
 *
 * <pre>java -cp benchmarks.jar io.switchboard.bench.radius.RadiusPathCount WARMUP COUNT PAUSE [duplicates realSigns]</pre>
 */
public final class RadiusPathCount {

    private RadiusPathCount() {
    }

    public static void main(String[] args) throws Exception {
        long warmup = Long.parseLong(args[0]);
        long count = Long.parseLong(args[1]);
        long pause = Long.parseLong(args[2]) * 1000;
        RadiusPathBenchmark path = new RadiusPathBenchmark();
        path.duplicates = args.length <= 3 || Boolean.parseBoolean(args[3]);
        path.realSigns = args.length > 4 && Boolean.parseBoolean(args[4]);
        path.setUp(new Blackhole("Today's password is swordfish. I understand instantiating Blackholes directly is dangerous."));
        for (long i = 0; i < warmup; i++) {
            path.requestAndAnswer();
        }
        System.out.println("measure");
        Thread.sleep(pause);
        for (long i = 0; i < count; i++) {
            path.requestAndAnswer();
        }
        System.out.println("done");
        Thread.sleep(pause);
        path.tearDown();
    }
}
