# AWS CloudHSM for the authorities' keys (root variable cloudhsm, off by default; issue #36, docs/deployment.md
# "Keys in an HSM"): one cluster per region with its HSMs across the private subnets. The EA replicas and the AAs
# of this region (and the RCA, in home_region) reach it through the cluster's security group and its PKCS#11
# library; their keys never leave the HSMs. CloudHSM has no brainpool curve: nistP256 deployments only.
# Initialising the cluster (its certificate signed by the operator's CA, the crypto user) and the key ceremony
# are manual steps (docs/deployment.md).

resource "aws_cloudhsm_v2_cluster" "this" {
  count = var.cloudhsm.enabled ? 1 : 0

  region     = var.region
  hsm_type   = var.cloudhsm.hsm_type
  subnet_ids = aws_subnet.private[*].id

  tags = { Name = "${var.name}-cloudhsm" }

  lifecycle {
    precondition {
      condition     = var.authority_curve == "nistP256"
      error_message = "AWS CloudHSM offers no brainpool curve: the authorities' keys must be on nistP256."
    }
  }
}

resource "aws_cloudhsm_v2_hsm" "this" {
  count = var.cloudhsm.enabled ? var.cloudhsm.hsms_per_region : 0

  region     = var.region
  cluster_id = aws_cloudhsm_v2_cluster.this[0].cluster_id
  subnet_id  = aws_subnet.private[count.index % length(aws_subnet.private)].id
}

locals {
  # The cluster's security group (CloudHSM creates it: ports 2223-2225 between its members) on every host that
  # holds authority keys; none without CloudHSM.
  cloudhsm_security_group_ids = aws_cloudhsm_v2_cluster.this[*].security_group_id

  # The PKCS#11 client a key-holding host installs (module host-config), or null.
  cloudhsm_client = var.cloudhsm.enabled ? {
    cluster_id = aws_cloudhsm_v2_cluster.this[0].cluster_id
    region     = var.region
    rpm        = var.cloudhsm.client_rpm
  } : null

  # The keys' configuration of an EA or AA host (docs/configuration.md, "Key stores"): the token, or nothing
  # (the PKCS#12 key store below).
  key_environment = var.cloudhsm.enabled ? {
    VPKI_KEYSTORE_BACKEND                = "pkcs11"
    VPKI_KEYSTORE_PKCS11_LIBRARY         = var.cloudhsm.pkcs11_library
    VPKI_KEYSTORE_PKCS11_SLOT_LIST_INDEX = "0"
  } : {}

  # The secrets an EA or AA host reads for its keys (the instance roles, iam.tf).
  key_secrets = {
    for service in ["ea", "aa"] : service => var.cloudhsm.enabled ? ["cloudhsm_pin"] : ["${service}_keystore", "${service}_keystore_password"]
  }

  # The secrets behind it, per service: the crypto user's PIN, or the PKCS#12 key store and its password.
  key_secret_files = {
    for service in ["ea", "aa"] : service => var.cloudhsm.enabled ? {
      VPKI_KEYSTORE_PKCS11_PIN_FILE = { secret_id = var.secrets["cloudhsm_pin"].name, base64 = false }
      } : {
      VPKI_KEYSTORE_PATH          = { secret_id = var.secrets["${service}_keystore"].name, base64 = true }
      VPKI_KEYSTORE_PASSWORD_FILE = { secret_id = var.secrets["${service}_keystore_password"].name, base64 = false }
    }
  }
}
