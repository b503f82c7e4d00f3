package eu.vpki.experiments.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The experiments share the testbed's option groups but keep their own defaults (work directory, namespaces, subnet). */
class ExperimentCommandOptionsTest {
    @Test
    void sharedOptionGroups_keepTheExperimentsDefaults() {
        ExperimentCommand.Centralised command = new ExperimentCommand.Centralised();
        new CommandLine(command).parseArgs();
        assertThat(command.placement.cluster.workDir).isEqualTo(Path.of("run/experiments/cluster"));
        assertThat(command.placement.hosts.network).isEqualTo("auto");
        assertThat(command.placement.hosts.prefix).isEqualTo("vpkix");
        assertThat(command.placement.hosts.subnet).isEqualTo("10.218.0.0/16");
        assertThat(command.placement.reportDir).isEqualTo(Path.of("run/experiments"));
    }
}
