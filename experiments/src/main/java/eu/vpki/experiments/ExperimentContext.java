package eu.vpki.experiments;

import eu.vpki.testbed.HostNetwork;
import eu.vpki.station.load.LoadRunner;

import java.net.http.HttpClient;
import java.nio.file.Path;
import java.util.function.Consumer;

/**
 * What every experiment runs with: the hosts (opened and closed by the caller), the HTTP client of
 * its simulated stations, where its progress lines go, who follows the running phase, and the folder
 * its report goes to (every path the report names is relative to it: {@link #where}).
 */
public record ExperimentContext(HostNetwork network, HttpClient http, Consumer<String> log, Consumer<LoadRunner.Progress> progress,
                                Path reportDir) {
    /** {@code file} as the report names it: relative to the report's folder, so that no path of this machine is published. */
    public String where(Path file) {
        return relative(reportDir, file);
    }

    /** {@code file} relative to {@code dir} (both made absolute first), with forward slashes; {@code .} for the folder itself. */
    public static String relative(Path dir, Path file) {
        Path from = dir.toAbsolutePath().normalize();
        Path to = file.toAbsolutePath().normalize();
        if (from.getRoot() != null && !from.getRoot().equals(to.getRoot())) {
            return to.getFileName() == null ? "." : to.getFileName().toString();
        }
        String r = from.relativize(to).toString().replace('\\', '/');
        return r.isEmpty() ? "." : r;
    }
}
