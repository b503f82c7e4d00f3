package eu.vpki.testbed.cli;

import eu.vpki.testbed.HostNetwork;
import eu.vpki.testbed.LoopbackNetwork;
import eu.vpki.testbed.NamespaceNetwork;
import picocli.CommandLine.Option;

/** Picocli mixin: where the services run, all on loopback or each in its own network namespace. */
public final class NetworkOptions {
    @Option(names = "--network", description = {
            "loopback: every service on 127.0.0.1; namespaces: every service in its own network namespace on a",
            "bridge (needs root and 'ip netns'); auto: namespaces when possible (default ${DEFAULT-VALUE})"})
    public String network;
    @Option(names = "--net-prefix", description = "prefix of the namespaces, bridge and veths made (and of leftovers removed) (default ${DEFAULT-VALUE})")
    public String prefix;
    @Option(names = "--subnet", description = "IPv4 subnet of the bridge (default ${DEFAULT-VALUE})")
    public String subnet;

    public NetworkOptions() {
        this("loopback", "vpkin", "10.217.0.0/16");
    }

    /** The defaults of {@code --network}, {@code --net-prefix} and {@code --subnet}: each command that makes hosts has its own. */
    public NetworkOptions(String network, String prefix, String subnet) {
        this.network = network;
        this.prefix = prefix;
        this.subnet = subnet;
    }

    /** The network chosen; namespaces are removed when it is closed (and on Ctrl-C). */
    public HostNetwork open(java.util.function.Consumer<String> log) {
        return open(network, prefix, subnet, log);
    }

    /** {@code network}: loopback, namespaces or auto (namespaces when this machine allows them). */
    public static HostNetwork open(String network, String prefix, String subnet, java.util.function.Consumer<String> log) {
        boolean namespaces = switch (network) {
            case "loopback" -> false;
            case "namespaces" -> true;
            case "auto" -> NamespaceNetwork.available();
            default -> throw new IllegalArgumentException("--network must be loopback, namespaces or auto, not " + network);
        };
        if (namespaces && !NamespaceNetwork.available()) {
            throw new IllegalStateException("--network namespaces needs root and a working 'ip netns'");
        }
        return namespaces ? NamespaceNetwork.create(prefix, subnet, log) : new LoopbackNetwork();
    }
}
