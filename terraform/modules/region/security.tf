# Who may reach what. Redis (6379) has no rule at all: every replica's Redis
# listens on loopback only. JGroups (7800) is open only between the replica
# subnets of all regions (security groups cannot reference groups across a
# cross-region peering, hence CIDRs). Admin APIs only from operator_cidrs.

resource "aws_security_group" "alb" {
  region      = var.region
  name        = "${var.name}-alb"
  description = "Public load balancer: vehicles reach AA, EA and DC over HTTP (and HTTPS)"
  vpc_id      = aws_vpc.this.id
}

# TS 102 941 requests and responses are signed and encrypted end to end
# (EtsiTs103097Data), which is why the ETSI access points are plain HTTP;
# HTTPS (below) is an option.
resource "aws_vpc_security_group_ingress_rule" "alb_http" {
  region            = var.region
  security_group_id = aws_security_group.alb.id
  description       = "Vehicles"
  ip_protocol       = "tcp"
  from_port         = 80
  to_port           = 80
  cidr_ipv4         = "0.0.0.0/0"
}

# HTTPS on 443 as well where the region has a certificate for the ETSI endpoints.
resource "aws_vpc_security_group_ingress_rule" "alb_https" {
  count = var.etsi_tls_certificate_arn == null ? 0 : 1

  region            = var.region
  security_group_id = aws_security_group.alb.id
  description       = "Vehicles over HTTPS"
  ip_protocol       = "tcp"
  from_port         = 443
  to_port           = 443
  cidr_ipv4         = "0.0.0.0/0"
}

resource "aws_vpc_security_group_egress_rule" "alb_to_vpc" {
  region            = var.region
  security_group_id = aws_security_group.alb.id
  description       = "Forward to the service hosts"
  ip_protocol       = "tcp"
  from_port         = 8082
  to_port           = 8085
  cidr_ipv4         = var.vpc_cidr
}

locals {
  # service => port, as documented in docs/configuration.md
  service_ports = {
    dc       = 8082
    ea       = 8083
    operator = 8084
    aa       = 8085
  }
  # service => management (actuator) port: the services' default, port + 1000
  management_ports = { for service, port in local.service_ports : service => port + 1000 }
}

# Target-group health checks reach actuator on the management ports.
resource "aws_vpc_security_group_egress_rule" "alb_health_checks" {
  region            = var.region
  security_group_id = aws_security_group.alb.id
  description       = "Health checks of the service hosts"
  ip_protocol       = "tcp"
  from_port         = 9082
  to_port           = 9085
  cidr_ipv4         = var.vpc_cidr
}

resource "aws_security_group" "service" {
  for_each = local.service_ports

  region      = var.region
  name        = "${var.name}-${each.key}"
  description = "vpki ${each.key} hosts"
  vpc_id      = aws_vpc.this.id
}

# Hosts fetch artefacts and secrets, reach the public EA endpoint (AA) and
# the other replicas; outbound is not what this deployment needs to police.
resource "aws_vpc_security_group_egress_rule" "service_all" {
  for_each = aws_security_group.service

  region            = var.region
  security_group_id = each.value.id
  description       = "Outbound"
  ip_protocol       = "-1"
  cidr_ipv4         = "0.0.0.0/0"
}

# The load balancer reaches the public services' ports (requests) and their
# management ports (target-group health checks), nothing else.
resource "aws_vpc_security_group_ingress_rule" "from_alb" {
  for_each = merge(
    { for svc in ["dc", "ea", "aa"] : svc => { service = svc, port = local.service_ports[svc], purpose = "Load balancer to" } },
    { for svc in ["dc", "ea", "aa"] : "${svc}-health" => { service = svc, port = local.management_ports[svc], purpose = "Load balancer health checks of" } },
  )

  region                       = var.region
  security_group_id            = aws_security_group.service[each.value.service].id
  description                  = "${each.value.purpose} ${each.value.service}"
  ip_protocol                  = "tcp"
  from_port                    = each.value.port
  to_port                      = each.value.port
  referenced_security_group_id = aws_security_group.alb.id
}

resource "aws_vpc_security_group_ingress_rule" "operator_api" {
  for_each = toset(var.operator_cidrs)

  region            = var.region
  security_group_id = aws_security_group.service["operator"].id
  description       = "Operator API from the operator network"
  ip_protocol       = "tcp"
  from_port         = 8084
  to_port           = 8084
  cidr_ipv4         = each.value
}

resource "aws_vpc_security_group_ingress_rule" "jgroups" {
  for_each = {
    for pair in setproduct(["ea", "operator"], var.replication_peer_cidrs) : "${pair[0]} ${pair[1]}" => {
      service = pair[0]
      cidr    = pair[1]
    }
  }

  region            = var.region
  security_group_id = aws_security_group.service[each.value.service].id
  description       = "JGroups from the replica subnets of all regions"
  ip_protocol       = "tcp"
  from_port         = var.replication_port
  to_port           = var.replication_port
  cidr_ipv4         = each.value.cidr
}
