package eu.vpki.testbed;

import java.util.Collection;

/**
 * Where the processes of a local cluster run: every service on its own {@link Host}. On loopback
 * ({@link LoopbackNetwork}) all hosts share 127.0.0.1 and nothing can be cut; with network
 * namespaces ({@link NamespaceNetwork}) every host has its own address on a bridge, and links
 * between hosts can be cut for real (partitions). The fault harness and the paper experiments use
 * the same network, so that a partition, a per-host CPU limit or a WAN delay is written once.
 */
public interface HostNetwork extends AutoCloseable {
    /** The host for {@code name}, created on first use; the same host for the same name afterwards. */
    Host host(String name);

    /** Whether {@link #cut} works (partitions are real); false on loopback. */
    boolean partitionable();

    /**
     * Drops every packet between each host of {@code side} and each host of {@code others}, both
     * ways; hosts outside both sets keep reaching everyone (clients, load balancers).
     *
     * @throws UnsupportedOperationException if not {@link #partitionable()}
     */
    void cut(Collection<Host> side, Collection<Host> others);

    /**
     * Drops every packet {@code from} sends to each host of {@code to}, while theirs to it still arrive: a one-way
     * partition (TCP connections then stall both ways, datagrams flow one way).
     *
     * @throws UnsupportedOperationException if not {@link #partitionable()}
     */
    default void cutOneWay(Host from, Collection<Host> to) {
        throw new UnsupportedOperationException(describe() + " cannot cut links");
    }

    /**
     * As {@link #cut}, but the links refuse instead of dropping: a sender gets an error at once (as from a
     * firewall that rejects), so connections fail fast instead of timing out.
     *
     * @throws UnsupportedOperationException if not {@link #partitionable()}
     */
    default void cutRefusing(Collection<Host> side, Collection<Host> others) {
        throw new UnsupportedOperationException(describe() + " cannot cut links");
    }

    /** Undoes every {@link #cut}, {@link #cutOneWay} and {@link #cutRefusing}. */
    void healAll();

    /**
     * The address at which every host reaches this process (the launcher, a harness, a proxy it
     * runs): loopback, or the bridge's address in the root namespace.
     */
    default String launcherAddress() {
        return LoopbackNetwork.ADDRESS;
    }

    /** One line for reports: what kind of network this is. */
    String describe();

    /** Removes every host, link and route it created (processes in them must have ended). Idempotent. */
    @Override
    void close();
}
