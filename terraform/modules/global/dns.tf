# Vehicles resolve aa/ea/dc.<domain>; Route 53 answers with the load balancer
# of the region with the lowest latency from the resolver, skipping a region
# whose targets are unhealthy. <service>.<region>.<domain> pins a region (the
# RCA publishes to every DC through these).

locals {
  public_services = ["aa", "ea", "dc"]

  service_regions = {
    for pair in setproduct(local.public_services, keys(var.regions)) : "${pair[0]}.${pair[1]}" => {
      service = pair[0]
      region  = pair[1]
    }
  }
}

resource "aws_route53_record" "nearest" {
  for_each = local.service_regions

  zone_id        = var.public_zone_id
  name           = "${each.value.service}.${var.domain_name}"
  type           = "A"
  set_identifier = each.value.region

  latency_routing_policy {
    region = each.value.region
  }
  alias {
    name                   = var.regions[each.value.region].alb_dns_name
    zone_id                = var.regions[each.value.region].alb_zone_id
    evaluate_target_health = true
  }
}

resource "aws_route53_record" "regional" {
  for_each = local.service_regions

  zone_id = var.public_zone_id
  name    = "${each.value.service}.${each.value.region}.${var.domain_name}"
  type    = "A"

  alias {
    name                   = var.regions[each.value.region].alb_dns_name
    zone_id                = var.regions[each.value.region].alb_zone_id
    evaluate_target_health = false
  }
}

# DNS_PING: one private zone, associated with every region's VPC, holding an
# A record with every replica's (fixed) address.
resource "aws_route53_zone" "replication" {
  count = var.jgroups_discovery == "DNS_PING" ? 1 : 0

  name    = var.replication_zone
  comment = "vpki JGroups DNS_PING"

  vpc {
    vpc_id     = var.regions[var.home_region].vpc_id
    vpc_region = var.home_region
  }

  lifecycle {
    # The other regions' associations are separate resources below.
    ignore_changes = [vpc]
  }
}

resource "aws_route53_zone_association" "replication" {
  for_each = var.jgroups_discovery == "DNS_PING" ? { for r, v in var.regions : r => v if r != var.home_region } : {}

  zone_id    = aws_route53_zone.replication[0].zone_id
  vpc_id     = each.value.vpc_id
  vpc_region = each.key
}

resource "aws_route53_record" "replication_members" {
  count = length(aws_route53_zone.replication)

  zone_id = aws_route53_zone.replication[0].zone_id
  name    = var.replication_record
  type    = "A"
  ttl     = 30
  records = var.replication_members
}
