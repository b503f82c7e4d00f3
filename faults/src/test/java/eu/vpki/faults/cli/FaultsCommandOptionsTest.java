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

    @Test
    void counts_defaultToTheMatrix_countOverridesAnyKind_faultsKeepsOnlyThoseAsked() {
        FaultsCommand defaults = new FaultsCommand();
        new CommandLine(defaults).parseArgs();
        assertThat(defaults.counts()).isEqualTo(eu.vpki.faults.FaultSchedule.matrixCounts());
        assertThat(defaults.longOutage).isEqualTo(java.time.Duration.ofMinutes(1));
        assertThat(defaults.fleet).isZero();

        FaultsCommand some = new FaultsCommand();
        new CommandLine(some).parseArgs("--count", "empty-join=4,long-outage=0", "--replica-kills", "7", "--faults",
                "empty-join,replica-kill,long-outage", "--long-outage", "15m", "--fleet", "1000000");
        assertThat(some.counts()).containsOnly(java.util.Map.entry(eu.vpki.faults.FaultKind.EMPTY_JOIN, 4),
                java.util.Map.entry(eu.vpki.faults.FaultKind.REPLICA_KILL, 7),
                java.util.Map.entry(eu.vpki.faults.FaultKind.LONG_OUTAGE, 0));
        assertThat(some.longOutage).isEqualTo(java.time.Duration.ofMinutes(15));
        assertThat(some.fleet).isEqualTo(1_000_000L);
    }
}
