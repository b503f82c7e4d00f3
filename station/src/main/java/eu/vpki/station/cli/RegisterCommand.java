package eu.vpki.station.cli;

import eu.vpki.station.FleetFile;
import eu.vpki.station.FleetRegistrar;
import eu.vpki.station.SimulatedStation;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;

import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.Callable;
import java.util.stream.IntStream;

/** Generates a fleet and registers it through the Operator REST API. */
@Command(name = "register", mixinStandardHelpOptions = true, description = "Generate N stations and register them through the Operator.")
public final class RegisterCommand implements Callable<Integer> {
    @Option(names = "--operator", required = true, description = "Operator base URL (https)")
    URI operator;
    @Option(names = "--tls-ca", description = {"CA certificate (PEM) the Operator's TLS certificate must come from, e.g. a local",
            "cluster's <work-dir>/tls/ca.crt (default: the JDK's public CAs)"})
    Path tlsCa;
    @Option(names = "--operator-token-file", required = true, description = "file holding the operator's bearer token")
    Path tokenFile;
    @Option(names = "--stations", defaultValue = "1000", description = "fleet size (default ${DEFAULT-VALUE})")
    int stations;
    @Option(names = "--curve", defaultValue = "nistP256", description = "station key curve: nistP256, brainpoolP256r1, brainpoolP384r1 (default ${DEFAULT-VALUE})")
    String curve;
    @Option(names = "--fleet", defaultValue = "run/fleet.json", description = "fleet file to write (default ${DEFAULT-VALUE})")
    Path fleetFile;
    @Option(names = "--batch", defaultValue = "1000", description = "stations per registration request (default ${DEFAULT-VALUE})")
    int batch;

    @Override
    public Integer call() throws Exception {
        SecureRandom random = new SecureRandom();
        String prefix = "VIN-" + Long.toHexString(random.nextLong() & 0xffffffffL) + "-";
        List<SimulatedStation> fleet = IntStream.range(0, stations).parallel()
                .mapToObj(i -> SimulatedStation.generate(prefix + i, CommandSupport.curve(curve), random)).toList();
        String version = new FleetRegistrar(CommandSupport.http(tlsCa), operator, Files.readString(tokenFile).strip())
                .register(fleet, CommandSupport.AT_PERMISSIONS, Duration.ofDays(365), batch);
        FleetFile.write(fleetFile, fleet);
        System.out.println("registered " + stations + " stations (version " + version + "); fleet in " + fleetFile);
        return 0;
    }
}
