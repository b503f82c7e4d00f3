locals {
  runtime_dir = "/run/vpki-${var.service}"

  # Each secret-bearing key points at the file the unit fetches before start.
  secret_environment = {
    for key, s in var.secret_files : key => "${local.runtime_dir}/${lower(key)}"
  }
  trust_environment = var.trusts_rca ? { VPKI_RCA_CERTIFICATE_FILE = "${local.runtime_dir}/rca.cert" } : {}
}

output "user_data" {
  description = "cloud-init user data (a shell script) installing Java, the jar, Redis if asked, and a systemd unit for the service."
  value = templatefile("${path.module}/templates/user-data.sh.tftpl", {
    service        = var.service
    region         = var.region
    artefacts      = var.artefacts
    environment    = merge(var.environment, local.trust_environment, local.secret_environment)
    secret_files   = var.secret_files
    runtime_dir    = local.runtime_dir
    trusts_rca     = var.trusts_rca
    redis          = var.redis
    data_volume_id = var.data_volume_id == null ? "" : var.data_volume_id
  })
}
