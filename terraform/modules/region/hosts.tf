data "aws_ssm_parameter" "al2023" {
  region = var.region
  name   = "/aws/service/ami-amazon-linux-latest/al2023-ami-kernel-default-x86_64"
}

locals {
  ami = data.aws_ssm_parameter.al2023.insecure_value

  # Service configuration, with exactly the keys of docs/configuration.md
  # (environment-variable form). Secrets never appear here: they are
  # secret_files of module host-config.
  common_environment = {
    # The default 127.0.0.1 would hide the service from the load balancer;
    # the security groups decide who may connect.
    SERVER_ADDRESS = "0.0.0.0"
    # Actuator (management port, service port + 1000) for the load
    # balancer's health checks: reachable from the load balancer only.
    MANAGEMENT_SERVER_ADDRESS = "0.0.0.0"
    # Each service's audit log (docs/service-shell.md), under the
    # working directory, apart from its debug log.
    VPKI_AUDIT_DIR = "/var/lib/vpki/audit"
  }

  # Identical on every EA and Operator replica of every region: the whole
  # group must agree on order and propagation, so these are passed through
  # from the root variables untouched (the build's structure test checks it).
  replica_environment = merge(local.common_environment, local.discovery_environment, {
    VPKI_REPLICATION_CLUSTER_NAME     = var.replication_cluster_name
    VPKI_REPLICATION_ORDER            = var.replication_order
    VPKI_REPLICATION_PROPAGATION      = var.replication_propagation
    VPKI_REPLICATION_DISCOVERY        = var.replication_discovery
    VPKI_REPLICATION_BIND_PORT        = tostring(var.replication_port)
    VPKI_REPLICATION_EXPECTED_MEMBERS = tostring(var.replication_expected_members)
    VPKI_REDIS_URL                    = "redis://127.0.0.1:6379"
  })

  # Only the keys of the chosen discovery method.
  discovery_environment = {
    TCPPING = {
      VPKI_REPLICATION_INITIAL_HOSTS = var.replication_initial_hosts
    }
    DNS_PING = {
      VPKI_REPLICATION_DNS_QUERY = var.replication_dns_query
    }
    S3_PING = {
      VPKI_REPLICATION_S3_BUCKET = var.replication_s3_bucket
      VPKI_REPLICATION_S3_REGION = var.replication_s3_region
    }
  }[var.replication_discovery]

  # What differs between EA and Operator replicas.
  replica_services = {
    ea = {
      # The access points are the CTL's (written by the RCA at certification, key ceremony step);
      # the EA certificate is public and comes with the RCA certificate (own_certificate).
      environment = merge(local.key_environment, {
        SERVER_PORT              = tostring(local.service_ports.ea)
        VPKI_EA_CERTIFICATE_FILE = "/run/vpki-ea/ea.cert"
        VPKI_DC_URLS             = join(",", concat([local.own_dc_url], [for u in var.dc_urls : u if u != local.own_dc_url]))
      })
      secret_files = merge(local.key_secret_files.ea, {
        VPKI_REDIS_PASSWORD_FILE = { secret_id = var.secrets["redis_password"].name, base64 = false }
      })
      trusts_rca = true
    }
    operator = {
      environment = {
        SERVER_PORT = tostring(local.service_ports.operator)
        # The port speaks TLS only (operator tokens never travel in clear); the certificate and key are secrets below.
        SERVER_SSL_BUNDLE = "api"
      }
      secret_files = {
        VPKI_OPERATOR_CREDENTIALS_FILE                 = { secret_id = var.secrets["operator_credentials"].name, base64 = false }
        SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_CERTIFICATE = { secret_id = var.secrets["operator_tls_certificate"].name, base64 = false }
        SPRING_SSL_BUNDLE_PEM_API_KEYSTORE_PRIVATE_KEY = { secret_id = var.secrets["operator_tls_key"].name, base64 = false }
        VPKI_REDIS_PASSWORD_FILE                       = { secret_id = var.secrets["redis_password"].name, base64 = false }
      }
      trusts_rca = false
    }
  }

  # The replication channel's credentials (docs/security.md, "JGroups channel"): mutual TLS between the
  # replicas and commands signed by their origin. Trust store and password are the same on every replica;
  # the key store is each replica's own (module calls below), named by its replica id.
  replication_secret_files = {
    VPKI_REPLICATION_TLS_TRUST_STORE   = { secret_id = var.secrets["replication_truststore"].name, base64 = true }
    VPKI_REPLICATION_TLS_PASSWORD_FILE = { secret_id = var.secrets["replication_password"].name, base64 = false }
  }

  # One entry per replica host, e.g. "ea-0", "operator-1".
  replicas_by_key = merge(
    { for i, ip in var.ea_private_ips : "ea-${i}" => { service = "ea", ip = ip, az = i % length(local.azs) } },
    { for i, ip in var.operator_private_ips : "operator-${i}" => { service = "operator", ip = ip, az = i % length(local.azs) } },
  )

  # The AA fetches the CTL from its own region's DC first.
  own_dc_url = "http://dc.${var.region}.${var.domain_name}"
}

# ---- EA and Operator replicas: fixed private IP, own Redis, data volume ----

resource "aws_ebs_volume" "replica" {
  for_each = local.replicas_by_key

  region            = var.region
  availability_zone = local.azs[each.value.az]
  size              = 20
  type              = "gp3"
  encrypted         = true

  tags = { Name = "${var.name}-${each.key}-data" }
}

# One call per service, so that each host's configuration is known per service.
module "ea_host" {
  source   = "../host-config"
  for_each = { for k, r in local.replicas_by_key : k => r if r.service == "ea" }

  service   = "ea"
  region    = var.region
  artefacts = var.artefacts
  environment = merge(local.replica_environment, local.replica_services.ea.environment, {
    VPKI_REPLICATION_BIND_ADDRESS = each.value.ip
    VPKI_REPLICATION_REPLICA_ID   = "${var.region}.${each.key}"
  })
  secret_files = merge(local.replica_services.ea.secret_files, local.replication_secret_files, {
    VPKI_REPLICATION_TLS_KEY_STORE = { secret_id = var.secrets["replication_keystore_${var.region}.${each.key}"].name, base64 = true }
  })
  trusts_rca              = local.replica_services.ea.trusts_rca
  own_certificate         = true
  redis                   = true
  redis_maxmemory_percent = var.redis_maxmemory_percent
  data_volume_id          = aws_ebs_volume.replica[each.key].id
  cloudhsm                = local.cloudhsm_client
}

module "operator_host" {
  source   = "../host-config"
  for_each = { for k, r in local.replicas_by_key : k => r if r.service == "operator" }

  service   = "operator"
  region    = var.region
  artefacts = var.artefacts
  environment = merge(local.replica_environment, local.replica_services.operator.environment, {
    VPKI_REPLICATION_BIND_ADDRESS = each.value.ip
    VPKI_REPLICATION_REPLICA_ID   = "${var.region}.${each.key}"
  })
  secret_files = merge(local.replica_services.operator.secret_files, local.replication_secret_files, {
    VPKI_REPLICATION_TLS_KEY_STORE = { secret_id = var.secrets["replication_keystore_${var.region}.${each.key}"].name, base64 = true }
  })
  trusts_rca              = local.replica_services.operator.trusts_rca
  redis                   = true
  redis_maxmemory_percent = var.redis_maxmemory_percent
  data_volume_id          = aws_ebs_volume.replica[each.key].id
}

resource "aws_instance" "replica" {
  for_each = local.replicas_by_key

  region        = var.region
  ami           = local.ami
  instance_type = var.instance_types[each.value.service]
  subnet_id     = aws_subnet.replica[each.value.az].id
  private_ip    = each.value.ip
  # an EA replica holding its keys in CloudHSM joins the cluster's security group
  vpc_security_group_ids = concat([aws_security_group.service[each.value.service].id], each.value.service == "ea" ? local.cloudhsm_security_group_ids : [])
  iam_instance_profile   = aws_iam_instance_profile.service[each.value.service].name
  user_data              = each.value.service == "ea" ? module.ea_host[each.key].user_data : module.operator_host[each.key].user_data
  # cloud-init runs user data only at first boot: a new version or
  # configuration means a new instance. Its state is on the data volume and
  # its address is fixed, so it rejoins the group as the same member.
  user_data_replace_on_change = true

  metadata_options {
    http_tokens = "required"
  }
  root_block_device {
    encrypted   = true
    volume_type = "gp3"
  }
  lifecycle {
    # A newer AMI must not silently replace a replica; roll AMIs deliberately.
    ignore_changes = [ami]
  }

  tags = { Name = "${var.name}-${each.key}" }
}

resource "aws_volume_attachment" "replica" {
  for_each = local.replicas_by_key

  region      = var.region
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.replica[each.key].id
  instance_id = aws_instance.replica[each.key].id
}

# ---- DC: one per region, CTL/CRL kept on a data volume ----

resource "aws_ebs_volume" "dc" {
  region            = var.region
  availability_zone = local.azs[0]
  size              = 10
  type              = "gp3"
  encrypted         = true

  tags = { Name = "${var.name}-dc-data" }
}

module "dc_host" {
  source = "../host-config"

  service   = "dc"
  region    = var.region
  artefacts = var.artefacts
  environment = merge(local.common_environment, {
    SERVER_PORT = tostring(local.service_ports.dc)
  })
  trusts_rca     = true
  data_volume_id = aws_ebs_volume.dc.id
}

resource "aws_instance" "dc" {
  region                      = var.region
  ami                         = local.ami
  instance_type               = var.instance_types.dc
  subnet_id                   = aws_subnet.private[0].id
  vpc_security_group_ids      = [aws_security_group.service["dc"].id]
  iam_instance_profile        = aws_iam_instance_profile.service["dc"].name
  user_data                   = module.dc_host.user_data
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

  tags = { Name = "${var.name}-dc" }
}

resource "aws_volume_attachment" "dc" {
  region      = var.region
  device_name = "/dev/sdf"
  volume_id   = aws_ebs_volume.dc.id
  instance_id = aws_instance.dc.id
}

# ---- AA: stateless, auto-scaled on CPU ----

module "aa_host" {
  source = "../host-config"

  service   = "aa"
  region    = var.region
  artefacts = var.artefacts
  environment = merge(local.common_environment, local.key_environment, {
    SERVER_PORT              = tostring(local.service_ports.aa)
    VPKI_DC_URLS             = join(",", concat([local.own_dc_url], [for u in var.dc_urls : u if u != local.own_dc_url]))
    VPKI_AA_ACCESS_POINT     = var.endpoints.aa
    VPKI_AA_CERTIFICATE_FILE = "/run/vpki-aa/aa.cert"
  })
  secret_files    = local.key_secret_files.aa
  trusts_rca      = true
  own_certificate = true
  cloudhsm        = local.cloudhsm_client
}

resource "aws_launch_template" "aa" {
  region                 = var.region
  name_prefix            = "${var.name}-aa-"
  image_id               = local.ami
  instance_type          = var.instance_types.aa
  user_data              = base64encode(module.aa_host.user_data)
  vpc_security_group_ids = concat([aws_security_group.service["aa"].id], local.cloudhsm_security_group_ids)
  update_default_version = true

  iam_instance_profile {
    name = aws_iam_instance_profile.service["aa"].name
  }
  metadata_options {
    http_endpoint = "enabled"
    http_tokens   = "required"
  }
  tag_specifications {
    resource_type = "instance"
    tags          = { Name = "${var.name}-aa" }
  }
}

resource "aws_autoscaling_group" "aa" {
  region                    = var.region
  name                      = "${var.name}-aa"
  min_size                  = var.aa_min_size
  max_size                  = var.aa_max_size
  vpc_zone_identifier       = aws_subnet.private[*].id
  target_group_arns         = [aws_lb_target_group.service["aa"].arn]
  health_check_type         = "ELB"
  health_check_grace_period = 180

  launch_template {
    id      = aws_launch_template.aa.id
    version = aws_launch_template.aa.latest_version
  }

  # A new version or configuration (new launch template version) rolls
  # through the group, keeping half of it serving.
  instance_refresh {
    strategy = "Rolling"
    preferences {
      min_healthy_percentage = 50
    }
  }
}

resource "aws_autoscaling_policy" "aa_cpu" {
  region                 = var.region
  name                   = "${var.name}-aa-cpu"
  autoscaling_group_name = aws_autoscaling_group.aa.name
  policy_type            = "TargetTrackingScaling"

  target_tracking_configuration {
    predefined_metric_specification {
      predefined_metric_type = "ASGAverageCPUUtilization"
    }
    target_value = var.aa_target_cpu
  }
}
