package eu.vpki.testbed;

import java.util.Collection;
import java.util.List;

/** Every host on 127.0.0.1 of this machine: nothing to set up, nothing can be cut. */
public final class LoopbackNetwork implements HostNetwork {
    public static final String ADDRESS = "127.0.0.1";

    @Override
    public Host host(String name) {
        return new Host(name, ADDRESS, List.of());
    }

    @Override
    public boolean partitionable() {
        return false;
    }

    @Override
    public void cut(Collection<Host> side, Collection<Host> others) {
        throw new UnsupportedOperationException("hosts on loopback cannot be cut apart");
    }

    @Override
    public void healAll() {
        // nothing was cut
    }

    @Override
    public String describe() {
        return "loopback (all services on " + ADDRESS + "; network faults impossible)";
    }

    @Override
    public void close() {
        // nothing to remove
    }
}
