package eu.vpki.testbed;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.regex.Pattern;

/**
 * Every host in its own Linux network namespace ({@code ip netns}), with one veth pair to a bridge
 * in the root namespace: real separate machines on one box, reachable from this process (clients,
 * the harness) through the bridge's address. Cutting two hosts apart adds blackhole routes to each
 * other's address inside both namespaces, so packets are dropped silently as on a broken link
 * (TCP neither resets nor refuses; failure detection has to notice), while clients in the root
 * namespace still reach both sides. A one-way cut adds the route in one namespace only; a refusing cut
 * adds {@code prohibit} routes, which fail a sender's packets at once with an error (as a firewall that
 * rejects would). Needs root; {@link #available()} says whether it works here.
 *
 * <p>Names: namespaces {@code PREFIX-<host>}, bridge {@code PREFIXbr}, veth pairs {@code PREFIXh<i>} /
 * {@code PREFIXn<i>}, addresses from the given IPv4 subnet (bridge .1, hosts from .10). Every name
 * carries the prefix, so that {@link #sweep} can remove what an earlier run left behind (after a
 * SIGKILL of the harness) without touching anything else; a lock file keeps two live runs from
 * using the same prefix. A shutdown hook removes everything on Ctrl-C or failure.
 */
public final class NamespaceNetwork implements HostNetwork {
    private static final Pattern PREFIX = Pattern.compile("[a-z][a-z0-9]{0,7}");
    private static final Pattern HOST_NAME = Pattern.compile("[a-z0-9][a-z0-9-]{0,30}");
    private static final int FIRST_HOST = 10;

    private final String prefix;
    private final int network;
    private final int prefixLength;
    private final Consumer<String> log;
    private final FileChannel lockFile;
    private final FileLock lock;
    private final Map<String, Host> hosts = new LinkedHashMap<>();
    /** Routes in place: namespace, destination address and route type (blackhole or prohibit). */
    private final Set<List<String>> routes = new LinkedHashSet<>();
    private final Thread cleanup;
    private boolean closed;

    private NamespaceNetwork(String prefix, int network, int prefixLength, Consumer<String> log, FileChannel lockFile, FileLock lock) {
        this.prefix = prefix;
        this.network = network;
        this.prefixLength = prefixLength;
        this.log = log;
        this.lockFile = lockFile;
        this.lock = lock;
        this.cleanup = new Thread(this::closeAtExit, "vpki-netns-cleanup-" + prefix);
    }

    /** Whether namespaces can be made here: running as root with a working {@code ip netns}. */
    public static boolean available() {
        try {
            return "root".equals(System.getProperty("user.name")) && run(List.of("ip", "netns", "list")).exitCode() == 0;
        } catch (UncheckedIOException e) {
            return false;
        }
    }

    /**
     * Sets up the bridge after removing what an earlier run with the same prefix left behind.
     *
     * @param prefix at most 8 lower-case letters and digits, starting with a letter
     * @param subnet IPv4 CIDR of /8 to /24, e.g. {@code 10.217.0.0/16}
     * @throws IllegalStateException if another live run holds the prefix, or a command fails
     */
    public static NamespaceNetwork create(String prefix, String subnet, Consumer<String> log) {
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("namespace prefix must match " + PREFIX + ", not " + prefix);
        }
        String[] cidr = subnet.split("/");
        int length = cidr.length == 2 ? Integer.parseInt(cidr[1]) : -1;
        if (length < 8 || length > 24) {
            throw new IllegalArgumentException("subnet must be an IPv4 CIDR of /8 to /24, not " + subnet);
        }
        int mask = -1 << (32 - length);
        int base = parseIpv4(cidr[0]) & mask;
        FileChannel channel;
        FileLock held;
        try {
            // machine-wide, as the namespaces are: /tmp whatever this JVM's java.io.tmpdir (the tests' is their target/)
            channel = FileChannel.open(Path.of("/tmp", "vpki-netns-" + prefix + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE);
            held = channel.tryLock();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot lock the namespace prefix " + prefix, e);
        }
        if (held == null) {
            close(channel);
            throw new IllegalStateException("another run uses the namespace prefix " + prefix + " (lock held): choose another prefix");
        }
        NamespaceNetwork net = new NamespaceNetwork(prefix, base, length, log, channel, held);
        try {
            int swept = sweep(prefix, log);
            if (swept > 0) {
                log.accept("removed " + swept + " namespaces and links left by an earlier run with prefix " + prefix);
            }
            Runtime.getRuntime().addShutdownHook(net.cleanup);
            String bridge = net.bridge();
            ip("link", "add", bridge, "type", "bridge");
            ip("addr", "add", formatIpv4(base + 1) + "/" + length, "dev", bridge);
            ip("link", "set", bridge, "up");
            acceptBridgedTraffic(bridge, log);
            return net;
        } catch (RuntimeException e) {
            net.close();
            throw e;
        }
    }

    /**
     * Removes every namespace {@code PREFIX-*} (killing the processes still in it: with this prefix
     * they can only be left over from a run of this harness) and every link {@code PREFIXbr},
     * {@code PREFIXh<i>}, {@code PREFIXn<i>}. Returns how many namespaces and links it removed.
     */
    public static int sweep(String prefix, Consumer<String> log) {
        if (!PREFIX.matcher(prefix).matches()) {
            throw new IllegalArgumentException("namespace prefix must match " + PREFIX + ", not " + prefix);
        }
        int removed = 0;
        for (String namespace : namespaces()) {
            if (namespace.startsWith(prefix + "-")) {
                killProcessesIn(namespace, log);
                run(List.of("ip", "netns", "del", namespace));
                removed++;
            }
        }
        forgetBridgedTraffic(prefix + "br");
        Pattern ours = Pattern.compile(Pattern.quote(prefix) + "(br|[hn][0-9]+)");
        for (String line : run(List.of("ip", "-o", "link", "show")).output().split("\n")) {
            String[] parts = line.split(":\\s+", 3);
            if (parts.length >= 2) {
                String name = parts[1].split("@")[0].strip();
                if (ours.matcher(name).matches() && run(List.of("ip", "link", "del", name)).exitCode() == 0) {
                    removed++;
                }
            }
        }
        return removed;
    }

    @Override
    public synchronized Host host(String name) {
        if (closed) {
            throw new IllegalStateException("network closed");
        }
        Host existing = hosts.get(name);
        if (existing != null) {
            return existing;
        }
        if (!HOST_NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("host name must match " + HOST_NAME + ", not " + name);
        }
        int index = hosts.size();
        int address = network + FIRST_HOST + index;
        if (Integer.compareUnsigned(address - network, (1 << (32 - prefixLength)) - 2) > 0) {
            throw new IllegalStateException("subnet /" + prefixLength + " has no room for host " + (index + 1));
        }
        String namespace = namespace(name);
        String outside = prefix + "h" + index;
        String inside = prefix + "n" + index;
        String addr = formatIpv4(address);
        ip("netns", "add", namespace);
        ip("link", "add", outside, "type", "veth", "peer", "name", inside, "netns", namespace);
        ip("link", "set", outside, "master", bridge(), "up");
        ip("-n", namespace, "addr", "add", addr + "/" + prefixLength, "dev", inside);
        ip("-n", namespace, "link", "set", inside, "up");
        ip("-n", namespace, "link", "set", "lo", "up");
        Host host = new Host(name, addr, List.of("ip", "netns", "exec", namespace));
        hosts.put(name, host);
        return host;
    }

    @Override
    public boolean partitionable() {
        return true;
    }

    @Override
    public synchronized void cut(Collection<Host> side, Collection<Host> others) {
        for (Host a : side) {
            for (Host b : others) {
                if (a.equals(b)) {
                    throw new IllegalArgumentException(a.name() + " is on both sides");
                }
                blackhole(a, b);
                blackhole(b, a);
            }
        }
    }

    @Override
    public synchronized void cutOneWay(Host from, Collection<Host> to) {
        for (Host b : to) {
            if (from.equals(b)) {
                throw new IllegalArgumentException(from.name() + " is on both sides");
            }
            blackhole(from, b);
        }
    }

    @Override
    public synchronized void cutRefusing(Collection<Host> side, Collection<Host> others) {
        for (Host a : side) {
            for (Host b : others) {
                if (a.equals(b)) {
                    throw new IllegalArgumentException(a.name() + " is on both sides");
                }
                route("prohibit", a, b);
                route("prohibit", b, a);
            }
        }
    }

    private void blackhole(Host from, Host to) {
        route("blackhole", from, to);
    }

    /** A route of {@code type} (blackhole: drop; prohibit: refuse with an error at the sender) in {@code from} to {@code to}. */
    private void route(String type, Host from, Host to) {
        List<String> route = List.of(namespace(from.name()), to.address(), type);
        if (routes.stream().noneMatch(r -> r.get(0).equals(route.get(0)) && r.get(1).equals(route.get(1))) && routes.add(route)) {
            ip("-n", route.get(0), "route", "add", type, route.get(1) + "/32");
        }
    }

    @Override
    public synchronized void healAll() {
        for (List<String> route : routes) {
            ip("-n", route.get(0), "route", "del", route.get(2), route.get(1) + "/32");
        }
        routes.clear();
    }

    @Override
    public String launcherAddress() {
        return formatIpv4(network + 1);
    }

    @Override
    public String describe() {
        return "network namespaces " + prefix + "-* on bridge " + bridge() + " (" + formatIpv4(network) + "/" + prefixLength
                + "), partitions by blackhole (drop) and prohibit (refuse) routes";
    }

    /**
     * Where the kernel passes bridged packets through iptables ({@code br_netfilter}, which Docker loads) and the
     * {@code FORWARD} chain drops by default (Docker sets that policy), hosts on our bridge cannot reach each
     * other: a rule at the top of {@code FORWARD} accepts what stays on our bridge. Removed by {@link #sweep}.
     */
    private static void acceptBridgedTraffic(String bridge, Consumer<String> log) {
        if (!Files.isExecutable(Path.of("/usr/sbin/iptables"))) {
            return;
        }
        Result r = run(List.of("/usr/sbin/iptables", "-w", "-I", "FORWARD", "1", "-i", bridge, "-o", bridge, "-j", "ACCEPT"));
        if (r.exitCode() != 0) {
            log.accept("could not add the iptables rule that lets hosts on " + bridge + " reach each other: " + r.output().strip());
        }
    }

    private static void forgetBridgedTraffic(String bridge) {
        if (!Files.isExecutable(Path.of("/usr/sbin/iptables"))) {
            return;
        }
        for (int i = 0; i < 16; i++) {
            if (run(List.of("/usr/sbin/iptables", "-w", "-D", "FORWARD", "-i", bridge, "-o", bridge, "-j", "ACCEPT")).exitCode() != 0) {
                return;
            }
        }
    }

    /** The namespace of a host, e.g. for {@code ip netns pids}. */
    public String namespace(String hostName) {
        return prefix + "-" + hostName;
    }

    @Override
    public void close() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        try {
            Runtime.getRuntime().removeShutdownHook(cleanup);
        } catch (IllegalStateException e) {
            // the JVM is exiting: the hook itself is running this
        }
        removeAll(0);
    }

    private void closeAtExit() {
        synchronized (this) {
            if (closed) {
                return;
            }
            closed = true;
        }
        // the service reaper and the launcher stop the processes gracefully meanwhile (a JVM may be
        // writing its class-data archive as it exits); give them time, then kill what is left
        removeAll(30);
    }

    private void removeAll(int graceSeconds) {
        try {
            long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(graceSeconds);
            for (Host host : hosts.values()) {
                String namespace = namespace(host.name());
                while (!pidsIn(namespace).isEmpty() && System.nanoTime() < deadline) {
                    TimeUnit.MILLISECONDS.sleep(100);
                }
            }
            sweep(prefix, log);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            sweep(prefix, log);
        } finally {
            try {
                lock.release();
            } catch (IOException e) {
                // released with the channel below
            }
            close(lockFile);
        }
    }

    private String bridge() {
        return prefix + "br";
    }

    private static List<String> namespaces() {
        List<String> names = new ArrayList<>();
        for (String line : run(List.of("ip", "netns", "list")).output().split("\n")) {
            String name = line.strip().split("\\s+")[0];
            if (!name.isEmpty()) {
                names.add(name);
            }
        }
        return names;
    }

    private static List<Long> pidsIn(String namespace) {
        List<Long> pids = new ArrayList<>();
        Result r = run(List.of("ip", "netns", "pids", namespace));
        if (r.exitCode() == 0) {
            for (String line : r.output().split("\n")) {
                if (!line.isBlank()) {
                    pids.add(Long.parseLong(line.strip()));
                }
            }
        }
        return pids;
    }

    private static void killProcessesIn(String namespace, Consumer<String> log) {
        for (long pid : pidsIn(namespace)) {
            ProcessHandle.of(pid).ifPresent(p -> {
                log.accept("killing process " + pid + " left in namespace " + namespace + ": " + p.info().command().orElse("?"));
                p.destroyForcibly();
                p.onExit().join();
            });
        }
    }

    private static void ip(String... args) {
        List<String> command = new ArrayList<>(List.of("ip"));
        command.addAll(List.of(args));
        Result r = run(command);
        if (r.exitCode() != 0) {
            throw new IllegalStateException(String.join(" ", command) + " failed (" + r.exitCode() + "): " + r.output().strip());
        }
    }

    private record Result(int exitCode, String output) {
    }

    private static Result run(List<String> command) {
        try {
            Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
            String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
            if (!p.waitFor(30, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException(String.join(" ", command) + " did not finish in 30 s");
            }
            return new Result(p.exitValue(), out);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run " + String.join(" ", command), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted running " + String.join(" ", command), e);
        }
    }

    private static void close(FileChannel channel) {
        try {
            channel.close();
        } catch (IOException e) {
            // nothing left to release
        }
    }

    static int parseIpv4(String text) {
        String[] parts = text.split("\\.");
        if (parts.length != 4) {
            throw new IllegalArgumentException("not an IPv4 address: " + text);
        }
        int value = 0;
        for (String part : parts) {
            int octet = Integer.parseInt(part);
            if (octet < 0 || octet > 255) {
                throw new IllegalArgumentException("not an IPv4 address: " + text);
            }
            value = value << 8 | octet;
        }
        return value;
    }

    static String formatIpv4(int value) {
        return (value >>> 24) + "." + (value >>> 16 & 0xff) + "." + (value >>> 8 & 0xff) + "." + (value & 0xff);
    }
}
