package eu.vpki.common.replication;

import eu.vpki.common.testing.RedisFixtureExtension;
import org.jgroups.Address;
import org.jgroups.View;
import org.jgroups.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import redis.clients.jedis.JedisPool;

import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongPredicate;
import java.util.stream.LongStream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue #38: the answer to a pull is taken only as far as it is the run that was asked for. A peer whose log has a
 * hole (or a faulty one) answers a pull of 1..5 with 1, 2, 4, 5: before, the mark of what was fetched jumped to 5, so
 * the member held 4 and 5 back behind the hole and never asked for 3 again (GAP for good). Now the mark stops at 2
 * and the next round asks for 3. One member's anti-entropy driven directly (fake monotonic clock, fake peer), its
 * applier on a real Redis.
 */
class PullAnswerTest {
    @RegisterExtension
    static final RedisFixtureExtension REDIS = new RedisFixtureExtension();

    private static final ReplicatedKeyspace KEYSPACE = ReplicatedKeyspace.of("t:idx:");
    private static final String SELF = "r0~1";
    private static final String OTHER = "r1~1";
    private static final long SECOND = 1_000_000_000L;

    private final AtomicLong nanos = new AtomicLong(100 * SECOND);
    private final Address self = UUID.randomUUID();
    private final Address peer = UUID.randomUUID();
    /** The pulls asked of the peer, as {@code from..to}. */
    private final Queue<String> pulls = new ConcurrentLinkedQueue<>();
    private JedisPool pool;
    private Applier applier;
    private AppliedWatermarks watermarks;
    private AntiEntropy antiEntropy;

    @BeforeEach
    void start() {
        pool = REDIS.fixture().newPool();
        ReplicationConfig config = DrivenMember.threeMembers();
        ReplicationMetrics metrics = DrivenMember.metrics(config, SELF);
        watermarks = new AppliedWatermarks();
        applier = new Applier(SELF, Duration.ZERO, new RedisStateMachine(pool, KEYSPACE), watermarks, metrics, Clock.systemUTC(),
                failure -> {
                });
        applier.start();
    }

    @AfterEach
    void stop() {
        applier.stop();
        pool.close();
    }

    /** The member's anti-entropy, whose one peer answers a pull of {@code from..to} with the commands {@code answers}. */
    private void driven(LongPredicate answers) {
        antiEntropy = new AntiEntropy(DrivenMember.threeMembers(), SELF, applier, watermarks, null, null, new DrivenMember.SilentPeers() {
            @Override
            public CompletableFuture<byte[]> pull(Address to, byte[] request) {
                CommandCodec.Pull pull = CommandCodec.decodePull(request);
                pulls.add(pull.from() + ".." + pull.to());
                List<byte[]> commands = LongStream.rangeClosed(pull.from(), pull.to()).filter(answers)
                        .mapToObj(seq -> CommandCodec.encode(put(seq))).toList();
                return CompletableFuture.completedFuture(CommandCodec.encodeCommands(commands));
            }
        }, DrivenMember.metrics(DrivenMember.threeMembers(), SELF), OriginAuthentication.NONE, nanos::get);
        antiEntropy.start(self, View.create(self, 1, self, peer, UUID.randomUUID()));
    }

    private static Command put(long seq) {
        return new Command(new CommandId(OTHER, seq), 0, List.of(new Operation.Put("t:idx:" + seq, "v" + seq)));
    }

    /** One anti-entropy round a status interval later, after the peer reported it applied {@code OTHER} up to 5. */
    private void round() {
        round(5);
    }

    /** One anti-entropy round a status interval later, after the peer reported it applied {@code OTHER} up to {@code top}. */
    private void round(long top) {
        nanos.addAndGet(SECOND / 2);
        antiEntropy.reportReceived(peer, new AppliedReport("r1", OTHER, true, Map.of(OTHER, top), Map.of(OTHER, 1L), nanos.get(),
                Map.of()));
        antiEntropy.evaluate();
    }

    /**
     * Issue #38, "a replica down 1 hour while the group takes 1,000 commands/s catches up": catching up took one pull of
     * 512 commands per origin per round (500 ms), about 1,000 commands/s, no faster than such a group writes. Now an
     * answered pull is followed at once by the next, up to 4,096 commands ahead of the applier.
     */
    @Test
    void aMemberFarBehind_pullsChunkAfterChunkInOneRound() {
        driven(seq -> true);

        round(3_000); // notices it is behind
        round(3_000); // a round later: pulls

        assertThat(pulls).containsExactly("1..512", "513..1024", "1025..1536", "1537..2048", "2049..2560", "2561..3000");
        await().atMost(Duration.ofSeconds(30)).until(() -> watermarks.appliedSeq(OTHER) == 3_000);
    }

    @Test
    void answerWithAHole_keepsTheRunBeforeIt_andAsksForTheRestAgain() {
        LongPredicate onceWithAHole = new LongPredicate() {
            private boolean first = true;

            @Override
            public boolean test(long seq) {
                boolean answered = !(first && seq == 3);
                if (seq == 5) {
                    first = false;
                }
                return answered;
            }
        };
        driven(onceWithAHole);

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50)).untilAsserted(() -> {
            round();
            assertThat(watermarks.appliedSeq(OTHER)).as("applied of %s after pulls %s", OTHER, pulls).isEqualTo(5);
        });
        assertThat(pulls).as("the first answer had a hole at 3: asked for again").startsWith("1..5")
                .anyMatch(pull -> pull.startsWith("3.."));
        assertThat(applier.gaps()).isEmpty();
    }

    @Test
    void contiguous_keepsTheRunAskedFor() {
        List<Command> answered = List.of(put(4), put(5), put(7), put(8));
        assertThat(CommandFetcher.contiguous(answered, OTHER, 4, 10)).extracting(c -> c.id().seq()).containsExactly(4L, 5L);
        assertThat(CommandFetcher.contiguous(answered, OTHER, 4, 4)).extracting(c -> c.id().seq()).containsExactly(4L);
        assertThat(CommandFetcher.contiguous(answered, OTHER, 3, 10)).as("not the start asked for").isEmpty();
        assertThat(CommandFetcher.contiguous(answered, "r2~1", 4, 10)).as("another origin's").isEmpty();
    }
}
