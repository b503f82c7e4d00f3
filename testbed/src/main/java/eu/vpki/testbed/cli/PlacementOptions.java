package eu.vpki.testbed.cli;

import eu.vpki.testbed.ClusterSpec;
import picocli.CommandLine.Option;

import java.nio.file.Path;

/**
 * Picocli mixin: where a local PKI's files and ports are (the checkout with the built jars, the work
 * directory, the first HTTP and JGroups ports). Every command that starts one mixes it in; each
 * gives its own default work directory.
 */
public final class PlacementOptions {
    @Option(names = "--project-dir", description = "checkout with the built service jars (default ${DEFAULT-VALUE})")
    public Path projectDir = Path.of(".");
    @Option(names = "--work-dir", description = "state, keys and logs (default ${DEFAULT-VALUE})")
    public Path workDir;
    @Option(names = "--base-port", description = "HTTP ports start here, management ports 100 above (default ${DEFAULT-VALUE})")
    public int basePort = 18080;
    @Option(names = "--jgroups-base-port", description = "JGroups ports start here (default --base-port - 280: 17800)")
    public Integer jgroupsBasePort;

    public PlacementOptions() {
        this(Path.of("run/cluster"));
    }

    /** @param workDir the default of {@code --work-dir} */
    public PlacementOptions(Path workDir) {
        this.workDir = workDir;
    }

    /** The JGroups base port: as given, else {@link ClusterSpec#defaultJgroupsBasePort(int)} of the HTTP base port. */
    public int jgroupsBase() {
        return jgroupsBasePort != null ? jgroupsBasePort : ClusterSpec.defaultJgroupsBasePort(basePort);
    }
}
