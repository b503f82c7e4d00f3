output "vpc_id" {
  description = "This region's VPC."
  value       = aws_vpc.this.id
}

output "private_subnet_ids" {
  description = "Private subnets (one per AZ)."
  value       = aws_subnet.private[*].id
}

output "replica_route_table_id" {
  description = "Route table of the replica subnets, where the routes to the other regions' replica subnets go."
  value       = aws_route_table.replica.id
}

output "alb_dns_name" {
  description = "DNS name of the public load balancer."
  value       = aws_lb.this.dns_name
}

output "alb_zone_id" {
  description = "Route 53 zone of the load balancer, for alias records."
  value       = aws_lb.this.zone_id
}

output "cloudhsm" {
  description = "This region's CloudHSM cluster for the RCA's host in home_region: the client to install and the security group to join (null and none without CloudHSM)."
  value = {
    client             = local.cloudhsm_client
    security_group_ids = local.cloudhsm_security_group_ids
  }
}
