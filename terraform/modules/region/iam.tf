locals {
  # Which secrets each service's hosts may read: what their secret_files fetch
  # (hosts.tf). Hosts read the copy in their own region: same ARN, with the
  # region replaced. The replicas also read the replication channel's trust
  # store and password, and the key stores of this region's replicas of their
  # service (one role per service and region, not per host).
  service_secrets = {
    dc       = []
    ea       = concat(local.key_secrets.ea, ["redis_password"], local.replication_secrets["ea"])
    operator = concat(["operator_credentials", "operator_tls_certificate", "operator_tls_key", "redis_password"], local.replication_secrets["operator"])
    aa       = local.key_secrets.aa
  }
  replication_secrets = {
    for service in ["ea", "operator"] : service => concat(["replication_truststore", "replication_password"],
    [for k, r in local.replicas_by_key : "replication_keystore_${var.region}.${k}" if r.service == service])
  }
  replicas = toset(["ea", "operator"])
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

# One role per service and region (IAM is global, hence the region in the
# name), each allowed exactly what its hosts fetch.
data "aws_iam_policy_document" "service" {
  for_each = local.service_secrets

  statement {
    sid     = "Artefacts"
    actions = ["s3:GetObject"]
    resources = [
      "arn:${var.partition}:s3:::${var.artefacts.bucket}/${var.artefacts.prefix}/vpki-${each.key}-*",
      "arn:${var.partition}:s3:::${var.artefacts.bucket}/${dirname(var.artefacts.rca_certificate_key)}/*",
    ]
  }

  dynamic "statement" {
    for_each = length(each.value) > 0 ? [1] : []
    content {
      sid       = "Secrets"
      actions   = ["secretsmanager:GetSecretValue"]
      resources = [for k in each.value : replace(var.secrets[k].arn, ":${var.home_region}:", ":${var.region}:")]
    }
  }

  # CloudHSM (cloudhsm.tf): configure-pkcs11 finds the cluster's HSMs by its id; the client RPM from the artefacts
  dynamic "statement" {
    for_each = var.cloudhsm.enabled && contains(["ea", "aa"], each.key) ? [1] : []
    content {
      sid       = "CloudHsmClient"
      actions   = ["s3:GetObject"]
      resources = ["arn:${var.partition}:s3:::${var.artefacts.bucket}/${var.artefacts.prefix}/${var.cloudhsm.client_rpm}"]
    }
  }
  dynamic "statement" {
    for_each = var.cloudhsm.enabled && contains(["ea", "aa"], each.key) ? [1] : []
    content {
      sid       = "CloudHsmDiscovery"
      actions   = ["cloudhsm:DescribeClusters"]
      resources = ["*"]
    }
  }

  dynamic "statement" {
    for_each = contains(local.replicas, each.key) && var.replication_discovery == "S3_PING" ? [1] : []
    content {
      sid       = "JGroupsS3Ping"
      actions   = ["s3:GetObject", "s3:PutObject", "s3:DeleteObject", "s3:ListBucket"]
      resources = ["arn:${var.partition}:s3:::${var.replication_s3_bucket}", "arn:${var.partition}:s3:::${var.replication_s3_bucket}/*"]
    }
  }
}

resource "aws_iam_role" "service" {
  for_each = local.service_secrets

  name               = "${var.name}-${var.region}-${each.key}"
  assume_role_policy = data.aws_iam_policy_document.assume_ec2.json
}

resource "aws_iam_role_policy" "service" {
  for_each = local.service_secrets

  name   = "fetch"
  role   = aws_iam_role.service[each.key].id
  policy = data.aws_iam_policy_document.service[each.key].json
}

# Shell access through Session Manager instead of SSH: no port 22 anywhere.
resource "aws_iam_role_policy_attachment" "ssm" {
  for_each = local.service_secrets

  role       = aws_iam_role.service[each.key].name
  policy_arn = "arn:${var.partition}:iam::aws:policy/AmazonSSMManagedInstanceCore"
}

resource "aws_iam_instance_profile" "service" {
  for_each = local.service_secrets

  name = "${var.name}-${var.region}-${each.key}"
  role = aws_iam_role.service[each.key].name
}
