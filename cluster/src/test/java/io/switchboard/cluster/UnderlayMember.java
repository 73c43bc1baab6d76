package io.switchboard.cluster;

import com.hazelcast.config.Config;
import com.hazelcast.map.IMap;
import io.switchboard.director.config.ClusterConfig;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;

/**
 * A cluster member for {@link IpsecUnderlayIT}, run inside a network namespace: bound to the one
 * address given, on port 5701, joining through the listed members. Prints {@code = ready N} (the
 * members it sees) once Hazelcast's join is over, then answers one command per stdin line:
 * {@code members} (→ count), {@code put N} (N entries written to a map: traffic between the members
 * → "ok"), {@code size} (→ the map's size, cluster-wide).
 *
 * <pre>java -cp &lt;test classpath&gt; io.switchboard.cluster.UnderlayMember NAME BIND MEMBER...</pre>
 */
public final class UnderlayMember {

    private UnderlayMember() {
    }

    public static void main(String[] args) throws Exception {
        List<String> members = Arrays.asList(args).subList(2, args.length);
        Config config = ClusterMember.hazelcastConfig(new ClusterConfig(true, args[0], members, 5701), args[1]);
        TestMembers.tune(config);
        // A member it cannot reach (no keys: nothing it sends is let in) is given up on quickly.
        config.getNetworkConfig().getJoin().getTcpIpConfig().setConnectionTimeoutSeconds(2);
        config.setProperty("hazelcast.max.join.seconds", "15");
        try (ClusterMember member = ClusterMember.start(config)) {
            System.out.println("= ready " + member.hazelcast().getCluster().getMembers().size());
            IMap<Integer, String> map = member.hazelcast().getMap("underlay");
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            for (String line; (line = in.readLine()) != null; ) {
                String[] words = line.trim().split(" ");
                switch (words[0]) {
                    case "members" -> System.out.println("= " + member.hazelcast().getCluster().getMembers().size());
                    case "put" -> {
                        for (int i = 0; i < Integer.parseInt(words[1]); i++) {
                            map.put(i, "binding-" + i);
                        }
                        System.out.println("= ok");
                    }
                    case "size" -> System.out.println("= " + map.size());
                    default -> System.out.println("= unknown command " + words[0]);
                }
            }
        }
    }
}
