variable "name" {
  description = "Deployment name, prefix of resource names."
  type        = string
}

variable "home_region" {
  description = "Region of the RCA."
  type        = string
}

variable "partition" {
  description = "AWS partition for the ARNs in the RCA's instance policy."
  type        = string
}

variable "regions" {
  description = "What the global part needs from each region."
  type = map(object({
    vpc_id                 = string
    alb_dns_name           = string
    alb_zone_id            = string
    replica_route_table_id = string
    replica_subnet_cidrs   = list(string)
  }))
}

variable "rca_subnet_id" {
  description = "Private subnet (in home_region) for the RCA."
  type        = string
}

variable "rca_vpc_id" {
  description = "VPC of rca_subnet_id."
  type        = string
}

variable "rca_instance_type" {
  description = "EC2 instance type of the RCA."
  type        = string
}

variable "operator_cidrs" {
  description = "Operator network: the only source allowed to reach the RCA admin API."
  type        = list(string)
}

variable "dc_urls" {
  description = "Regional URL of every DC; the RCA publishes the CTL and CRL to all of them (vpki.dc.urls)."
  type        = list(string)
}

variable "artefacts" {
  description = "Artefact location and version, see module host-config."
  type = object({
    bucket              = string
    region              = string
    prefix              = string
    version             = string
    rca_certificate_key = string
  })
}

variable "secrets" {
  description = "Secrets Manager secrets (name and ARN) by credential, from module shared."
  type = map(object({
    name = string
    arn  = string
  }))
}

variable "domain_name" {
  description = "Public domain of the vehicle-facing names."
  type        = string
}

variable "public_zone_id" {
  description = "Route 53 public hosted zone of domain_name."
  type        = string
}

variable "jgroups_discovery" {
  description = "Replica discovery method; the private zone for DNS_PING exists only when it is DNS_PING."
  type        = string
}

variable "replication_zone" {
  description = "Private hosted zone name for DNS_PING."
  type        = string
}

variable "replication_record" {
  description = "A record, inside replication_zone, listing every replica."
  type        = string
}

variable "replication_members" {
  description = "Private IPs of every EA and Operator replica."
  type        = list(string)
}

variable "authority_curve" {
  description = "Curve of the authorities' keys (root variable authority_curve): the RCA's root key at first start (VPKI_RCA_CURVE)."
  type        = string
}

variable "cloudhsm" {
  description = "The root variable cloudhsm with home_region's cluster (module region's output cloudhsm): the RCA's key in CloudHSM when enabled."
  type = object({
    enabled         = bool
    hsms_per_region = number
    hsm_type        = string
    pkcs11_library  = string
    client_rpm      = string
    client = object({
      cluster_id = string
      region     = string
      rpm        = string
    })
    security_group_ids = list(string)
  })
}
