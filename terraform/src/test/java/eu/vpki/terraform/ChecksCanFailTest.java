package eu.vpki.terraform;

import eu.vpki.terraform.checks.Check;
import eu.vpki.terraform.checks.CloudHsmCheck;
import eu.vpki.terraform.checks.ConsistencyCheck;
import eu.vpki.terraform.checks.Deployment;
import eu.vpki.terraform.checks.IngressCheck;
import eu.vpki.terraform.checks.ListenerTlsCheck;
import eu.vpki.terraform.checks.ManagementPortCheck;
import eu.vpki.terraform.checks.RegionsCheck;
import eu.vpki.terraform.checks.SecretsCheck;
import eu.vpki.terraform.checks.Violation;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Each check reports what it is meant to catch: on a copy of the real configuration with one deliberate
 * mistake (so the check is known to see through the real wiring), and on a small bad fixture.
 */
class ChecksCanFailTest {

    @TempDir
    Path copy;

    private void copyConfiguration() throws IOException {
        for (Path f : RealConfigurationTest.configurationFiles(RealConfigurationTest.DIR)) {
            Path target = copy.resolve(RealConfigurationTest.DIR.relativize(f).toString());
            Files.createDirectories(target.getParent());
            Files.copy(f, target);
        }
    }

    /** Replaces the one occurrence of from in file (relative to the configuration). */
    private ChecksCanFailTest mutate(String file, String from, String to) throws IOException {
        if (!Files.exists(copy.resolve("main.tf"))) {
            copyConfiguration();
        }
        Path p = copy.resolve(file);
        String text = Files.readString(p);
        assertThat(text.split(java.util.regex.Pattern.quote(from), -1)).as("occurrences of %s in %s", from, file).hasSize(2);
        Files.writeString(p, text.replace(from, to));
        return this;
    }

    /** Runs a check on a small bad configuration of its own under src/test/resources/fixtures. */
    private List<String> runOnFixture(Check check, String fixture) throws URISyntaxException {
        Path dir = Path.of(getClass().getResource("/fixtures/" + fixture + "/main.tf").toURI()).getParent();
        return check.run(Deployment.load(dir, dir.resolve("example.tfvars"))).stream().map(Violation::toString).toList();
    }

    /** Each expected text is in one of the violations, and there are no others. */
    private static void assertReports(List<String> violations, String... expected) {
        assertThat(violations).as("violations").hasSize(expected.length);
        for (String e : expected) {
            assertThat(violations).anySatisfy(v -> assertThat(v).contains(e));
        }
    }

    private List<String> run(Check check) {
        Deployment d = Deployment.load(copy, copy.resolve("examples/eu-us.tfvars"));
        return check.run(d).stream().map(Violation::toString).toList();
    }

    // ---------------------------------------------------------------- regions

    @Test
    void regionsReportsAResourceWithoutItsRegion() throws IOException {
        mutate("modules/region/network.tf", "resource \"aws_internet_gateway\" \"this\" {\n  region = var.region\n",
                "resource \"aws_internet_gateway\" \"this\" {\n");
        assertThat(run(new RegionsCheck())).singleElement().asString()
                .contains("aws_internet_gateway.this in modules/region does not set region = var.region");
    }

    @Test
    void regionsReportsRegionsLeftOutOfTheForEach() throws IOException {
        mutate("main.tf", "for_each = var.regions", "for_each = { for k, v in var.regions : k => v if k != \"us-west-2\" }");
        assertThat(run(new RegionsCheck())).hasSize(2).anySatisfy(v -> assertThat(v)
                .contains("region us-west-2 of the example does not instantiate module region"));
    }

    @Test
    void regionsReportsAModuleCallPinnedToOneRegion() throws IOException {
        mutate("main.tf", "region      = each.key", "region      = \"eu-west-1\"");
        assertThat(run(new RegionsCheck())).hasSize(2);
    }

    @Test
    void regionsReportsEveryMistakeOfTheBadFixture() throws URISyntaxException {
        assertReports(runOnFixture(new RegionsCheck(), "bad-regions"),
                "region eu-west-1 of the example does not instantiate module region",
                "region us-east-1 of the example does not instantiate module region",
                "aws_vpc.this in modules/region does not set region = var.region",
                "data.aws_availability_zones.available in modules/region does not set");
    }

    // ---------------------------------------------------------------- management port

    @Test
    void managementPortReportsATargetGroupForwardingToActuator() throws IOException {
        mutate("modules/region/lb.tf", "  port                 = each.value.port\n", "  port                 = 9083\n");
        assertThat(run(new ManagementPortCheck())).singleElement().asString()
                .contains("module.region.aws_lb_target_group.service forwards to management port 9083");
    }

    @Test
    void managementPortReportsAnAttachmentOrListenerOnAnotherPort() throws IOException {
        mutate("modules/region/lb.tf", "  port             = local.service_ports.ea\n", "  port             = local.management_ports.ea\n");
        mutate("modules/region/lb.tf", "  port              = 80\n", "  port              = 9082\n");
        assertThat(run(new ManagementPortCheck())).hasSize(2)
                .anySatisfy(v -> assertThat(v).contains("aws_lb_target_group_attachment.ea forwards to"))
                .anySatisfy(v -> assertThat(v).contains("aws_lb_listener.http listens on 9082, not 80 or 443"));
    }

    @Test
    void managementPortReportsEveryMistakeOfTheBadFixture() throws URISyntaxException {
        assertReports(runOnFixture(new ManagementPortCheck(), "bad-management-port"),
                "aws_lb_target_group.ea forwards to management port 9083",
                "aws_lb_target_group_attachment.operator forwards to a port that is not a constant",
                "aws_lb_listener.aa listens on 8085, not 80 or 443");
    }

    // ---------------------------------------------------------------- listener TLS

    @Test
    void listenerTlsReportsAnHttpsListenerWithAPolicyThatAcceptsTls10() throws IOException {
        mutate("modules/region/lb.tf", "\"ELBSecurityPolicy-TLS13-1-2-2021-06\"", "\"ELBSecurityPolicy-2016-08\"");
        assertThat(run(new ListenerTlsCheck())).singleElement().asString()
                .contains(
                        "module.region.aws_lb_listener.https has ssl_policy ELBSecurityPolicy-2016-08, not a ELBSecurityPolicy-TLS13-* policy");
    }

    @Test
    void listenerTlsReportsAnHttpsListenerThatNoRuleUses() throws IOException {
        mutate("modules/region/lb.tf", "  listener_arn = aws_lb_listener.https[0].arn\n", "  listener_arn = aws_lb_listener.http.arn\n");
        assertThat(run(new ListenerTlsCheck())).singleElement().asString()
                .contains("module.region.aws_lb_listener.https is the listener_arn of no aws_lb_listener_rule");
    }

    @Test
    void listenerTlsReportsEveryMistakeOfTheBadFixture() throws URISyntaxException {
        assertReports(runOnFixture(new ListenerTlsCheck(), "bad-listener-tls"),
                "aws_lb_listener.plain_443 listens on 443 with protocol HTTP, not HTTPS",
                "aws_lb_listener.https_8443 speaks HTTPS on another port than 443",
                "aws_lb_listener.bare speaks HTTPS without certificate_arn",
                "aws_lb_listener.bare speaks HTTPS without ssl_policy",
                "aws_lb_listener.weak has ssl_policy ELBSecurityPolicy-2016-08",
                "aws_lb_listener.orphan is the listener_arn of no aws_lb_listener_rule");
    }

    // ---------------------------------------------------------------- ingress

    @Test
    void ingressReportsJGroupsOpenToTheWorld() throws IOException {
        mutate("modules/region/security.tf", "cidr_ipv4         = each.value.cidr", "cidr_ipv4         = \"0.0.0.0/0\"");
        assertThat(run(new IngressCheck())).singleElement().asString()
                .contains("module.region.aws_vpc_security_group_ingress_rule.jgroups opens port 7800 (JGroups) to 0.0.0.0/0");
    }

    @Test
    void ingressReportsAWorldDefaultOfTheOperatorNetwork() throws IOException {
        mutate("variables.tf", "  type        = list(string)\n\n  validation {\n    condition     = length(var.operator_cidrs)",
                "  type        = list(string)\n  default     = [\"0.0.0.0/0\"]\n\n  validation {\n    condition     = length(var.operator_cidrs)");
        assertThat(run(new IngressCheck())).hasSize(2)
                .anySatisfy(v -> assertThat(v).contains(
                        "aws_vpc_security_group_ingress_rule.operator_api opens port 8084 (Operator API) to 0.0.0.0/0 (default of var.operator_cidrs)"))
                .anySatisfy(v -> assertThat(v).contains("aws_vpc_security_group_ingress_rule.rca_admin opens port 8081 (RCA admin API)"));
    }

    @Test
    void ingressReportsAnUnvalidatedOperatorNetwork() throws IOException {
        mutate("variables.tf", "!contains([\"0.0.0.0/0\", \"::/0\"], c)", "true");
        assertThat(run(new IngressCheck())).hasSize(2)
                .allSatisfy(v -> assertThat(v).contains("var.operator_cidrs is a source of")
                        .contains("no validation rejects 0.0.0.0/0 and ::/0"));
    }

    @Test
    void ingressReportsEveryFormOfRuleInTheBadFixture() throws URISyntaxException {
        List<String> violations = runOnFixture(new IngressCheck(), "bad-ingress");
        assertThat(violations).hasSize(4)
                .anySatisfy(v -> assertThat(v).contains(
                        "aws_security_group.replicas opens port 7800 (JGroups), 8081 (RCA admin API), 8084 (Operator API) to 0.0.0.0/0 (default of var.world)"))
                .anySatisfy(v -> assertThat(v).contains("var.world is a source of aws_security_group.replicas")
                        .contains("no validation rejects"))
                .anySatisfy(v -> assertThat(v).contains("aws_security_group_rule.redis opens port 6379 (Redis) to ::/0"))
                .anySatisfy(v -> assertThat(v).contains(
                        "aws_vpc_security_group_ingress_rule.everything opens port 22 (SSH), 6379 (Redis), 7800 (JGroups), 8081 (RCA admin API), 8084 (Operator API) to 0.0.0.0/0"));
    }

    // ---------------------------------------------------------------- secrets

    @Test
    void secretsReportsACredentialVariableWithADefault() throws IOException {
        mutate("variables.tf", "variable \"domain_name\" {",
                "variable \"admin_token\" {\n  type    = string\n  default = \"changeit\"\n}\n\nvariable \"domain_name\" {");
        assertThat(run(new SecretsCheck())).hasSize(2)
                .anySatisfy(v -> assertThat(v).contains("variable admin_token looks like a credential but is not sensitive = true"))
                .anySatisfy(v -> assertThat(v).contains("variable admin_token looks like a credential but has a default"));
    }

    @Test
    void secretsReportsASecretValueInTheState() throws IOException {
        mutate("modules/shared/main.tf", "# S3_PING discovery:",
                "resource \"aws_secretsmanager_secret_version\" \"ea\" {\n  secret_id     = aws_secretsmanager_secret.this[\"ea_keystore_password\"].id\n"
                        + "  secret_string = \"changeit\"\n}\n\n# S3_PING discovery:");
        assertThat(run(new SecretsCheck())).singleElement().asString()
                .contains("module.shared.aws_secretsmanager_secret_version.ea sets secret_string");
    }

    @Test
    void secretsReportsASecretIdNotFromSecretsManager() throws IOException {
        mutate("modules/region/hosts.tf", "secret_id = var.secrets[\"operator_credentials\"].name",
                "secret_id = \"vpki/operator-credentials\"");
        assertThat(run(new SecretsCheck())).singleElement().asString()
                .contains("module.region.module.operator_host: a secret_id comes from the constant \"vpki/operator-credentials\"");
    }

    @Test
    void secretsReportsAPlainPasswordInTheEnvironment() throws IOException {
        mutate("modules/region/hosts.tf", "        VPKI_EA_CERTIFICATE_FILE = \"/run/vpki-ea/ea.cert\"\n",
                "        VPKI_EA_CERTIFICATE_FILE = \"/run/vpki-ea/ea.cert\"\n        VPKI_KEYSTORE_PASSWORD   = \"changeit\"\n");
        assertThat(run(new SecretsCheck())).singleElement().asString()
                .contains("module.region.module.ea_host: environment sets VPKI_KEYSTORE_PASSWORD in plain text");
    }

    @Test
    void secretsReportsABearerApiWithoutTls() throws IOException {
        mutate("modules/global/rca.tf", "    SERVER_SSL_BUNDLE = \"api\"\n", "");
        mutate("modules/region/hosts.tf",
                "        SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_PRIVATE_KEY = { secret_id = var.secrets[\"operator_tls_key\"].name, base64 = false }\n",
                "");
        assertThat(run(new SecretsCheck())).hasSize(2)
                .anySatisfy(v -> assertThat(v).contains("module.global.module.rca_host: serves a bearer-token API ([rca]) without "
                        + "SERVER_SSL_BUNDLE"))
                .anySatisfy(v -> assertThat(v).contains("module.region.module.operator_host: serves a bearer-token API ([operator]) but "
                        + "secret_files gives no SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_PRIVATE_KEY"));
    }

    @Test
    void secretsReportsARedisWithoutPassword_andAPlainRedisPassword() throws IOException {
        mutate("modules/region/hosts.tf",
                "        VPKI_REDIS_PASSWORD_FILE = { secret_id = var.secrets[\"redis_password\"].name, base64 = false }\n", "");
        mutate("modules/region/hosts.tf", "        VPKI_EA_CERTIFICATE_FILE = \"/run/vpki-ea/ea.cert\"\n",
                "        VPKI_EA_CERTIFICATE_FILE = \"/run/vpki-ea/ea.cert\"\n        VPKI_REDIS_PASSWORD      = \"changeit\"\n");
        assertThat(run(new SecretsCheck())).hasSize(2)
                .anySatisfy(v -> assertThat(v).contains("module.region.module.ea_host: runs its own Redis but secret_files gives no "
                        + "VPKI_REDIS_PASSWORD_FILE"))
                .anySatisfy(
                        v -> assertThat(v).contains("module.region.module.ea_host: environment sets VPKI_REDIS_PASSWORD in plain text"));
    }

    @Test
    void secretsReportsAReplicaHostWithoutItsReplicationKeyStore() throws IOException {
        mutate("modules/region/hosts.tf",
                "  secret_files = merge(local.replica_services.operator.secret_files, local.replication_secret_files, {\n"
                        + "    VPKI_REPLICATION_TLS_KEY_STORE = { secret_id = var.secrets[\"replication_keystore_${var.region}.${each.key}\"].name, base64 = true }\n"
                        + "  })",
                "  secret_files = merge(local.replica_services.operator.secret_files, local.replication_secret_files)");
        assertThat(run(new SecretsCheck())).singleElement().asString()
                .contains("module.region.module.operator_host: a replica host without VPKI_REPLICATION_TLS_KEY_STORE in its secret_files");
    }

    @Test
    void secretsReportsReplicaHostsWithoutTheReplicationTrustStoreAndPassword() throws IOException {
        mutate("modules/region/hosts.tf",
                "    VPKI_REPLICATION_TLS_TRUST_STORE   = { secret_id = var.secrets[\"replication_truststore\"].name, base64 = true }\n"
                        + "    VPKI_REPLICATION_TLS_PASSWORD_FILE = { secret_id = var.secrets[\"replication_password\"].name, base64 = false }\n",
                "");
        assertThat(run(new SecretsCheck())).hasSize(4)
                .anySatisfy(v -> assertThat(v).contains("module.ea_host: a replica host without VPKI_REPLICATION_TLS_TRUST_STORE"))
                .anySatisfy(v -> assertThat(v).contains("module.ea_host: a replica host without VPKI_REPLICATION_TLS_PASSWORD_FILE"))
                .anySatisfy(v -> assertThat(v).contains("module.operator_host: a replica host without VPKI_REPLICATION_TLS_TRUST_STORE"))
                .anySatisfy(v -> assertThat(v).contains("module.operator_host: a replica host without VPKI_REPLICATION_TLS_PASSWORD_FILE"));
    }

    @Test
    void secretsReportsUserDataThatDoesNotFetchBySecretId() throws IOException {
        mutate("modules/host-config/main.tf", "--secret-id '${s.secret_id}'", "--secret-id '${key}'");
        // the EA replicas, the Operator replicas, the AA group and the RCA; the DC has no secrets
        assertThat(run(new SecretsCheck())).hasSize(4)
                .allSatisfy(v -> assertThat(v).contains("the user data does not fetch every secret_files entry"));
    }

    @Test
    void secretsReportsATemplateThatLeavesOutTheFetchCommands() throws IOException {
        mutate("modules/host-config/templates/user-data.sh.tftpl", "${fetch_commands}\n", "");
        assertThat(run(new SecretsCheck())).hasSize(4)
                .allSatisfy(v -> assertThat(v).contains("the user data does not fetch every secret_files entry"));
    }

    @Test
    void secretsReportsEveryMistakeOfTheBadFixture() throws URISyntaxException {
        assertReports(runOnFixture(new SecretsCheck(), "bad-secrets"),
                "variable admin_token looks like a credential but is not sensitive",
                "variable admin_token looks like a credential but has a default",
                "aws_secretsmanager_secret_version.keystore_password sets secret_string",
                "module.operator: a secret_id comes from the constant",
                "module.operator: serves a bearer-token API ([operator]) without SERVER_SSL_BUNDLE",
                "gives no SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_CERTIFICATE",
                "gives no SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_PRIVATE_KEY",
                "module.operator: runs its own Redis but secret_files gives no VPKI_REDIS_PASSWORD_FILE",
                "module.operator: environment sets VPKI_ADMIN_TOKEN in plain text",
                "aws_instance.this: the user data does not fetch every secret_files entry",
                "module.ea_0: a replica host without VPKI_REPLICATION_TLS_KEY_STORE",
                "module.ea_0: a replica host without VPKI_REPLICATION_TLS_TRUST_STORE",
                "module.ea_0: a replica host without VPKI_REPLICATION_TLS_PASSWORD_FILE",
                "module.ea_1: a replica host without VPKI_REPLICATION_TLS_KEY_STORE",
                "module.ea_1: a replica host without VPKI_REPLICATION_TLS_PASSWORD_FILE",
                "module.ea_1: environment sets VPKI_REPLICATION_TLS_PASSWORD in plain text",
                "module.ea_1: environment sets VPKI_REPLICATION_TLS_KEY_STORE itself");
    }

    // ---------------------------------------------------------------- consistency

    @Test
    void consistencyReportsAHardCodedOrder() throws IOException {
        mutate("modules/region/hosts.tf", "VPKI_REPLICATION_ORDER            = var.replication_order",
                "VPKI_REPLICATION_ORDER            = \"TOTAL\"");
        assertThat(run(new ConsistencyCheck())).hasSize(2) // the EA and the Operator replicas
                .allSatisfy(v -> assertThat(v).contains(
                        "module.region.aws_instance.replica: VPKI_REPLICATION_ORDER is not var.replication_order but the constant \"TOTAL\""));
    }

    @Test
    void consistencyReportsATransformedPropagation() throws IOException {
        mutate("modules/region/hosts.tf", "VPKI_REPLICATION_PROPAGATION      = var.replication_propagation",
                "VPKI_REPLICATION_PROPAGATION      = lower(var.replication_propagation)");
        assertThat(run(new ConsistencyCheck())).hasSize(2) // the EA and the Operator replicas
                .allSatisfy(v -> assertThat(v).contains("VPKI_REPLICATION_PROPAGATION is derived from var.replication_propagation"));
    }

    @Test
    void consistencyReportsARootModuleThatDoesNotPassTheVariable() throws IOException {
        mutate("main.tf", "replication_order            = var.replication_order", "replication_order            = \"FIFO\"");
        assertThat(run(new ConsistencyCheck())).hasSize(2) // the EA and the Operator replicas
                .allSatisfy(v -> assertThat(v).contains("VPKI_REPLICATION_ORDER is not var.replication_order but the constant \"FIFO\""));
    }

    @Test
    void consistencyReportsAValidationAllowingOtherModes() throws IOException {
        mutate("variables.tf", "contains([\"TOTAL\", \"FIFO\"], var.replication_order)",
                "contains([\"TOTAL\", \"FIFO\", \"CAUSAL\"], var.replication_order)");
        assertThat(run(new ConsistencyCheck())).singleElement().asString()
                .contains("variable replication_order has no validation restricting it to");
    }

    @Test
    void consistencyReportsAnEnvironmentFileNotWrittenAsKeyValue() throws IOException {
        mutate("modules/host-config/main.tf", "\"${key}=${value}\"", "\"${key}: ${value}\"");
        // every host (EA and Operator replicas, DC, AA, RCA); with no environment written, no replica is found
        assertThat(run(new ConsistencyCheck())).hasSize(6)
                .anySatisfy(v -> assertThat(v).contains("no replica host found"))
                .filteredOn(v -> !v.contains("no replica host found")).hasSize(5)
                .allSatisfy(v -> assertThat(v).contains("the user data template writes no [for k, v in <environment> : \"${k}=${v}\"]"));
    }

    @Test
    void consistencyReportsATemplateThatLeavesOutTheEnvironmentFile() throws IOException {
        mutate("modules/host-config/templates/user-data.sh.tftpl", "${environment_file}\n", "");
        assertThat(run(new ConsistencyCheck())).hasSize(6)
                .filteredOn(v -> !v.contains("no replica host found")).hasSize(5)
                .allSatisfy(v -> assertThat(v).contains("the user data template writes no"));
    }

    @Test
    void consistencyReportsWhenNoReplicaHostIsFound() throws IOException {
        mutate("modules/region/hosts.tf", "    VPKI_REPLICATION_DISCOVERY        = var.replication_discovery\n", "");
        assertThat(run(new ConsistencyCheck())).singleElement().asString().contains("no replica host found");
    }

    @Test
    void consistencyReportsEveryMistakeOfTheBadFixture() throws URISyntaxException {
        assertReports(runOnFixture(new ConsistencyCheck(), "bad-consistency"),
                "variable replication_order has no validation restricting it to",
                "variable replication_propagation has no validation restricting it to",
                "VPKI_REPLICATION_ORDER is not var.replication_order but the constant \"TOTAL\"",
                "VPKI_REPLICATION_PROPAGATION is derived from var.replication_propagation");
    }

    // ---------------------------------------------------------------- CloudHSM (issue #36)

    @Test
    void cloudHsmReportsEveryRuleBrokenInItsFixture() throws URISyntaxException {
        assertReports(runOnFixture(new CloudHsmCheck(), "bad-cloudhsm"), "variable cloudhsm is not off by default",
                "variable cloudhsm has no validation requiring authority_curve",
                "aws_cloudhsm_v2_cluster.always is not gated by the option",
                "aws_cloudhsm_v2_cluster.always has no lifecycle precondition",
                "aws_cloudhsm_v2_hsm.one_when_off is not gated by the option");
    }

    @Test
    void cloudHsmReportsAnOptionOnByDefault_andOneNotTiedToNistP256() throws IOException {
        mutate("variables.tf", "  default = { enabled = false }\n", "  default = { enabled = true }\n");
        mutate("variables.tf", "    condition     = !var.cloudhsm.enabled || var.authority_curve == \"nistP256\"\n",
                "    condition     = !var.cloudhsm.enabled || length(var.authority_curve) > 0\n");
        assertReports(run(new CloudHsmCheck()), "variable cloudhsm is not off by default",
                "variable cloudhsm has no validation requiring authority_curve = \"nistP256\" when enabled");
    }

    @Test
    void cloudHsmReportsHsmsCreatedWithTheOptionOff_andAClusterThatAllowsBrainpool() throws IOException {
        mutate("modules/region/cloudhsm.tf", "  count = var.cloudhsm.enabled ? var.cloudhsm.hsms_per_region : 0\n",
                "  count = var.cloudhsm.hsms_per_region\n");
        mutate("modules/region/cloudhsm.tf", "      condition     = var.authority_curve == \"nistP256\"\n",
                "      condition     = length(var.authority_curve) > 0\n");
        assertReports(run(new CloudHsmCheck()),
                "module.region.aws_cloudhsm_v2_hsm.this is not gated by the option: count must be var.cloudhsm.enabled ? ... : 0",
                "module.region.aws_cloudhsm_v2_cluster.this has no lifecycle precondition requiring authority_curve = \"nistP256\"");
    }

    @Test
    void cloudHsmReportsAnAaWithoutTheClientOrTheClustersSecurityGroup() throws IOException {
        mutate("modules/region/hosts.tf",
                "  secret_files    = local.key_secret_files.aa\n  trusts_rca      = true\n  own_certificate = true\n"
                        + "  cloudhsm        = local.cloudhsm_client\n",
                "  secret_files    = local.key_secret_files.aa\n  trusts_rca      = true\n"
                        + "  own_certificate = true\n");
        mutate("modules/region/hosts.tf", "concat([aws_security_group.service[\"aa\"].id], local.cloudhsm_security_group_ids)",
                "[aws_security_group.service[\"aa\"].id]");
        assertReports(run(new CloudHsmCheck()),
                "module.region.module.aa_host ([aa]) holds authority keys but is not given the CloudHSM client",
                "module.region.aws_launch_template.aa runs module.region.module.aa_host but vpc_security_group_ids never includes the "
                        + "CloudHSM cluster's security group");
    }

    @Test
    void cloudHsmReportsAnRcaThatNeverUsesTheToken_orGetsNoPin() throws IOException {
        mutate("modules/global/rca.tf", "    VPKI_KEYSTORE_BACKEND                = \"pkcs11\"\n",
                "    VPKI_KEYSTORE_BACKEND                = \"software\"\n");
        mutate("modules/global/rca.tf", "    VPKI_KEYSTORE_PKCS11_PIN_FILE = { secret_id", "    VPKI_KEYSTORE_PKCS11_PIN = { secret_id");
        assertReports(run(new CloudHsmCheck()),
                "module.global.module.rca_host ([rca]): environment never sets VPKI_KEYSTORE_BACKEND = \"pkcs11\"",
                "module.global.module.rca_host ([rca]): secret_files never gives VPKI_KEYSTORE_PKCS11_PIN_FILE");
    }

    @Test
    void cloudHsmReportsEasAndAasWithoutTheLibrary() throws IOException {
        mutate("modules/region/cloudhsm.tf", "    VPKI_KEYSTORE_PKCS11_LIBRARY         = var.cloudhsm.pkcs11_library\n",
                "    VPKI_KEYSTORE_PKCS11_LIBRARI         = var.cloudhsm.pkcs11_library\n");
        assertReports(run(new CloudHsmCheck()), "module.region.module.ea_host ([ea]): environment never sets VPKI_KEYSTORE_PKCS11_LIBRARY",
                "module.region.module.aa_host ([aa]): environment never sets VPKI_KEYSTORE_PKCS11_LIBRARY");
    }
}
