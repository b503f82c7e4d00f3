data "aws_partition" "current" {}

locals {
  # Addressing plan, computed here once from the variables alone, so that every
  # region can be told every replica's private IP without depending on another
  # region's resources. Each region's /16 is split into /24s:
  #   .0-.9   public subnets (load balancer, NAT gateway), one per AZ
  #   .10-.19 private subnets (DC, AA group; the RCA in home_region)
  #   .20-.29 replica subnets (EA and Operator replicas); only these are routed
  #           over the cross-region peering
  # Replica i of a kind sits in AZ i % az_count at a fixed host number, EA from
  # .10 and Operators from .100, so its address survives instance replacement.
  layout = {
    for region, r in var.regions : region => {
      public_subnets  = [for az in range(r.az_count) : cidrsubnet(r.vpc_cidr, 8, az)]
      private_subnets = [for az in range(r.az_count) : cidrsubnet(r.vpc_cidr, 8, 10 + az)]
      replica_subnets = [for az in range(r.az_count) : cidrsubnet(r.vpc_cidr, 8, 20 + az)]
      ea_ips = [
        for i in range(r.ea_replicas) : cidrhost(cidrsubnet(r.vpc_cidr, 8, 20 + i % r.az_count), 10 + floor(i / r.az_count))
      ]
      operator_ips = [
        for i in range(r.operator_replicas) : cidrhost(cidrsubnet(r.vpc_cidr, 8, 20 + i % r.az_count), 100 + floor(i / r.az_count))
      ]
    }
  }

  replica_ips          = flatten([for l in values(local.layout) : concat(l.ea_ips, l.operator_ips)])
  all_replica_subnets  = flatten([for l in values(local.layout) : l.replica_subnets])
  jgroups_port         = 7800
  replication_zone     = "replication.${var.name}.internal"
  replication_dns_name = "members.${local.replication_zone}"

  # Each replica's id (vpki.replication.replica-id, the CN of its replication certificate, the name of its
  # key store's secret): region and host, e.g. eu-west-1.ea-0 (module region names its hosts ea-<i>, operator-<i>).
  replica_ids = flatten([for region, l in local.layout : concat(
    [for i in range(length(l.ea_ips)) : "${region}.ea-${i}"],
    [for i in range(length(l.operator_ips)) : "${region}.operator-${i}"],
  )])

  # Public names the services write into the CTL and that vehicles resolve.
  # The unqualified names are latency-routed to the nearest region.
  endpoints = {
    aa = "http://aa.${var.domain_name}"
    ea = "http://ea.${var.domain_name}"
    dc = "http://dc.${var.domain_name}"
  }
  regional_dc_urls = [for region in keys(var.regions) : "http://dc.${region}.${var.domain_name}"]

  artefacts = {
    bucket  = var.artefact_bucket
    region  = var.artefact_bucket_region
    prefix  = "${var.artefact_prefix}/${var.vpki_version}"
    version = var.vpki_version
    # Public, not secret: the RCA certificate every relying service trusts.
    rca_certificate_key = "${var.artefact_prefix}/trust/rca.cert"
  }
}

# Secrets containers (values are put out of band) and the S3_PING bucket:
# created first because every region's hosts and instance roles refer to them.
module "shared" {
  source = "./modules/shared"

  name              = var.name
  home_region       = var.home_region
  regions           = keys(var.regions)
  jgroups_discovery = var.jgroups_discovery
  replica_ids       = local.replica_ids
  cloudhsm_enabled  = var.cloudhsm.enabled
}

module "region" {
  source   = "./modules/region"
  for_each = var.regions

  name        = var.name
  region      = each.key
  home_region = var.home_region
  partition   = data.aws_partition.current.partition

  vpc_cidr             = each.value.vpc_cidr
  public_subnet_cidrs  = local.layout[each.key].public_subnets
  private_subnet_cidrs = local.layout[each.key].private_subnets
  replica_subnet_cidrs = local.layout[each.key].replica_subnets
  ea_private_ips       = local.layout[each.key].ea_ips
  operator_private_ips = local.layout[each.key].operator_ips

  aa_min_size             = each.value.aa_min
  aa_max_size             = each.value.aa_max
  aa_target_cpu           = var.aa_target_cpu
  redis_maxmemory_percent = var.redis_maxmemory_percent
  instance_types          = var.instance_types

  replication_order            = var.replication_order
  replication_propagation      = var.replication_propagation
  replication_discovery        = var.jgroups_discovery
  replication_cluster_name     = var.replication_cluster_name
  replication_port             = local.jgroups_port
  replication_initial_hosts    = join(",", [for ip in local.replica_ips : "${ip}[${local.jgroups_port}]"])
  replication_dns_query        = local.replication_dns_name
  replication_s3_bucket        = module.shared.jgroups_ping_bucket
  replication_s3_region        = var.home_region
  replication_expected_members = length(local.replica_ips)
  replication_peer_cidrs       = local.all_replica_subnets

  operator_cidrs           = var.operator_cidrs
  domain_name              = var.domain_name
  etsi_tls_certificate_arn = each.value.etsi_tls_certificate_arn
  endpoints                = local.endpoints
  dc_urls                  = local.regional_dc_urls
  artefacts                = local.artefacts
  secrets                  = module.shared.secrets

  authority_curve = var.authority_curve
  cloudhsm        = var.cloudhsm
}

module "global" {
  source = "./modules/global"

  name        = var.name
  home_region = var.home_region
  partition   = data.aws_partition.current.partition

  regions = {
    for region, m in module.region : region => {
      vpc_id                 = m.vpc_id
      alb_dns_name           = m.alb_dns_name
      alb_zone_id            = m.alb_zone_id
      replica_route_table_id = m.replica_route_table_id
      replica_subnet_cidrs   = local.layout[region].replica_subnets
    }
  }

  rca_subnet_id       = module.region[var.home_region].private_subnet_ids[0]
  rca_vpc_id          = module.region[var.home_region].vpc_id
  rca_instance_type   = var.instance_types.rca
  operator_cidrs      = var.operator_cidrs
  dc_urls             = local.regional_dc_urls
  artefacts           = local.artefacts
  secrets             = module.shared.secrets
  domain_name         = var.domain_name
  public_zone_id      = var.public_zone_id
  jgroups_discovery   = var.jgroups_discovery
  replication_zone    = local.replication_zone
  replication_record  = local.replication_dns_name
  replication_members = local.replica_ips

  authority_curve = var.authority_curve
  # the RCA's keys in home_region's CloudHSM cluster, when the root variable cloudhsm is on
  cloudhsm = merge(var.cloudhsm, module.region[var.home_region].cloudhsm)
}
