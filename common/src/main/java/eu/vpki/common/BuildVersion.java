package eu.vpki.common;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.util.Objects;
import java.util.Properties;

/**
 * The version of this build and the git commit it was built from, for a program without Spring (the CLI's
 * {@code --version}); the services show the same on {@code /actuator/info}, read from the same file. Read from
 * {@value #RESOURCE}, which the build writes into this module's jar: the Maven project version, the commit id (the
 * git command, through buildnumber-maven-plugin) and the build time.
 *
 * <p>A value the build could not fill in (a build from a source tarball has no git commit) reads as
 * {@value #UNKNOWN}, never as an exception: printing a version must not stop a program.
 *
 * @param version   the Maven project version, e.g. {@code 0.1.0-SNAPSHOT}
 * @param commit    the full git commit id
 * @param buildTime when the build ran (UTC, ISO 8601)
 */
public record BuildVersion(String version, String commit, String buildTime) {
    /** The class-path resource the build writes. */
    public static final String RESOURCE = "META-INF/vpki-version.properties";
    /** The value of an item the build did not fill in. */
    public static final String UNKNOWN = "unknown";
    private static final int SHORT_COMMIT = 7;

    public BuildVersion {
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(commit, "commit");
        Objects.requireNonNull(buildTime, "buildTime");
    }

    /** This build's version, read from {@value #RESOURCE} beside this class; every item {@value #UNKNOWN} when it is missing. */
    public static BuildVersion current() {
        try (InputStream in = BuildVersion.class.getClassLoader().getResourceAsStream(RESOURCE)) {
            Properties properties = new Properties();
            if (in != null) {
                properties.load(in);
            }
            return of(properties);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read " + RESOURCE, e);
        }
    }

    /** From the properties of a {@value #RESOURCE} file; a missing, empty or unfiltered ({@code @name@}) item is {@value #UNKNOWN}. */
    public static BuildVersion of(Properties properties) {
        return new BuildVersion(value(properties, "version"), value(properties, "commit"), value(properties, "build-time"));
    }

    /** The commit's first 7 hexadecimal digits, as git and {@code /actuator/info} show it. */
    public String shortCommit() {
        return commit.length() > SHORT_COMMIT && !commit.equals(UNKNOWN) ? commit.substring(0, SHORT_COMMIT) : commit;
    }

    /** One line for {@code --version}: {@code vpki 0.1.0-SNAPSHOT (commit abc1234, built 2026-11-29T09:20:00Z)}. */
    public String describe() {
        return "vpki " + version + " (commit " + shortCommit() + ", built " + buildTime + ")";
    }

    private static String value(Properties properties, String key) {
        String value = properties.getProperty(key);
        if (value == null || value.isBlank() || value.startsWith("@")) {
            return UNKNOWN;
        }
        return value.strip();
    }
}
