output "dc_url" {
  description = "Latency-routed DC URL vehicles use for the CTL and CRL."
  value       = local.endpoints.dc
}

output "endpoints" {
  description = "Vehicle-facing endpoints: the latency-routed names and, per region, the regional names and load balancer."
  value = {
    nearest = local.endpoints
    regions = {
      for region, m in module.region : region => {
        aa           = "http://aa.${region}.${var.domain_name}"
        ea           = "http://ea.${region}.${var.domain_name}"
        dc           = "http://dc.${region}.${var.domain_name}"
        alb_dns_name = m.alb_dns_name
      }
    }
  }
}

output "replication_members" {
  description = "Private IPs of all EA and Operator replicas, in replication-group order."
  value       = local.replica_ips
}

output "rca_private_ip" {
  description = "Private address of the RCA (admin API on https://<address>:8081, reachable from operator_cidrs only)."
  value       = module.global.rca_private_ip
}

output "secret_names" {
  description = "Secrets Manager secrets whose values must be put out of band before the services can start (see docs/deployment.md)."
  value       = { for k, s in module.shared.secrets : k => s.name }
}

output "operator_urls" {
  description = "Operator API of every Operator replica (private; reachable from operator_cidrs only)."
  value       = { for region, l in local.layout : region => [for ip in l.operator_ips : "https://${ip}:8084"] }
}

output "tls_bootstrap_command" {
  # The RCA admin API and the Operator API speak TLS only, with certificates of a CA private to this
  # deployment; this command (run where the key ceremony runs) issues them for the addresses clients use.
  # Put tls/rca.crt, tls/rca.key, tls/operator.crt and tls/operator.key into the secrets rca-tls-certificate,
  # rca-tls-key, operator-tls-certificate and operator-tls-key; clients trust tls/ca.crt (docs/deployment.md).
  description = "Issues the TLS CA and the server certificates of the RCA admin API and the Operator API for this deployment's addresses."
  value = join(" ", [
    "java -jar vpki-admin-${var.vpki_version}.jar bootstrap tls --dir tls",
    "--server rca=${module.global.rca_private_ip}",
    "--server operator=${join(",", flatten([for region, l in local.layout : l.operator_ips]))}",
  ])
}

output "load_client_command" {
  # Registers simulated vehicles through the Operator API (so run it from the
  # operator network, with the operator's token in operator-token), enrols them
  # and sweeps the AT rate: docs/testbed.md.
  description = "Load client command lines against this deployment (run from the operator network; rca.cert is the RCA certificate of the key ceremony)."
  value = join(" && ", [
    "java -jar vpki-cli-${var.vpki_version}.jar register --operator https://${local.layout[var.home_region].operator_ips[0]}:8084 --tls-ca tls/ca.crt --operator-token-file operator-token --stations 10000",
    "java -jar vpki-cli-${var.vpki_version}.jar enrol --dc ${local.endpoints.dc} --rca-cert rca.cert --rate 200",
    "java -jar vpki-cli-${var.vpki_version}.jar sweep --dc ${local.endpoints.dc} --rca-cert rca.cert --start-rate 100 --step-duration PT30S",
  ])
}

output "replication_bootstrap_command" {
  # The replicas run mutual TLS and sign their commands with certificates of a deployment CA private to this
  # deployment; this command (run where the key ceremony runs) issues the CA and one key store per replica id.
  # Put replication/trust.p12 and replication/password into the secrets replication-truststore (base64) and
  # replication-password, and each replication/<replica id>.p12 into replication-keystore-<replica id> (base64);
  # keep replication/deployment-ca.p12 offline (docs/deployment.md, docs/security.md).
  description = "Issues the replication channel's deployment CA and a key store for every EA and Operator replica of this deployment."
  value       = "java -jar vpki-admin-${var.vpki_version}.jar bootstrap replication --dir replication --replica ${join(",", local.replica_ids)}"
}
