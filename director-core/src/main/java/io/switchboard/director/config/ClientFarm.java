package io.switchboard.director.config;

import java.util.List;

/**
 * Client-assigned load balancing: the clients of these subnets are served by {@code farm} instead
 * of the virtual server's own farm. IOS SLB ("Client-Assigned Load Balancing", Cisco IOS SLB
 * configuration guide) expresses it as several virtual servers on one virtual address and port,
 * each with its own {@code client} lines and {@code serverfarm}; here it is one virtual server with
 * a {@code client-farms} list, its {@code farm} serving every client no entry names.
 *
 * @param clients the client subnets, at least one
 * @param farm    the farm (with its own backup chain) that serves them
 */
public record ClientFarm(List<Subnet> clients, String farm) {

    public ClientFarm {
        clients = List.copyOf(clients);
    }
}
