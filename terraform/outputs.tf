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
  description = "Private address of the RCA (admin API on 8081, reachable from operator_cidrs only)."
  value       = module.global.rca_private_ip
}

output "secret_names" {
  description = "Secrets Manager secrets whose values must be put out of band before the services can start (see docs/deployment.md)."
  value       = { for k, s in module.shared.secrets : k => s.name }
}

output "operator_urls" {
  description = "Operator API of every Operator replica (private; reachable from operator_cidrs only)."
  value       = { for region, l in local.layout : region => [for ip in l.operator_ips : "http://${ip}:8084"] }
}

output "load_client_command" {
  # Registers simulated vehicles through the Operator API (so run it from the
  # operator network, with the operator's token in operator-token), enrols them
  # and sweeps the AT rate: docs/load-client.md.
  description = "Load client command lines against this deployment (run from the operator network; rca.cert is the RCA certificate of the key ceremony)."
  value = join(" && ", [
    "java -jar vpki-load-client-${var.vpki_version}.jar register --operator http://${local.layout[var.home_region].operator_ips[0]}:8084 --operator-token-file operator-token --stations 10000",
    "java -jar vpki-load-client-${var.vpki_version}.jar enrol --dc ${local.endpoints.dc} --rca-cert rca.cert --rate 200",
    "java -jar vpki-load-client-${var.vpki_version}.jar sweep --dc ${local.endpoints.dc} --rca-cert rca.cert --start-rate 100 --step-duration PT30S",
  ])
}
