data "aws_caller_identity" "current" {}

locals {
  # Every credential the services read. Terraform creates only the secret
  # containers: a aws_secretsmanager_secret_version with secret_string would
  # put the value into the state (and the plan), so values are put out of band
  # by the key ceremony (docs/deployment.md), and hosts read them at service
  # start through their instance role. Key stores are PKCS#12 files, stored
  # base64-encoded in SecretString.
  base_secrets = {
    rca_keystore          = { description = "RCA PKCS#12 key store (base64)", everywhere = false, region = null }
    rca_keystore_password = { description = "Password of the RCA key store", everywhere = false, region = null }
    rca_admin_token       = { description = "Bearer token of the RCA admin API", everywhere = false, region = null }
    ea_keystore           = { description = "EA PKCS#12 key store (base64), shared by all EA replicas", everywhere = true, region = null }
    ea_keystore_password  = { description = "Password of the EA key store", everywhere = true, region = null }
    aa_keystore           = { description = "AA PKCS#12 key store (base64)", everywhere = true, region = null }
    aa_keystore_password  = { description = "Password of the AA key store", everywhere = true, region = null }
    operator_credentials  = { description = "Operator credentials file (operator id and token hash per line)", everywhere = true, region = null }
    # HTTPS of the bearer-token APIs: PEM files of 'vpki-admin bootstrap tls' (output tls_bootstrap_command),
    # a certificate chain and its PKCS#8 key; clients trust that command's ca.crt (docs/security.md).
    rca_tls_certificate      = { description = "TLS certificate chain (PEM) of the RCA admin API", everywhere = false, region = null }
    rca_tls_key              = { description = "TLS private key (PKCS#8 PEM) of the RCA admin API", everywhere = false, region = null }
    operator_tls_certificate = { description = "TLS certificate chain (PEM) of the Operator API, naming every Operator replica's address", everywhere = true, region = null }
    operator_tls_key         = { description = "TLS private key (PKCS#8 PEM) of the Operator API", everywhere = true, region = null }
    # Every EA and Operator replica's own Redis (loopback only) asks for it (requirepass); the replica reads it too.
    redis_password = { description = "Password of every replica's Redis (requirepass; printable, no spaces or quotes)", everywhere = true, region = null }
    # The replication channel (docs/security.md, "JGroups channel"): the deployment CA certificate(s) in a
    # PKCS#12 trust store, and one password for it and every replica's key store ('vpki-admin bootstrap replication').
    replication_truststore = { description = "Replication trust store: the deployment CA certificate(s) (PKCS#12, base64)", everywhere = true, region = null }
    replication_password   = { description = "Password of the replication trust store and key stores", everywhere = true, region = null }
  }
  # One key store per EA and Operator replica (its key and certificate CN=<replica id> from the deployment
  # CA), kept in the replica's own region only.
  replica_keystores = {
    for id in var.replica_ids : "replication_keystore_${id}" => {
      description = "Replication key store of replica ${id} (PKCS#12, base64)"
      everywhere  = false
      region      = split(".", id)[0]
    }
  }
  # With CloudHSM (root variable cloudhsm) the authorities' keys are in the HSMs: no key store secrets, and the
  # crypto user's PIN ("<user>:<password>") that every RCA, EA and AA host logs in with.
  key_store_secrets = ["rca_keystore", "rca_keystore_password", "ea_keystore", "ea_keystore_password", "aa_keystore", "aa_keystore_password"]
  cloudhsm_secrets = var.cloudhsm_enabled ? {
    cloudhsm_pin = { description = "PIN of the CloudHSM crypto user the services log in as (<user>:<password>)", everywhere = true, region = null }
  } : {}
  secrets = merge({ for k, v in local.base_secrets : k => v if !(var.cloudhsm_enabled && contains(local.key_store_secrets, k)) },
  local.cloudhsm_secrets, local.replica_keystores)
  replica_regions = [for r in var.regions : r if r != var.home_region]
}

resource "aws_secretsmanager_secret" "this" {
  for_each = local.secrets

  region      = var.home_region
  name        = "${var.name}/${replace(each.key, "_", "-")}"
  description = each.value.description
  # A deleted secret stays recoverable for a week: long enough to notice a
  # mistaken destroy of a key store.
  recovery_window_in_days = 7

  # EA, AA and Operator hosts run in every region and read the copy in their
  # own region, so a remote region keeps working when home_region's Secrets
  # Manager is unreachable. The RCA's secrets never leave home_region; a
  # replica's replication key store goes to its own region only.
  dynamic "replica" {
    for_each = each.value.everywhere ? local.replica_regions : [for r in compact([each.value.region]) : r if r != var.home_region]
    content {
      region = replica.value
    }
  }
}

# S3_PING discovery: replicas write their address under a per-cluster prefix.
# The data is ephemeral membership information, hence force_destroy.
resource "aws_s3_bucket" "jgroups_ping" {
  count = var.jgroups_discovery == "S3_PING" ? 1 : 0

  region        = var.home_region
  bucket        = "${var.name}-jgroups-ping-${data.aws_caller_identity.current.account_id}"
  force_destroy = true
}

resource "aws_s3_bucket_public_access_block" "jgroups_ping" {
  count = length(aws_s3_bucket.jgroups_ping)

  region                  = var.home_region
  bucket                  = aws_s3_bucket.jgroups_ping[0].id
  block_public_acls       = true
  block_public_policy     = true
  ignore_public_acls      = true
  restrict_public_buckets = true
}
