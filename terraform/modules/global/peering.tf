# Cross-region connectivity for replication traffic only: a full mesh of VPC
# peerings, with routes only between replica subnets (the replica route
# tables), so DC, AA and RCA hosts cannot use it, and security groups that
# admit only JGroups (7800) from those subnets. A full mesh has n(n-1)/2
# peerings; past a handful of regions a transit gateway per region with
# inter-region peering attachments is the better shape.

locals {
  region_names = sort(keys(var.regions))

  peerings = {
    for pair in flatten([
      for i, a in local.region_names : [
        for j, b in local.region_names : { requester = a, accepter = b } if i < j
      ]
    ]) : "${pair.requester}:${pair.accepter}" => pair
  }

  # One route per (peering, direction, destination replica subnet).
  peering_routes = merge([
    for key, p in local.peerings : merge(
      { for cidr in var.regions[p.accepter].replica_subnet_cidrs : "${key}>${cidr}" => { peering = key, region = p.requester, cidr = cidr } },
      { for cidr in var.regions[p.requester].replica_subnet_cidrs : "${key}<${cidr}" => { peering = key, region = p.accepter, cidr = cidr } },
    )
  ]...)
}

resource "aws_vpc_peering_connection" "replication" {
  for_each = local.peerings

  region      = each.value.requester
  vpc_id      = var.regions[each.value.requester].vpc_id
  peer_vpc_id = var.regions[each.value.accepter].vpc_id
  peer_region = each.value.accepter
  # Cross-region peerings must be accepted from the accepter's side.
  auto_accept = false

  tags = { Name = "${var.name}-replication-${each.key}" }
}

resource "aws_vpc_peering_connection_accepter" "replication" {
  for_each = local.peerings

  region                    = each.value.accepter
  vpc_peering_connection_id = aws_vpc_peering_connection.replication[each.key].id
  auto_accept               = true

  tags = { Name = "${var.name}-replication-${each.key}" }
}

resource "aws_route" "replication" {
  for_each = local.peering_routes

  region                    = each.value.region
  route_table_id            = var.regions[each.value.region].replica_route_table_id
  destination_cidr_block    = each.value.cidr
  vpc_peering_connection_id = aws_vpc_peering_connection_accepter.replication[each.value.peering].id
}
