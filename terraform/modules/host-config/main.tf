locals {
  runtime_dir = "/run/vpki-${var.service}"

  # Each secret-bearing key points at the file the unit fetches before start.
  secret_environment = {
    for key, s in var.secret_files : key => "${local.runtime_dir}/${lower(key)}"
  }
  trust_environment = var.trusts_rca ? { VPKI_RCA_CERTIFICATE_FILE = "${local.runtime_dir}/rca.cert" } : {}
  environment       = merge(var.environment, local.trust_environment, local.secret_environment)

  # The user data is composed here and its templates have no directives
  # (%{ if }, %{ for }): every choice and every list is an HCL expression
  # below, so the build's checks read it with a maintained HCL parser
  # (docs/deployment.md, "What the build checks"). To add a secret, add a
  # secret_files entry in the calling module; to add an optional step, add a
  # template under templates/ and a conditional local like redis_setup.

  # /etc/vpki/<service>.env: one KEY=VALUE line per configuration key.
  environment_file = join("\n", [for key, value in local.environment : "${key}=${value}"])

  # /opt/vpki/fetch-secrets, run before every start with the unit's runtime
  # directory as $dir: each secret from Secrets Manager (the copy in this
  # host's region), then the public certificates from the artefact bucket.
  secret_fetches = [
    for key, s in var.secret_files : join(" ", compact([
      "aws secretsmanager get-secret-value --region '${var.region}' --secret-id '${s.secret_id}'",
      "--query SecretString --output text",
      s.base64 ? "| base64 -d" : "",
      "> \"$dir/${lower(key)}\"",
    ]))
  ]
  certificate_fetches = concat(
    var.trusts_rca ? ["aws s3 cp --region '${var.artefacts.region}' \"s3://${var.artefacts.bucket}/${var.artefacts.rca_certificate_key}\" \"$dir/rca.cert\""] : [],
    var.own_certificate ? ["aws s3 cp --region '${var.artefacts.region}' \"s3://${var.artefacts.bucket}/${dirname(var.artefacts.rca_certificate_key)}/${var.service}.cert\" \"$dir/${var.service}.cert\""] : [],
  )

  packages = concat(["java-17-amazon-corretto-headless"], var.redis ? ["redis6"] : [])

  # Optional steps: a template each, or nothing.
  data_volume = var.data_volume_id == null ? "" : templatefile("${path.module}/templates/data-volume.sh.tftpl", {
    data_volume_id = var.data_volume_id
  })
  # Redis asks for the password the service reads (its VPKI_REDIS_PASSWORD_FILE secret): one secret, so the two
  # cannot differ; a Redis host without that secret fails the plan here.
  redis_setup = var.redis ? templatefile("${path.module}/templates/redis.sh.tftpl", {
    region             = var.region
    password_secret_id = var.secret_files["VPKI_REDIS_PASSWORD_FILE"].secret_id
    maxmemory_percent  = var.redis_maxmemory_percent
  }) : ""

  # With CloudHSM: its PKCS#11 library, configured for the cluster (the service's VPKI_KEYSTORE_PKCS11_LIBRARY).
  cloudhsm_setup = var.cloudhsm == null ? "" : templatefile("${path.module}/templates/cloudhsm.sh.tftpl", {
    artefacts    = var.artefacts
    trust_prefix = dirname(var.artefacts.rca_certificate_key)
    cluster_id   = var.cloudhsm.cluster_id
    region       = var.cloudhsm.region
    rpm          = var.cloudhsm.rpm
  })

  # The unit file is part of the repository (deploy/systemd), installed as is: its runtime directory
  # (RuntimeDirectory=vpki-<service>) is runtime_dir above, its EnvironmentFile /etc/vpki/<service>.env.
  unit = file("${path.module}/../../../deploy/systemd/vpki-${var.service}.service")
}

output "user_data" {
  description = "cloud-init user data (a shell script) installing Java, the jar, Redis if asked, and the service's systemd unit from deploy/systemd."
  value = templatefile("${path.module}/templates/user-data.sh.tftpl", {
    service          = var.service
    artefacts        = var.artefacts
    packages         = join(" ", local.packages)
    data_volume      = local.data_volume
    redis_setup      = local.redis_setup
    cloudhsm_setup   = local.cloudhsm_setup
    fetch_commands   = join("\n", concat(local.secret_fetches, local.certificate_fetches))
    environment_file = local.environment_file
    unit             = local.unit
  })
}
