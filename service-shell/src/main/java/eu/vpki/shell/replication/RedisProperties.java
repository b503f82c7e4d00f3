package eu.vpki.shell.replication;

import eu.vpki.shell.keys.ConfigFiles;
import jakarta.validation.constraints.Max;
import jakarta.validation.constraints.Min;
import jakarta.validation.constraints.NotNull;
import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.validation.annotation.Validated;

import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Map;

/**
 * {@code vpki.redis.*}: this replica's own Redis.
 *
 * @param url            {@code redis://host:port} ({@code rediss://} for TLS); an ACL user may be given in it
 * @param maxConnections pooled connections (request threads reading the state, the applier writing it)
 * @param healthTimeout  how long the health check waits for a PING before reporting Redis lost (OUT_OF_SERVICE)
 * @param passwordFile   file whose first line is the password Redis asks for ({@code requirepass} or the ACL
 *                       user's); without it the environment variable {@value #PASSWORD_ENV}; neither: no AUTH
 * @param connectTimeout how long opening a connection to Redis may take (a host that does not answer)
 * @param readTimeout    how long the pool's connections wait for an answer before the command fails; the replica
 *                       leaves the group when its Redis does not answer within it, so it must outlast what only slows
 *                       Redis down: an AOF rewrite's fork and fsyncs on a slow disk stalled Redis for more than the
 *                       former fixed 2 s (issue 38)
 * @param slowThreshold  a PING answered slower than this is reported by the health check as {@code slow} (still UP)
 */
@Validated
@ConfigurationProperties("vpki.redis")
public record RedisProperties(@DefaultValue("redis://127.0.0.1:6379") @NotNull URI url,
                              @DefaultValue("64") @Min(1) @Max(4096) int maxConnections,
                              @DefaultValue("5s") @NotNull Duration healthTimeout,
                              Path passwordFile,
                              @DefaultValue("2s") @NotNull Duration connectTimeout,
                              @DefaultValue("15s") @NotNull Duration readTimeout,
                              @DefaultValue("250ms") @NotNull Duration slowThreshold) {
    /** Environment variable holding the Redis password when no password file is given. */
    public static final String PASSWORD_ENV = "VPKI_REDIS_PASSWORD";

    public RedisProperties {
        if (!("redis".equals(url.getScheme()) || "rediss".equals(url.getScheme())) || url.getHost() == null) {
            throw new IllegalArgumentException("vpki.redis.url must be redis://host:port (or rediss://), got " + url);
        }
        if (healthTimeout.isNegative() || healthTimeout.isZero() || healthTimeout.compareTo(Duration.ofSeconds(30)) > 0) {
            throw new IllegalArgumentException("vpki.redis.health-timeout must be between 1 ms and 30 s, got " + healthTimeout);
        }
        requireBetween("connect-timeout", connectTimeout, Duration.ofMillis(1), Duration.ofMinutes(1));
        requireBetween("read-timeout", readTimeout, Duration.ofMillis(1), Duration.ofMinutes(10));
        requireBetween("slow-threshold", slowThreshold, Duration.ofMillis(1), healthTimeout);
        if (url.getRawUserInfo() != null && url.getRawUserInfo().contains(":")) {
            throw new IllegalArgumentException("vpki.redis.url must not carry a password: give it in vpki.redis.password-file or "
                    + PASSWORD_ENV);
        }
    }

    private static void requireBetween(String name, Duration value, Duration min, Duration max) {
        if (value.compareTo(min) < 0 || value.compareTo(max) > 0) {
            throw new IllegalArgumentException("vpki.redis." + name + " must be between " + min + " and " + max + ", got " + value);
        }
    }

    /**
     * The URL Jedis connects with: {@link #url()} with the password (from the file, else the environment)
     * added to its user info. Never logged.
     */
    public URI connectionUri(Map<String, String> environment) {
        String password;
        if (passwordFile != null) {
            String content = new String(ConfigFiles.read(passwordFile, "vpki.redis.password-file"), StandardCharsets.UTF_8);
            password = content.lines().findFirst().orElse("").strip();
            if (password.isEmpty()) {
                throw new IllegalStateException("vpki.redis.password-file " + passwordFile + " is empty");
            }
        } else {
            password = environment.get(PASSWORD_ENV);
        }
        if (password == null || password.isEmpty()) {
            return url;
        }
        String user = url.getRawUserInfo() == null ? "" : url.getRawUserInfo();
        String encoded = URLEncoder.encode(password, StandardCharsets.UTF_8).replace("+", "%20");
        return URI.create(url.getScheme() + "://" + user + ":" + encoded + "@" + url.getRawAuthority().replaceFirst("^.*@", "")
                + (url.getRawPath() == null ? "" : url.getRawPath()));
    }
}
