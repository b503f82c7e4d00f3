# The RCA: one host in a private subnet of home_region. It is not behind any
# load balancer and has no public name; vehicles only ever see what it signs,
# through the DCs. Its admin API is open to the operator network alone.

data "aws_ssm_parameter" "al2023" {
  region = var.home_region
  name   = "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"
}

data "aws_subnet" "rca" {
  region = var.home_region
  id     = var.rca_subnet_id
}

resource "aws_security_group" "rca" {
  region      = var.home_region
  name        = "${var.name}-rca"
  description = "vpki RCA: admin API from the operator network only"
  vpc_id      = var.rca_vpc_id
}

resource "aws_vpc_security_group_ingress_rule" "rca_admin" {
  for_each = toset(var.operator_cidrs)

  region            = var.home_region
  security_group_id = aws_security_group.rca.id
  description       = "RCA admin API from the operator network"
  ip_protocol       = "tcp"
  from_port         = 8081
  to_port           = 8081
  cidr_ipv4         = each.value
}

# Outbound: artefacts, secrets, and publishing to the DCs of every region.
resource "aws_vpc_security_group_egress_rule" "rca_all" {
  region            = var.home_region
  security_group_id = aws_security_group.rca.id
  description       = "Outbound"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
}

data "aws_iam_policy_document" "assume_ec2" {
  statement {
    actions = ["sts:AssumeRole"]
    principals {
      type        = "Service"
      identifiers = ["ec2.amazonaws.com"]
    }
  }
}

data "aws_iam_policy_document" "rca" {
  statement {
    sid       = "Artefacts"
    actions   = ["s3:GetObject"]
    resources = ["arn:${var.partition}:s3:::${var.artefacts.bucket}/${var.artefacts.prefix}/vpki-rca-*"]
  }
  statement {
    sid       = "Secrets"
    actions   = ["secretsmanager:GetSecretValue"]
    resources = [for k in concat(local.rca_key_secrets, ["rca_admin_token"]) : var.secrets[k].arn]
  }
  # CloudHSM: configure-pkcs11 finds the cluster's HSMs by its id; the client RPM from the artefacts
  dynamic "statement" {
    for_each = var.cloudhsm.enabled ? [1] : []
    content {
      sid       = "CloudHsmClient"
      actions   = ["s3:GetObject"]
      resources = ["arn:${var.partition}:s3:::${var.artefacts.bucket}/${var.artefacts.prefix}/${var.cloudhsm.client_rpm}"]
    }
  }
  dynamic "statement" {
    for_each = var.cloudhsm.enabled ? [1] : []
    content {
      sid       = "CloudHsmDiscovery"
      actions   = ["cloudhsm:DescribeClusters"]
      resources = ["*"]
    }
  }
}

locals {
  # The root key: in home_region's CloudHSM cluster (label rca-root, the key ceremony's), or in the PKCS#12 key store.
  rca_key_secrets = var.cloudhsm.enabled ? ["cloudhsm_pin"] : ["rca_keystore", "rca_keystore_password"]
  rca_key_environment = var.cloudhsm.enabled ? {
    VPKI_KEYSTORE_BACKEND                = "pkcs11"
    VPKI_KEYSTORE_PKCS11_LIBRARY         = var.cloudhsm.pkcs11_library
    VPKI_KEYSTORE_PKCS11_SLOT_LIST_INDEX = "0"
  } : {}
  rca_key_secret_files = var.cloudhsm.enabled ? {
    VPKI_KEYSTORE_PKCS11_PIN_FILE = { secret_id = var.secrets["cloudhsm_pin"].name, base64 = false }
    } : {
    VPKI_KEYSTORE_PATH          = { secret_id = var.secrets["rca_keystore"].name, base64 = true }
    VPKI_KEYSTORE_PASSWORD_FILE = { secret_id = var.secrets["rca_keystore_password"].name, base64 = false }
  }
}

resource "aws_iam_role" "rca" {
  name               = "${var.name}-rca"
  assume_role_policy = data.aws_iam_policy_document.assume_ec2.json
}

resource "aws_iam_role_policy" "rca" {
  name   = "fetch"
  role   = aws_iam_role.rca.id
  policy = data.aws_iam_policy_document.rca.json
}

resource "aws_iam_role_policy_attachment" "rca_ssm" {
  role       = aws_iam_role.rca.name
  policy_arn = "arn:${var.partition}:iam::aws:policy/AmazonSSMManagedInstanceCore"
}

resource "aws_iam_instance_profile" "rca" {
  name = "${var.name}-rca"
  role = aws_iam_role.rca.name
}

resource "aws_ebs_volume" "rca" {
  region            = var.home_region
  availability_zone = data.aws_subnet.rca.availability_zone
  size              = 10
  type              = "gp3"
  encrypted         = true

  tags = { Name = "${var.name}-rca-data" }
}

module "rca_host" {
  source = "../host-config"

  service   = "rca"
  region    = var.home_region
  artefacts = var.artefacts
  environment = merge(local.rca_key_environment, {
    SERVER_PORT    = "8081"
    SERVER_ADDRESS = "0.0.0.0"
    VPKI_DC_URLS   = join(",", var.dc_urls)
    VPKI_AUDIT_DIR = "/var/lib/vpki/audit"
    VPKI_RCA_CURVE = var.authority_curve
    # The port speaks TLS only (the admin token never travels in clear); the certificate and key are secrets below.
    SERVER_SSL_BUNDLE = "api"
  })
  secret_files = merge(local.rca_key_secret_files, {
    VPKI_ADMIN_TOKEN_FILE                          = { secret_id = var.secrets["rca_admin_token"].name, base64 = false }
    SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_CERTIFICATE = { secret_id = var.secrets["rca_tls_certificate"].name, base64 = false }
    SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_PRIVATE_KEY = { secret_id = var.secrets["rca_tls_key"].name, base64 = false }
  })
  data_volume_id = aws_ebs_volume.rca.id
  cloudhsm       = var.cloudhsm.client
}

resource "aws_instance" "rca" {
  region                      = var.home_region
  ami                         = data.aws_ssm_parameter.al2023.insecure_value
  instance_type               = var.rca_instance_type
  subnet_id                   = var.rca_subnet_id
  vpc_security_group_ids      = concat([aws_security_group.rca.id], var.cloudhsm.security_group_ids)
  iam_instance_profile        = aws_iam_instance_profile.rca.name
  user_data                   = module.rca_host.user_data
  user_data_replace_on_change = true

  metadata_options {
    http_tokens = "required"
  }
  root_block_device {
    encrypted   = true
    volume_type = "gp3"
  }
  lifecycle {
    ignore_changes = [ami]
  }

  tags = { Name = "${var.name}-rca" }
}

resource "aws_volume_attachment" "rca" {
  region      = var.home_region
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.rca.id
  instance_id = aws_instance.rca.id
}
