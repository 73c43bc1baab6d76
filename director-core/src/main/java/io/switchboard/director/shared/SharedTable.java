package io.switchboard.director.shared;

import java.util.function.BiConsumer;

/**
 * A typed key → value table shared by the nodes of a cluster, for state a plug-in keeps per
 * subscriber or session that another node must be able to take over (the sessions of
 * {@code gtp-inspect}: TEIDs, peers, real). On a single node it is a concurrent map.
 *
 * <ul>
 *   <li>{@link #get} reads this node's copy: it never blocks and never waits for the network, so
 *       it belongs on the packet path;</li>
 *   <li>{@link #put} and {@link #remove} change this node's copy at once (a later {@code get} on
 *       this node sees the change) and reach the other nodes asynchronously, in a few milliseconds;
 *       they never block either;</li>
 *   <li>of two nodes writing one key at the same moment, every node ends with the same value (the
 *       one the cluster applied last); a table is for state one node writes at a time, such as the
 *       session that node is handling;</li>
 *   <li>nothing expires by itself: the plug-in removes what ends (a Delete), or sweeps with
 *       {@link #forEach}.</li>
 * </ul>
 * Thread-safe: any event loop may call any method.
 */
public interface SharedTable<K, V> extends AutoCloseable {

    String name();

    /** This node's copy of the value, or null. */
    V get(K key);

    void put(K key, V value);

    /** Removes the key; true if this node's copy had it. */
    boolean remove(K key);

    /** Entries in this node's copy. */
    long size();

    /** Every entry of this node's copy (weakly consistent, as a concurrent map's iteration). */
    void forEach(BiConsumer<? super K, ? super V> action);

    /**
     * Whether other nodes write this table too. When not, every change to it is this node's own, so
     * what a plug-in derives from the changes as they happen (counts) needs no recounting from the
     * table.
     */
    default boolean sharedWithOtherNodes() {
        return true;
    }

    /** Stops following the cluster; the entries stay in it. */
    @Override
    void close();
}
