locals {
  runtime_dir = "/run/vpki-${var.service}"

  # Each secret-bearing key points at the file the unit fetches before start.
  secret_environment = {
    for key, s in var.secret_files : key => "${local.runtime_dir}/${lower(key)}"
  }
  trust_environment = var.trusts_rca ? { VPKI_RCA_CERTIFICATE_FILE = "${local.runtime_dir}/rca.cert" } : {}

  # The unit file is part of the repository (deploy/systemd), installed as is: its runtime directory
  # (RuntimeDirectory=vpki-<service>) is runtime_dir above, its EnvironmentFile /etc/vpki/<service>.env.
  unit = file("${path.module}/../../../deploy/systemd/vpki-${var.service}.service")
}

output "user_data" {
  description = "cloud-init user data (a shell script) installing Java, the jar, Redis if asked, and the service's systemd unit from deploy/systemd."
  value = templatefile("${path.module}/templates/user-data.sh.tftpl", {
    service             = var.service
    region              = var.region
    artefacts           = var.artefacts
    environment         = merge(var.environment, local.trust_environment, local.secret_environment)
    secret_files        = var.secret_files
    runtime_dir         = local.runtime_dir
    unit                = local.unit
    trusts_rca          = var.trusts_rca
    own_certificate_key = var.own_certificate ? "${dirname(var.artefacts.rca_certificate_key)}/${var.service}.cert" : ""
    redis               = var.redis
    data_volume_id      = var.data_volume_id == null ? "" : var.data_volume_id
  })
}
