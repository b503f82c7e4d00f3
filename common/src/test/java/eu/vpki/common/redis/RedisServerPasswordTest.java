package eu.vpki.common.redis;

import org.junit.jupiter.api.Test;
import redis.clients.jedis.Jedis;
import redis.clients.jedis.exceptions.JedisDataException;

import java.net.ConnectException;
import java.net.Inet4Address;
import java.net.InetAddress;
import java.net.NetworkInterface;
import java.net.Socket;
import java.net.SocketException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * A redis-server started with a password: clients without it are refused; it listens on loopback only
 * (a connection to any other address of this host is refused); the password never appears on its command line.
 */
class RedisServerPasswordTest {
    @Test
    void withAPassword_onlyAuthenticatedClientsAreServed_onLoopbackOnly_andThePasswordStaysOffTheCommandLine() throws Exception {
        String password = "s3cret-Redis_pw";
        try (RedisServer redis = RedisServer.start(RedisServerBinary.locate(), RedisServer.Options.ephemeral().withPassword(password))) {
            try (Jedis anonymous = new Jedis(redis.host(), redis.port(), 2_000)) {
                assertThatThrownBy(anonymous::ping).isInstanceOf(JedisDataException.class).hasMessageContaining("NOAUTH");
            }
            try (Jedis wrong = new Jedis(redis.host(), redis.port(), 2_000)) {
                assertThatThrownBy(() -> wrong.auth("guess")).isInstanceOf(JedisDataException.class);
            }
            try (Jedis client = new Jedis(redis.host(), redis.port(), 2_000)) {
                client.auth(password);
                assertThat(client.ping()).isEqualTo("PONG");
                assertThat(client.configGet("protected-mode")).containsEntry("protected-mode", "yes");
                assertThat(client.configGet("bind")).as("listens on loopback only").containsEntry("bind", "127.0.0.1");
            }
            for (InetAddress other : nonLoopbackAddresses()) {
                assertThatThrownBy(() -> new Socket(other, redis.port()).close()).as("reached on " + other)
                        .isInstanceOf(ConnectException.class);
            }
            List<String> commandLine = ProcessHandle.of(redis.pid()).orElseThrow().info().arguments().map(List::of).orElse(List.of());
            assertThat(String.join(" ", commandLine)).doesNotContain(password);
            assertThat(redis.options().password()).isEqualTo(password);
        }
    }

    /** This host's addresses other than loopback (none on a machine without a network interface). */
    static List<InetAddress> nonLoopbackAddresses() throws SocketException {
        return NetworkInterface.networkInterfaces().filter(i -> {
            try {
                return i.isUp() && !i.isLoopback();
            } catch (SocketException e) {
                return false;
            }
        }).flatMap(NetworkInterface::inetAddresses).filter(a -> a instanceof Inet4Address && !a.isLoopbackAddress()).toList();
    }

    @Test
    void theConfigurationFile_isReadableByItsOwnerOnly() throws Exception {
        Path dir = Files.createTempDirectory("redis-pw");
        try (RedisServer redis = RedisServer.start(RedisServerBinary.locate(),
                new RedisServer.Options(0, dir, false).withPassword("pw-1"))) {
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(dir.resolve("redis-auth.conf")))).isEqualTo("rw-------");
            assertThat(redis.isRunning()).isTrue();
        }
    }

    @Test
    void aPasswordWithSpacesOrQuotes_isRefused() {
        for (String bad : new String[]{"", "a b", "a\"b", "a\\b"}) {
            assertThatThrownBy(() -> RedisServer.Options.ephemeral().withPassword(bad)).isInstanceOf(IllegalArgumentException.class);
        }
    }
}
