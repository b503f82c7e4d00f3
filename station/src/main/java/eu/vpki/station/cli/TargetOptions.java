package eu.vpki.station.cli;

import picocli.CommandLine.Option;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import java.io.IOException;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/** Picocli mixin: where the PKI is (a local cluster's state file, or a DC and the RCA certificate). */
public final class TargetOptions {
    @Option(names = "--cluster", description = "work directory of a local cluster (reads its cluster.json)")
    public Path cluster;
    @Option(names = "--dc", description = "DC base URL (with --rca-cert)")
    public URI dc;
    @Option(names = "--rca-cert", description = "the RCA certificate (COER) to trust")
    public Path rcaCert;
    @Option(names = "--ea-url", split = ",", description = "EA replica base URLs to spread enrolments over (default: the CTL's itsAccessPoint)")
    public List<URI> eaUrls = new ArrayList<>();
    @Option(names = "--aa-url", split = ",", description = "AA process base URLs to spread AT requests over (default: the CTL's AAs)")
    public List<URI> aaUrls = new ArrayList<>();
    @Option(names = "--tls-ca", description = "PEM CA certificate to trust (only) for https ETSI endpoints (DC, EA, AA), e.g. a local"
            + " cluster's tls/ca.crt (default with --cluster: that cluster's; else the JDK's public CAs)")
    public Path tlsCa;

    public void resolve() throws IOException {
        if (cluster != null) {
            JsonNode n = JsonMapper.builder().build().readTree(Files.readString(cluster.resolve("cluster.json")));
            dc = dc != null ? dc : URI.create(n.get("dc").asText());
            rcaCert = rcaCert != null ? rcaCert : Path.of(n.get("rcaCertificate").asText());
            if (eaUrls.isEmpty()) {
                n.get("eaReplicas").forEach(u -> eaUrls.add(URI.create(u.asText())));
            }
            if (aaUrls.isEmpty()) {
                n.get("aas").forEach(u -> aaUrls.add(URI.create(u.asText())));
            }
            if (tlsCa == null && n.has("tlsCaCertificate")) {
                tlsCa = Path.of(n.get("tlsCaCertificate").asText());
            }
        }
        if (dc == null || rcaCert == null) {
            throw new IllegalArgumentException("give --cluster DIR, or --dc URL and --rca-cert FILE");
        }
    }
}
