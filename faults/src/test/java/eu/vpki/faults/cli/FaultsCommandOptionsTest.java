package eu.vpki.faults.cli;

import org.junit.jupiter.api.Test;
import picocli.CommandLine;

import java.nio.file.Path;

import static org.assertj.core.api.Assertions.assertThat;

/** The harness shares the testbed's option groups but keeps its own defaults (its own work directory, namespaces and ports). */
class FaultsCommandOptionsTest {
    @Test
    void sharedOptionGroups_keepTheHarnessDefaults() {
        FaultsCommand command = new FaultsCommand();
        new CommandLine(command).parseArgs();
        assertThat(command.placement.workDir).isEqualTo(Path.of("run/faults/cluster"));
        assertThat(command.placement.basePort).isEqualTo(18080);
        assertThat(command.placement.jgroupsBase()).isEqualTo(17800);
        assertThat(command.network.network).isEqualTo("auto");
        assertThat(command.network.prefix).isEqualTo("vpkif");
        assertThat(command.network.subnet).isEqualTo("10.217.0.0/16");
    }

    @Test
    void sharedOptionGroups_takeTheirOptions() {
        FaultsCommand command = new FaultsCommand();
        new CommandLine(command).parseArgs("--work-dir", "w", "--base-port", "19080", "--net-prefix", "vpkiq", "--network", "loopback");
        assertThat(command.placement.workDir).isEqualTo(Path.of("w"));
        assertThat(command.placement.jgroupsBase()).isEqualTo(18800);
        assertThat(command.network.prefix).isEqualTo("vpkiq");
        assertThat(command.network.network).isEqualTo("loopback");
    }
}
