variable "name" {
  description = "Deployment name, prefix of resource names."
  type        = string
}

variable "region" {
  description = "AWS region of this instance of the module; every regional resource sets region = var.region."
  type        = string
}

variable "partition" {
  description = "AWS partition (aws, aws-cn, aws-us-gov) for the ARNs in the instance policies."
  type        = string
}

variable "home_region" {
  description = "Region of the primary copy of the secrets (their ARNs name it)."
  type        = string
}

variable "vpc_cidr" {
  description = "CIDR of this region's VPC."
  type        = string
}

variable "public_subnet_cidrs" {
  description = "One public subnet per AZ: load balancer and NAT gateway."
  type        = list(string)
}

variable "private_subnet_cidrs" {
  description = "One private subnet per AZ: DC and AA hosts (and the RCA in home_region)."
  type        = list(string)
}

variable "replica_subnet_cidrs" {
  description = "One replica subnet per AZ: EA and Operator replicas; the only subnets routed to the other regions."
  type        = list(string)
}

variable "ea_private_ips" {
  description = "Fixed private IP of each EA replica of this region (inside replica_subnet_cidrs[i % AZs])."
  type        = list(string)
}

variable "operator_private_ips" {
  description = "Fixed private IP of each Operator replica of this region (inside replica_subnet_cidrs[i % AZs])."
  type        = list(string)
}

variable "aa_min_size" {
  description = "Minimum size of the AA group."
  type        = number
}

variable "aa_max_size" {
  description = "Maximum size of the AA group."
  type        = number
}

variable "redis_maxmemory_percent" {
  description = "Share (percent) of a replica host's memory its Redis may use (maxmemory, noeviction)."
  type        = number
}

variable "aa_target_cpu" {
  description = "Target average CPU utilisation (percent) of the AA group."
  type        = number
}

variable "instance_types" {
  description = "EC2 instance type per service (rca is unused here)."
  type = object({
    rca      = string
    dc       = string
    ea       = string
    operator = string
    aa       = string
  })
}

variable "replication_order" {
  description = "vpki.replication.order, passed to every EA and Operator replica unchanged."
  type        = string
}

variable "replication_propagation" {
  description = "vpki.replication.propagation, passed to every EA and Operator replica unchanged."
  type        = string
}

variable "replication_discovery" {
  description = "vpki.replication.discovery: TCPPING, DNS_PING or S3_PING."
  type        = string
}

variable "replication_cluster_name" {
  description = "vpki.replication.cluster-name."
  type        = string
}

variable "replication_port" {
  description = "JGroups TCP port (vpki.replication.bind-port)."
  type        = number
}

variable "replication_initial_hosts" {
  description = "TCPPING member list host[port],... of all replicas in all regions."
  type        = string
}

variable "replication_dns_query" {
  description = "DNS_PING query: A record of all replicas in the private zone."
  type        = string
}

variable "replication_s3_bucket" {
  description = "S3_PING bucket (\"\" unless S3_PING)."
  type        = string
}

variable "replication_s3_region" {
  description = "Region of the S3_PING bucket."
  type        = string
}

variable "replication_expected_members" {
  description = "Replica count of the whole group (all regions, EA and Operator); writes need a majority of it."
  type        = number
}

variable "replication_peer_cidrs" {
  description = "Replica subnets of all regions: the only sources allowed to reach JGroups."
  type        = list(string)
}

variable "operator_cidrs" {
  description = "Operator network: the only source allowed to reach the Operator API."
  type        = list(string)
}

variable "domain_name" {
  description = "Public domain; the load balancer answers aa/ea/dc.<domain> and aa/ea/dc.<region>.<domain>."
  type        = string
}

variable "etsi_tls_certificate_arn" {
  description = "ACM certificate (this region) for the ETSI endpoints over HTTPS; null: the load balancer listens on HTTP 80 only."
  type        = string
  default     = null
}

variable "endpoints" {
  description = "Latency-routed public URLs (aa, ea, dc) written into the CTL."
  type = object({
    aa = string
    ea = string
    dc = string
  })
}

variable "dc_urls" {
  description = "Regional URLs of every DC (vpki.dc.urls of the AA)."
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
  description = "Secrets Manager secrets (name and home-region ARN) by credential, from module shared."
  type = map(object({
    name = string
    arn  = string
  }))
}

variable "authority_curve" {
  description = "Curve of the authorities' keys (root variable authority_curve); CloudHSM needs nistP256."
  type        = string
}

variable "cloudhsm" {
  description = "The root variable cloudhsm: the EA's and AA's keys in this region's AWS CloudHSM cluster when enabled."
  type = object({
    enabled         = bool
    hsms_per_region = number
    hsm_type        = string
    pkcs11_library  = string
    client_rpm      = string
  })
}
