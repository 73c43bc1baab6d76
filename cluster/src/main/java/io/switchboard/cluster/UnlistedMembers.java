package io.switchboard.cluster;

import com.hazelcast.cluster.Member;
import com.hazelcast.cluster.MembershipEvent;
import com.hazelcast.cluster.MembershipListener;
import io.switchboard.director.config.ClusterConfig;
import io.switchboard.director.config.Endpoint;
import io.switchboard.director.config.bind.AddressLiterals;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The member list, enforced after the fact. Hazelcast's community edition admits any process that
 * reaches the member port with the cluster's name: the {@code members} list only says whom a node
 * asks to join, not whom the cluster takes. This watch looks at every member that is in the cluster
 * when it starts and every one that joins later; one whose address is not in {@code members} (an
 * entry without a port allows every port of its address) is reported at once, in the log as an
 * error, in {@link #count()} and in {@link #present()}; with {@code unlisted-member: leave} this node
 * then leaves the cluster by termination, which hands nothing over: the stranger gets no partition
 * from this node on the way out.
 *
 * <p>With Kubernetes discovery there is no list to hold members to: nothing is reported.
 */
public final class UnlistedMembers {

    private static final Logger LOG = LoggerFactory.getLogger(UnlistedMembers.class);

    private final ClusterMember member;
    private final ClusterConfig config;
    private final List<Endpoint> exact = new ArrayList<>();
    private final List<InetAddress> anyPort = new ArrayList<>();
    private final Runnable onLeave;
    private final AtomicLong count = new AtomicLong();
    private final Set<InetSocketAddress> present = ConcurrentHashMap.newKeySet();

    private UnlistedMembers(ClusterMember member, ClusterConfig config, Runnable onLeave) {
        this.member = member;
        this.config = config;
        this.onLeave = onLeave;
        for (String entry : config.members()) {
            boolean hasPort = entry.startsWith("[") ? entry.contains("]:")
                    : entry.indexOf(':') >= 0 && entry.indexOf(':') == entry.lastIndexOf(':');
            if (hasPort) {
                exact.add(AddressLiterals.parseEndpoint(entry));
            } else {
                anyPort.add(AddressLiterals.parseAddress(entry));
            }
        }
    }

    /**
     * Starts watching {@code member}'s cluster against {@code config}'s member list.
     *
     * @param onLeave run after this node left because of an unlisted member ({@code unlisted-member: leave})
     */
    public static UnlistedMembers watch(ClusterMember member, ClusterConfig config, Runnable onLeave) {
        UnlistedMembers watch = new UnlistedMembers(member, config, onLeave);
        if (config.kubernetes().isPresent()) {
            return watch;
        }
        member.hazelcast().getCluster().addMembershipListener(new MembershipListener() {
            @Override
            public void memberAdded(MembershipEvent event) {
                watch.check(event.getMember());
            }

            @Override
            public void memberRemoved(MembershipEvent event) {
                watch.present.remove(address(event.getMember()));
            }
        });
        member.hazelcast().getCluster().getMembers().forEach(watch::check);
        return watch;
    }

    /** How many times a member not in the list was seen in the cluster. */
    public long count() {
        return count.get();
    }

    /** The members now in the cluster that are not in the list. */
    public List<InetSocketAddress> present() {
        return List.copyOf(present);
    }

    private void check(Member m) {
        InetSocketAddress address = address(m);
        if (m.localMember() || listed(address) || !present.add(address)) {
            return;
        }
        count.incrementAndGet();
        LOG.error("cluster {}: member {} joined from an address not in cluster.members {}: whoever reaches the"
                + " member port with the cluster's name is admitted and reads every binding{}", config.name(),
                address, config.members(), config.unlistedMember() == ClusterConfig.UnlistedMember.LEAVE
                        ? "; leaving the cluster (unlisted-member: leave)" : "");
        if (config.unlistedMember() == ClusterConfig.UnlistedMember.LEAVE) {
            // Not on Hazelcast's event thread, which termination waits for.
            Thread leave = new Thread(() -> {
                member.hazelcast().getLifecycleService().terminate();
                onLeave.run();
            }, "cluster-leave");
            leave.setDaemon(true);
            leave.start();
        }
    }

    private boolean listed(InetSocketAddress address) {
        InetAddress ip = address.getAddress();
        return anyPort.contains(ip)
                || exact.stream().anyMatch(e -> e.address().equals(ip) && e.port() == address.getPort());
    }

    private static InetSocketAddress address(Member m) {
        try {
            return new InetSocketAddress(m.getAddress().getInetAddress(), m.getAddress().getPort());
        } catch (java.net.UnknownHostException e) {
            // A member address is an IP literal Hazelcast resolved already.
            return InetSocketAddress.createUnresolved(m.getAddress().getHost(), m.getAddress().getPort());
        }
    }
}
