package eu.vpki.terraform;

import eu.vpki.terraform.checks.Deployment;
import eu.vpki.terraform.checks.Resolver;
import eu.vpki.terraform.hcl.Ast.Expr;
import eu.vpki.terraform.checks.ModuleInstance;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The three ways the services are deployed agree on their configuration: {@code compose.yaml}, the
 * systemd units in {@code deploy/systemd} and the Terraform that installs them. Per service, every
 * environment key either sets is one {@code docs/configuration.md} documents for that service; compose
 * and Terraform set the same keys, except the deployment-specific ones listed in
 * {@link #DEPLOYMENT_SPECIFIC} with their reasons; and each unit runs the jar, reads the environment file
 * and uses the runtime directory that the Terraform user data provides, and runs with the CPU scheduling policy
 * docs/deployment.md gives (batch). The comparison is a function
 * ({@link #disagreements}) so that the last test can show it reports what it looks for.
 */
class DeploymentKeysTest {
    static final Path TERRAFORM = RealConfigurationTest.DIR;
    static final Path REPOSITORY = TERRAFORM.getParent();
    static final List<String> SERVICES = List.of("rca", "dc", "ea", "operator", "aa");

    /**
     * Opens the management (health, metrics) port beyond loopback: the AWS load balancers check it; compose's Prometheus
     * scrapes it on the compose network (published nowhere).
     */
    static final String HEALTH_CHECKED = "MANAGEMENT_SERVER_ADDRESS";

    /** Names each audit file after the container in compose; on AWS the default host name and process id. */
    static final String AUDIT_INSTANCE = "VPKI_AUDIT_INSTANCE";

    /**
     * The token settings Terraform gives the RCA, EA and AA hosts when its variable cloudhsm is on (keys in AWS
     * CloudHSM); compose's token variant is the override compose.pkcs11.yaml, checked on its own below.
     */
    static final Map<String, String> CLOUDHSM = Map.of(
            "VPKI_KEYSTORE_BACKEND", "AWS may keep the keys in CloudHSM (variable cloudhsm); compose: compose.pkcs11.yaml",
            "VPKI_KEYSTORE_PKCS11_LIBRARY", "CloudHSM's PKCS#11 library on AWS; compose: compose.pkcs11.yaml",
            "VPKI_KEYSTORE_PKCS11_SLOT_LIST_INDEX", "CloudHSM's one slot on AWS; compose names a slot id in compose.pkcs11.yaml",
            "VPKI_KEYSTORE_PKCS11_PIN_FILE", "the CloudHSM crypto user's PIN on AWS; compose: compose.pkcs11.yaml");

    private static Map<String, String> withCloudHsm(Map<String, String> specific) {
        Map<String, String> out = new java.util.HashMap<>(specific);
        out.putAll(CLOUDHSM);
        return Map.copyOf(out);
    }

    /** Keys only one of the two deployments sets, per service, and why. */
    static final Map<String, Map<String, String>> DEPLOYMENT_SPECIFIC = Map.of(
            "rca", withCloudHsm(Map.of(
                    AUDIT_INSTANCE, "compose names the audit file after its container; AWS: host name and pid",
                    "VPKI_RCA_NAME", "compose names its root like the local cluster; on AWS the key ceremony's defaults",
                    "VPKI_RCA_DATA_DIR", "compose puts state on a named volume; on AWS the default ./data under the data volume",
                    HEALTH_CHECKED, "compose's Prometheus scrapes the RCA's management port; on AWS no load balancer checks the RCA")),
            "dc", Map.of(
                    AUDIT_INSTANCE, "compose names the audit file after its container; AWS: host name and pid",
                    HEALTH_CHECKED, "the ALB checks the DC's health on its management port",
                    "VPKI_DC_DATA_DIR", "compose: a named volume; AWS: the default under the data volume",
                    "VPKI_RCA_URL",
                    "compose pulls from the RCA as the local cluster does; on AWS the RCA in the home region pushes, DCs elsewhere cannot reach it",
                    "VPKI_RCA_SSL_BUNDLE", "compose pulls from the RCA over https, trusting its TLS CA; on AWS DCs do not pull",
                    "SPRING_SSL_BUNDLE_PEM_RCA_TRUSTSTORE_CERTIFICATE", "that CA for compose's pulls; on AWS DCs do not pull"),
            "ea", withCloudHsm(replication()),
            "operator", replication(),
            "aa", withCloudHsm(Map.of(
                    HEALTH_CHECKED, "the ALB checks each AA's health on its management port",
                    AUDIT_INSTANCE, "compose names its two AAs' audit files; AWS: host name and pid of each auto-scaled instance",
                    "SPRING_CONFIG_IMPORT",
                    "compose lists the other EA replicas for validation fail-over; on AWS the CTL's aaAccessPoint is the EA load balancer")));

    private static Map<String, String> replication() {
        return Map.of(
                AUDIT_INSTANCE, "compose names the audit file after its container; AWS: host name and pid",
                HEALTH_CHECKED, "the ALB checks each replica's health on its management port",
                "VPKI_REPLICATION_CLUSTER_NAME", "AWS names the group after the deployment; compose keeps the default",
                "VPKI_REPLICATION_DNS_QUERY", "AWS may discover members by DNS_PING; compose lists them (TCPPING)",
                "VPKI_REPLICATION_S3_BUCKET", "AWS may discover members by S3_PING",
                "VPKI_REPLICATION_S3_REGION", "AWS may discover members by S3_PING");
    }

    @Test
    void composeTerraformAndUnits_agreeOnEveryServicesConfiguration() throws IOException {
        assertThat(disagreements(documented(), compose(Files.readString(REPOSITORY.resolve("compose.yaml"))), terraform(), units()))
                .isEmpty();
    }

    @Test
    void everyServiceIsDeployedByAll() throws IOException {
        assertThat(compose(Files.readString(REPOSITORY.resolve("compose.yaml"))).keySet()).containsAll(SERVICES);
        assertThat(terraform().keySet()).containsAll(SERVICES);
        assertThat(units().keySet()).containsAll(SERVICES);
        // the EA needs its certificate and key store everywhere: what the AWS deployment once lacked
        assertThat(terraform().get("ea")).contains("VPKI_EA_CERTIFICATE_FILE", "VPKI_KEYSTORE_PATH", "VPKI_DC_URLS");
        assertThat(terraform().get("aa")).contains("VPKI_AA_CERTIFICATE_FILE");
    }

    @Test
    void disagreements_areReported() throws IOException {
        String compose = Files.readString(REPOSITORY.resolve("compose.yaml"));
        // an undocumented key, and a key Terraform does not set (the EA's certificate dropped from compose is the other way round);
        // in the environment every EA replica merges (x-ea-env)
        String broken = compose.replace("  VPKI_EA_CERTIFICATE_FILE: /pki/ea.cert\n", "  VPKI_EA_CERTIFICAT_FILE: /pki/ea.cert\n");
        assertThat(broken).isNotEqualTo(compose);
        Map<String, Set<String>> units = units();
        units.put("dc", Set.of("EnvironmentFile=/etc/vpki/dc-typo.env"));
        assertThat(disagreements(documented(), compose(broken), terraform(), units)).containsExactlyInAnyOrder(
                "compose ea: VPKI_EA_CERTIFICAT_FILE is not a documented key of ea",
                "ea: Terraform sets VPKI_EA_CERTIFICATE_FILE, compose does not",
                "ea: compose sets VPKI_EA_CERTIFICAT_FILE, Terraform does not",
                "unit dc: missing EnvironmentFile=/etc/vpki/dc.env",
                "unit dc: missing RuntimeDirectory=vpki-dc",
                "unit dc: missing ExecStartPre=+/opt/vpki/fetch-secrets %t/vpki-dc",
                "unit dc: missing ExecStart=/usr/bin/java -XX:+UseParallelGC -XX:MaxRAMPercentage=75 -jar /opt/vpki/vpki-dc.jar",
                "unit dc: missing CPUSchedulingPolicy=batch");
    }

    /** The PKCS#11 keys the override must give every container holding an authority's keys (docs/deployment.md, "Keys in an HSM"). */
    static final List<String> PKCS11_KEYS = List.of("VPKI_KEYSTORE_BACKEND", "VPKI_KEYSTORE_PKCS11_LIBRARY", "VPKI_KEYSTORE_PKCS11_SLOT",
            "VPKI_KEYSTORE_PKCS11_PIN_FILE");
    /** Not a vpki setting: the SoftHSM2 module's own configuration file, read by the module inside the service. */
    static final String SOFTHSM2_CONF = "SOFTHSM2_CONF";

    @Test
    void composePkcs11Override_givesEveryKeyHoldingContainerTheDocumentedTokenSettings() throws IOException {
        assertThat(pkcs11Disagreements(documented(), Files.readString(REPOSITORY.resolve("compose.yaml")),
                Files.readString(REPOSITORY.resolve("compose.pkcs11.yaml")))).isEmpty();
    }

    @Test
    void pkcs11Disagreements_areReported() throws IOException {
        String base = Files.readString(REPOSITORY.resolve("compose.yaml"));
        String override = Files.readString(REPOSITORY.resolve("compose.pkcs11.yaml"));
        // a misspelt key, a PIN file outside every mounted volume, and the second AA left out
        String broken = override.replace("VPKI_KEYSTORE_PKCS11_LIBRARY:", "VPKI_KEYSTORE_PKCS11_LIBRARI:")
                .replace("/secrets/pkcs11-pin", "/run/pkcs11-pin").replace("  aa-1: *aa\n", "");
        assertThat(broken).isNotEqualTo(override);
        assertThat(pkcs11Disagreements(documented(), base, broken)).contains(
                "compose.pkcs11 rca: VPKI_KEYSTORE_PKCS11_LIBRARI is not a documented key of rca",
                "compose.pkcs11 rca: VPKI_KEYSTORE_PKCS11_LIBRARY is not set",
                "compose.pkcs11 ea-0: the PIN file /run/pkcs11-pin is in no volume of the container",
                "compose.pkcs11: aa-1 holds authority keys in compose.yaml but is not given the token");
        String software = override.replace("VPKI_KEYSTORE_BACKEND: pkcs11", "VPKI_KEYSTORE_BACKEND: software");
        String renamed = override.replace("  rca:\n", "  rca-0:\n");
        assertThat(software).isNotEqualTo(override);
        assertThat(renamed).isNotEqualTo(override);
        assertThat(pkcs11Disagreements(documented(), base, software))
                .contains("compose.pkcs11 rca: VPKI_KEYSTORE_BACKEND is software, not pkcs11");
        assertThat(pkcs11Disagreements(documented(), base, renamed)).contains("compose.pkcs11: rca-0 is not a service of compose.yaml",
                "compose.pkcs11: rca holds authority keys in compose.yaml but is not given the token");
    }

    /**
     * What is wrong with {@code compose.pkcs11.yaml} ({@code override}) over {@code compose.yaml} ({@code base}), as
     * sentences: every container of the RCA, EA and AA images must get the four token settings, each key it sets must be
     * documented for its service, the PIN file must lie in a volume the container mounts and the module in one the
     * override mounts; the override names only services of the base.
     */
    @SuppressWarnings("unchecked")
    static List<String> pkcs11Disagreements(Map<String, Set<String>> documented, String base, String override) {
        Map<String, Object> baseServices = (Map<String, Object>) ((Map<String, Object>) new Yaml().load(base)).get("services");
        Map<String, Object> overrideServices = (Map<String, Object>) ((Map<String, Object>) new Yaml().load(override)).get("services");
        List<String> out = new ArrayList<>();
        overrideServices.keySet().stream().filter(n -> !baseServices.containsKey(n))
                .forEach(n -> out.add("compose.pkcs11: " + n + " is not a service of compose.yaml"));
        baseServices.forEach((name, value) -> {
            Map<String, Object> svc = (Map<String, Object>) value;
            Matcher image = Pattern.compile("vpki/(rca|ea|aa):").matcher(String.valueOf(svc.get("image")));
            if (!image.find()) {
                return;
            }
            String service = image.group(1);
            Map<String, Object> over = (Map<String, Object>) overrideServices.get(name);
            if (over == null) {
                out.add("compose.pkcs11: " + name + " holds authority keys in compose.yaml but is not given the token");
                return;
            }
            Map<String, Object> env = (Map<String, Object>) over.getOrDefault("environment", Map.of());
            env.keySet().stream().filter(k -> !k.equals(SOFTHSM2_CONF) && !documentedFor(documented, service, k))
                    .forEach(k -> out.add("compose.pkcs11 " + name + ": " + k + " is not a documented key of " + service));
            PKCS11_KEYS.stream().filter(k -> !env.containsKey(k))
                    .forEach(k -> out.add("compose.pkcs11 " + name + ": " + k + " is not set"));
            Object backend = env.get("VPKI_KEYSTORE_BACKEND");
            if (backend != null && !"pkcs11".equals(String.valueOf(backend))) {
                out.add("compose.pkcs11 " + name + ": VPKI_KEYSTORE_BACKEND is " + backend + ", not pkcs11");
            }
            List<String> overrideMounts = targets((List<Object>) over.getOrDefault("volumes", List.of()));
            List<String> mounts = new ArrayList<>(overrideMounts);
            mounts.addAll(targets((List<Object>) svc.getOrDefault("volumes", List.of())));
            Object pin = env.get("VPKI_KEYSTORE_PKCS11_PIN_FILE");
            if (pin != null && mounts.stream().noneMatch(m -> String.valueOf(pin).startsWith(m + "/"))) {
                out.add("compose.pkcs11 " + name + ": the PIN file " + pin + " is in no volume of the container");
            }
            Object library = env.get("VPKI_KEYSTORE_PKCS11_LIBRARY");
            if (library != null && overrideMounts.stream().noneMatch(m -> String.valueOf(library).startsWith(m + "/"))) {
                out.add("compose.pkcs11 " + name + ": the module " + library + " is in no volume the override mounts");
            }
        });
        return out;
    }

    /** The container paths of compose volume entries ({@code source:target[:mode]}, the source may be {@code ${VAR:-default}}). */
    private static List<String> targets(List<Object> volumes) {
        return volumes.stream().map(v -> String.valueOf(v).replaceAll("\\$\\{[^}]*}", "source").split(":")).filter(p -> p.length >= 2)
                .map(p -> p[1]).toList();
    }

    /** The services whose hosts run their own Redis. */
    static final Set<String> REPLICAS = Set.of("ea", "operator");

    /** Every way the deployments disagree, as sentences; none when they agree. */
    static List<String> disagreements(Map<String, Set<String>> documented, Map<String, Set<String>> compose,
                                      Map<String, Set<String>> terraform, Map<String, Set<String>> units) {
        List<String> out = new ArrayList<>();
        for (String service : SERVICES) {
            Set<String> c = compose.getOrDefault(service, Set.of());
            Set<String> t = terraform.getOrDefault(service, Set.of());
            c.stream().filter(k -> !documentedFor(documented, service, k)).forEach(k -> out.add("compose " + service + ": " + k
                    + " is not a documented key of " + service));
            t.stream().filter(k -> !documentedFor(documented, service, k)).forEach(k -> out.add("Terraform " + service + ": " + k
                    + " is not a documented key of " + service));
            Map<String, String> specific = DEPLOYMENT_SPECIFIC.getOrDefault(service, Map.of());
            t.stream().filter(k -> !c.contains(k) && !specific.containsKey(k))
                    .forEach(k -> out.add(service + ": Terraform sets " + k + ", compose does not"));
            c.stream().filter(k -> !t.contains(k) && !specific.containsKey(k))
                    .forEach(k -> out.add(service + ": compose sets " + k + ", Terraform does not"));
            Set<String> unit = units.getOrDefault(service, Set.of());
            for (String line : List.of("EnvironmentFile=/etc/vpki/" + service + ".env", "RuntimeDirectory=vpki-" + service,
                    "ExecStartPre=+/opt/vpki/fetch-secrets %t/vpki-" + service,
                    // a replica shares its host with its own Redis (half the memory, maxmemory): a quarter for the heap
                    "ExecStart=/usr/bin/java -XX:+UseParallelGC -XX:MaxRAMPercentage=" + (REPLICAS.contains(service) ? 25 : 75)
                            + " -jar /opt/vpki/vpki-" + service + ".jar",
                    "CPUSchedulingPolicy=batch")) {
                if (!unit.contains(line)) {
                    out.add("unit " + service + ": missing " + line);
                }
            }
        }
        return out;
    }

    private static boolean documentedFor(Map<String, Set<String>> documented, String service, String key) {
        return documented.getOrDefault(service, Set.of()).stream()
                .anyMatch(d -> d.equals(key) || (d.endsWith("_*") && key.startsWith(d.substring(0, d.length() - 1))));
    }

    /** Environment-variable form of a documented key: {@code vpki.aa.at.validity} is {@code VPKI_AA_AT_VALIDITY}. */
    static String env(String key) {
        return key.replaceAll("<[^>]*>", "*").replaceAll("[.\\-]", "_").toUpperCase(Locale.ROOT);
    }

    /** The keys docs/configuration.md documents, per service, in environment-variable form. */
    static Map<String, Set<String>> documented() throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        SERVICES.forEach(s -> out.put(s, new TreeSet<>()));
        List<String> section = List.of();
        Pattern key = Pattern.compile("`((?:vpki|server|management|spring)\\.[A-Za-z0-9.<> -]+?|VPKI_[A-Z_]+)`");
        for (String line : Files.readAllLines(REPOSITORY.resolve("docs/configuration.md"))) {
            if (line.startsWith("## ")) {
                section = servicesOf(line.substring(3));
                continue;
            }
            if (!line.startsWith("| `") && !line.startsWith("| env `") && !line.startsWith("| system property")) {
                continue;
            }
            String[] cells = line.split("\\|");
            List<String> services = section;
            if (line.contains("`vpki.admin.")) {
                services = List.of("rca");
            } else if (line.contains("`vpki.operator.credentials")) {
                services = List.of("operator");
            } else if (section.isEmpty() && cells.length > 2 && cells[2].matches("[ A-Za-z,]+")) {
                services = servicesOf(cells[2]); // "Endpoints between services": the service column
            }
            Matcher m = key.matcher(cells[1]);
            while (m.find()) {
                for (String s : services) {
                    out.get(s).add(env(m.group(1).strip()));
                }
            }
        }
        return out;
    }

    private static List<String> servicesOf(String heading) {
        String h = heading.toLowerCase(Locale.ROOT);
        if (h.startsWith("all services") || h.startsWith("crypto backend")) {
            return SERVICES;
        }
        if (h.startsWith("local cluster") || h.startsWith("endpoints between")) {
            return List.of();
        }
        List<String> out = new ArrayList<>();
        Map<String, String> names = new LinkedHashMap<>();
        names.put("rca", "rca|root ca");
        names.put("dc", "\\bdc\\b|distribution centre");
        names.put("ea", "\\bea\\b|enrolment authority");
        names.put("operator", "operator");
        names.put("aa", "\\baa\\b|authorization authority");
        names.forEach((service, pattern) -> {
            if (Pattern.compile(pattern).matcher(h).find() && !(service.equals("operator") && h.startsWith("admin"))) {
                out.add(service);
            }
        });
        return out;
    }

    /** Environment keys per service (by image vpki/<service>), the same on every container of a service. */
    @SuppressWarnings("unchecked")
    static Map<String, Set<String>> compose(String yaml) {
        Map<String, Object> root = new Yaml().load(yaml);
        Map<String, Set<String>> out = new TreeMap<>();
        ((Map<String, Object>) root.get("services")).forEach((name, value) -> {
            Map<String, Object> svc = (Map<String, Object>) value;
            Matcher image = Pattern.compile("vpki/([a-z-]+):").matcher(String.valueOf(svc.get("image")));
            if (!image.find() || !SERVICES.contains(image.group(1))) {
                return;
            }
            Object env = svc.getOrDefault("environment", Map.of());
            Set<String> keys = new TreeSet<>(env instanceof Map<?, ?> map
                    ? (Set<String>) map.keySet()
                    : ((List<String>) env).stream().map(e -> e.split("=", 2)[0]).toList());
            Set<String> previous = out.putIfAbsent(image.group(1), keys);
            assertThat(previous == null || previous.equals(keys)).as("every %s container sets the same keys (%s)", image.group(1), name)
                    .isTrue();
        });
        return out;
    }

    /**
     * The keys each service's user data writes into /etc/vpki/&lt;service&gt;.env: the keys of the
     * environment given to module host-config, of its secret_files, and the RCA certificate's if it
     * trusts the RCA (as host-config/main.tf merges them).
     */
    static Map<String, Set<String>> terraform() {
        Deployment d = Deployment.load(TERRAFORM, RealConfigurationTest.EXAMPLE);
        Map<String, Set<String>> out = new TreeMap<>();
        for (ModuleInstance m : d.root().tree()) {
            if (m.call().isEmpty() || !m.module().dir().endsWith(Path.of("modules/host-config"))) {
                continue;
            }
            var call = m.call().get();
            Resolver.Env env = Resolver.Env.of(m.parent().orElseThrow(), call);
            List<String> services = call.body().expr("service").map(e -> constants(e, env)).orElse(List.of());
            assertThat(services).as("%s names one service", m.address()).hasSize(1);
            Set<String> keys = new TreeSet<>();
            call.body().expr("environment").ifPresent(e -> keys.addAll(keyNames(e, env, m)));
            call.body().expr("secret_files").ifPresent(e -> keys.addAll(keyNames(e, env, m)));
            if (call.body().expr("trusts_rca").map(e -> constants(e, env)).orElse(List.of()).contains("true")) {
                keys.add("VPKI_RCA_CERTIFICATE_FILE");
            }
            out.merge(services.get(0), keys, (a, b) -> {
                assertThat(a).as("every %s host gets the same keys", services.get(0)).isEqualTo(b);
                return a;
            });
        }
        return out;
    }

    private static List<String> constants(Expr e, Resolver.Env env) {
        return Resolver.leaves(e, env).stream().filter(Resolver.Constant.class::isInstance)
                .map(l -> String.valueOf(((Resolver.Constant) l).value())).distinct().toList();
    }

    private static List<String> keyNames(Expr e, Resolver.Env env, ModuleInstance m) {
        List<String> out = new ArrayList<>();
        for (Resolver.Leaf l : Resolver.leaves(e, env, Resolver.KEYS)) {
            assertThat(l).as("%s: every key is known (%s)", m.address(), l).isInstanceOf(Resolver.KeyName.class);
            out.add(((Resolver.KeyName) l).name());
        }
        return out;
    }

    /** The lines of each deploy/systemd/vpki-&lt;service&gt;.service. */
    static Map<String, Set<String>> units() throws IOException {
        Map<String, Set<String>> out = new TreeMap<>();
        for (String service : SERVICES) {
            Path unit = REPOSITORY.resolve("deploy/systemd/vpki-" + service + ".service");
            if (Files.isRegularFile(unit)) {
                out.put(service, new TreeSet<>(Files.readAllLines(unit).stream().map(String::strip).toList()));
            }
        }
        return out;
    }

    @Test
    void terraformInstallsTheUnitsFromTheRepository_andItsPathsAreTheUnits() throws IOException {
        String hostConfig = Files.readString(TERRAFORM.resolve("modules/host-config/main.tf"));
        String template = Files.readString(TERRAFORM.resolve("modules/host-config/templates/user-data.sh.tftpl"));
        assertThat(hostConfig).contains("file(\"${path.module}/../../../deploy/systemd/vpki-${var.service}.service\")",
                "runtime_dir = \"/run/vpki-${var.service}\"");
        assertThat(template).contains("cat > /etc/systemd/system/vpki-${service}.service <<'UNIT'\n${unit}\nUNIT",
                "cat > /etc/vpki/${service}.env", "ln -sfn \"/opt/vpki/$jar\" /opt/vpki/vpki-${service}.jar")
                .doesNotContain("[Service]");
        // the certificate files named in the environment are where fetch-secrets puts them
        Optional<String> wrongPath = Files.readString(TERRAFORM.resolve("modules/region/hosts.tf")).lines()
                .filter(l -> l.contains("_CERTIFICATE_FILE"))
                .filter(l -> !l.matches("\\s*VPKI_(EA|AA)_CERTIFICATE_FILE\\s*=\\s*\"/run/vpki-(ea|aa)/(ea|aa)\\.cert\"\\s*")
                        || !l.replaceAll(".*VPKI_(EA|AA).*", "$1").toLowerCase(Locale.ROOT)
                                .equals(l.replaceAll(".*/run/vpki-([a-z]+)/.*", "$1")))
                .findFirst();
        assertThat(wrongPath).isEmpty();
    }
}
