package eu.vpki.common.replication;

import org.jgroups.Address;
import org.jgroups.Message;
import org.jgroups.annotations.Property;
import org.jgroups.stack.Protocol;
import org.jgroups.util.MessageBatch;
import org.jgroups.util.NameCache;

import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

/**
 * WAN emulation for experiments: every message received from a listed peer (by its logical name,
 * the peer's replica id) is passed up the stack that peer's one-way delay later; messages from other
 * members, and this member's own, pass at once. Sits right above the transport, so each link is
 * delayed once, where it arrives, and a multicast (sent as one unicast per member over TCP) pays
 * each receiver's own delay. Each delayed peer has one delivery thread: its messages keep their
 * order (a constant delay and a single thread keep the arrival order). JGroups' {@code DELAY}
 * delays everything a member receives by the same amount, whatever the sender; this is its per-peer
 * form (docs/design-wan-emulation.md). It is in the stack only when
 * {@link ReplicationConfig#emulatedDelays()} names a peer ({@link JGroupsStack}).
 */
public class PeerDelay extends Protocol {
    @Property(description = "one-way delays per peer: name=millis,name=millis")
    protected String delays = "";

    private volatile Map<String, Long> delayMillis = Map.of();
    private final Map<String, ScheduledExecutorService> delivery = new ConcurrentHashMap<>();

    /** {@code name=millis,...} for {@link #delays}, in the order given. */
    static String format(Map<String, Duration> delays) {
        StringBuilder s = new StringBuilder();
        delays.forEach((peer, d) -> s.append(s.isEmpty() ? "" : ",").append(peer).append('=').append(d.toMillis()));
        return s.toString();
    }

    /** The inverse of {@link #format}. */
    static Map<String, Long> parse(String text) {
        Map<String, Long> out = new LinkedHashMap<>();
        if (text == null || text.isBlank()) {
            return out;
        }
        for (String entry : text.split(",")) {
            int eq = entry.lastIndexOf('=');
            if (eq <= 0) {
                throw new IllegalArgumentException("PeerDelay delays: '" + entry + "' is not name=millis");
            }
            out.put(entry.substring(0, eq).trim(), Long.parseLong(entry.substring(eq + 1).trim()));
        }
        return out;
    }

    @Override
    public void init() throws Exception {
        super.init();
        delayMillis = Map.copyOf(parse(delays));
    }

    @Override
    public void destroy() {
        delivery.values().forEach(ScheduledExecutorService::shutdownNow);
        delivery.clear();
        super.destroy();
    }

    /** The one-way delay of messages from {@code sender} in milliseconds, 0 when none is configured or its name is unknown yet. */
    long delayOf(Address sender) {
        if (sender == null || sender.equals(getAddress())) {
            return 0;
        }
        String name = NameCache.get(sender);
        Long d = name == null ? null : delayMillis.get(name);
        return d == null ? 0 : d;
    }

    @Override
    public Object up(Message msg) {
        long d = delayOf(msg.src());
        if (d <= 0) {
            return up_prot.up(msg);
        }
        thread(msg.src()).schedule(() -> passUp(msg), d, TimeUnit.MILLISECONDS);
        return null;
    }

    @Override
    public void up(MessageBatch batch) {
        long d = delayOf(batch.sender());
        if (d <= 0) {
            up_prot.up(batch);
            return;
        }
        // the transport may reuse the batch once this returns: keep its messages, pass them up one by one
        List<Message> messages = new ArrayList<>(batch.size());
        batch.forEach(messages::add);
        thread(batch.sender()).schedule(() -> messages.forEach(this::passUp), d, TimeUnit.MILLISECONDS);
    }

    private void passUp(Message msg) {
        try {
            up_prot.up(msg);
        } catch (RuntimeException e) {
            log.warn("%s: delayed message from %s failed above PeerDelay: %s", getAddress(), msg.src(), e);
        }
    }

    private ScheduledExecutorService thread(Address sender) {
        String name = NameCache.get(sender);
        return delivery.computeIfAbsent(name, n -> Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "vpki-peer-delay-" + n);
            t.setDaemon(true);
            return t;
        }));
    }
}
