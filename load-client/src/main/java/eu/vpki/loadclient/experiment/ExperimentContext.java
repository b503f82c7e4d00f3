package eu.vpki.loadclient.experiment;

import eu.vpki.loadclient.cluster.HostNetwork;
import eu.vpki.loadclient.measure.LoadRunner;

import java.net.http.HttpClient;
import java.util.function.Consumer;

/**
 * What every experiment runs with: the hosts (opened and closed by the caller), the HTTP client of
 * its simulated stations, where its progress lines go, and who follows the running phase.
 */
public record ExperimentContext(HostNetwork network, HttpClient http, Consumer<String> log, Consumer<LoadRunner.Progress> progress) {
}
