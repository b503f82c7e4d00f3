variable "name" {
  description = "Deployment name; prefixes every resource name, secret and DNS label."
  type        = string
  default     = "vpki"

  validation {
    condition     = can(regex("^[a-z][a-z0-9-]{1,19}$", var.name))
    error_message = "name must be 2-20 characters of lower-case letters, digits and '-', starting with a letter."
  }
}

variable "home_region" {
  description = "Region of the RCA, of the primary copy of every secret and of the S3_PING bucket. Must be one of the keys of regions."
  type        = string
  default     = "eu-west-1"

  validation {
    condition     = contains(keys(var.regions), var.home_region)
    error_message = "home_region must be one of the keys of regions."
  }
  validation {
    # The outputs point operators (and the load client) at a home-region Operator replica.
    condition     = try(var.regions[var.home_region].operator_replicas, 0) >= 1
    error_message = "home_region needs at least one Operator replica."
  }
}

variable "regions" {
  description = <<-EOT
    Regions to deploy into, keyed by AWS region name. Each region gets a VPC, its
    EA and Operator replicas (members of the one cross-region replication group),
    an auto-scaled AA group and a DC behind a load balancer. vpc_cidr must be a
    /16 that does not overlap any other region's (the VPCs are peered).
    etsi_tls_certificate_arn (optional): an ACM certificate of that region for
    aa/ea/dc.<domain> and aa/ea/dc.<region>.<domain>; with it the load balancer
    also serves the ETSI endpoints over HTTPS on 443 (TLS 1.2/1.3), beside the
    plain HTTP listener on 80 that stays for OBUs speaking HTTP.
  EOT
  type = map(object({
    vpc_cidr                 = string
    az_count                 = optional(number, 2)
    ea_replicas              = optional(number, 1)
    operator_replicas        = optional(number, 1)
    aa_min                   = optional(number, 1)
    aa_max                   = optional(number, 4)
    etsi_tls_certificate_arn = optional(string)
  }))

  validation {
    condition     = length(var.regions) >= 1
    error_message = "regions must name at least one region."
  }
  validation {
    condition     = alltrue([for r in values(var.regions) : can(cidrsubnet(r.vpc_cidr, 8, 0)) && endswith(r.vpc_cidr, "/16")])
    error_message = "Every vpc_cidr must be a valid IPv4 /16 (subnets are carved as /24s from it)."
  }
  validation {
    condition     = length(distinct([for r in values(var.regions) : r.vpc_cidr])) == length(var.regions)
    error_message = "vpc_cidr values must differ between regions: the VPCs are peered for replication."
  }
  validation {
    # An application load balancer needs subnets in at least two AZs.
    condition     = alltrue([for r in values(var.regions) : r.az_count >= 2 && r.az_count <= 3])
    error_message = "az_count must be 2 or 3."
  }
  validation {
    # Replica private IPs are host numbers 10..99 (EA) and 100..189 (Operator) of the replica subnets.
    condition     = alltrue([for r in values(var.regions) : r.ea_replicas >= 1 && r.operator_replicas >= 0 && r.ea_replicas <= 90 * r.az_count && r.operator_replicas <= 90 * r.az_count])
    error_message = "Each region needs 1..90*az_count EA replicas and 0..90*az_count Operator replicas."
  }
  validation {
    condition     = alltrue([for r in values(var.regions) : r.aa_min >= 1 && r.aa_min <= r.aa_max])
    error_message = "Each region needs 1 <= aa_min <= aa_max."
  }
  validation {
    # A load balancer takes certificates of its own region only.
    condition     = alltrue([for region, r in var.regions : r.etsi_tls_certificate_arn == null || can(regex("^arn:[a-z-]+:acm:${region}:[0-9]{12}:certificate/", r.etsi_tls_certificate_arn))])
    error_message = "etsi_tls_certificate_arn must be the ARN of an ACM certificate in the same region (arn:<partition>:acm:<region>:<account>:certificate/...)."
  }
}

variable "aa_target_cpu" {
  description = "Target average CPU utilisation (percent) of each region's AA group; the group scales between aa_min and aa_max to hold it."
  type        = number
  default     = 60

  validation {
    condition     = var.aa_target_cpu >= 10 && var.aa_target_cpu <= 90
    error_message = "aa_target_cpu must be between 10 and 90."
  }
}

variable "redis_maxmemory_percent" {
  description = "Share (percent) of a replica host's memory its Redis may use (maxmemory, with maxmemory-policy noeviction: at the limit writes are refused, nothing is evicted). The rest is for the replica JVM (MaxRAMPercentage=25 in deploy/systemd), the AOF rewrite's copy-on-write and the system; docs/deployment.md, \"Sizing memory\"."
  type        = number
  default     = 50

  validation {
    condition     = var.redis_maxmemory_percent >= 10 && var.redis_maxmemory_percent <= 70
    error_message = "redis_maxmemory_percent must be between 10 and 70."
  }
}

variable "instance_types" {
  description = "EC2 instance type per service. The defaults follow the paper's 2-vCPU AA; all must be Nitro types (data volumes are found by their NVMe serial)."
  type = object({
    rca      = optional(string, "t3.medium")
    dc       = optional(string, "t3.medium")
    ea       = optional(string, "c6i.large")
    operator = optional(string, "t3.medium")
    aa       = optional(string, "c6i.large")
  })
  default = {}
}

variable "replication_order" {
  description = "Delivery order of replicated EA/Operator writes (vpki.replication.order): TOTAL (JGroups SEQUENCER, one extra hop to the coordinator) or FIFO."
  type        = string
  default     = "FIFO"

  validation {
    condition     = contains(["TOTAL", "FIFO"], var.replication_order)
    error_message = "replication_order must be TOTAL or FIFO."
  }
}

variable "replication_propagation" {
  description = "When a replicated write is answered (vpki.replication.propagation): SYNC after every replica applied it (one inter-region round trip per write), or ASYNC."
  type        = string
  default     = "ASYNC"

  validation {
    condition     = contains(["SYNC", "ASYNC"], var.replication_propagation)
    error_message = "replication_propagation must be SYNC or ASYNC."
  }
}

variable "jgroups_discovery" {
  description = <<-EOT
    How EA/Operator replicas find each other across regions (vpki.replication.discovery):
    TCPPING  - the static private IPs of all replicas, rendered into every host;
               adding a replica means re-rendering every replica's configuration.
    DNS_PING - an A record in a Route 53 private zone associated with every VPC;
               membership changes only touch the record.
    S3_PING  - replicas register in an S3 bucket in home_region (jgroups-aws
               aws.S3_PING, which the EA/Operator jars must bundle).
  EOT
  type        = string
  default     = "TCPPING"

  validation {
    condition     = contains(["TCPPING", "DNS_PING", "S3_PING"], var.jgroups_discovery)
    error_message = "jgroups_discovery must be TCPPING, DNS_PING or S3_PING."
  }
}

variable "replication_cluster_name" {
  description = "JGroups cluster name shared by the EA and Operator replicas of this deployment (vpki.replication.cluster-name)."
  type        = string
  default     = "vpki-ea"
}

variable "vpki_version" {
  description = "Version of the service jars to deploy: hosts fetch s3://<artefact_bucket>/<artefact_prefix>/<version>/vpki-<service>-<version>.jar and its .sha256."
  type        = string

  validation {
    condition     = can(regex("^[0-9]+\\.[0-9]+\\.[0-9]+([-.][0-9A-Za-z.-]+)?$", var.vpki_version))
    error_message = "vpki_version must look like 1.2.3 or 1.2.3-SNAPSHOT."
  }
}

variable "artefact_bucket" {
  description = "S3 bucket holding the service jars and the RCA certificate (trust/rca.cert under artefact_prefix)."
  type        = string
}

variable "artefact_bucket_region" {
  description = "Region of artefact_bucket."
  type        = string
}

variable "artefact_prefix" {
  description = "Key prefix of the artefacts inside artefact_bucket."
  type        = string
  default     = "vpki"
}

variable "operator_cidrs" {
  description = "The operator network (VPN or Direct Connect ranges routed into the VPCs): the only sources allowed to reach the Operator API and the RCA admin API."
  type        = list(string)

  validation {
    condition     = length(var.operator_cidrs) > 0 && alltrue([for c in var.operator_cidrs : can(cidrhost(c, 0)) && !contains(["0.0.0.0/0", "::/0"], c)])
    error_message = "operator_cidrs must be valid CIDRs and must not include 0.0.0.0/0 or ::/0."
  }
}

variable "domain_name" {
  description = "Public DNS name under which vehicles reach the PKI: aa.<domain>, ea.<domain> and dc.<domain> (latency-routed), plus <service>.<region>.<domain>."
  type        = string
}

variable "public_zone_id" {
  description = "ID of the existing Route 53 public hosted zone for domain_name."
  type        = string
}

variable "authority_curve" {
  description = "Curve of the authorities' keys: the RCA generates its root key on it at first start (software keys), and the key ceremony uses it for keys in an HSM (docs/pki-bootstrap.md section 7). brainpoolP256r1 is what real OBUs expect; nistP256 is the only one AWS CloudHSM offers."
  type        = string
  default     = "brainpoolP256r1"

  validation {
    condition     = contains(["nistP256", "brainpoolP256r1", "brainpoolP384r1"], var.authority_curve)
    error_message = "authority_curve must be nistP256, brainpoolP256r1 or brainpoolP384r1."
  }
}

variable "cloudhsm" {
  description = <<-EOT
    The RCA's, EAs' and AAs' private keys in AWS CloudHSM instead of PKCS#12 key stores in Secrets Manager
    (issue #36; docs/deployment.md, "Keys in an HSM"). Off by default. When on: one CloudHSM cluster per region
    (hsms_per_region HSMs across the private subnets; the RCA uses home_region's), the cluster's security group on
    every RCA, EA and AA host, its PKCS#11 library (Client SDK 5, the RPM client_rpm from the artefact prefix, the
    cluster's issuing certificate from the trust prefix as cloudhsm-customerCA.crt) installed and configured for
    the region's cluster, the services on vpki.keystore.backend=pkcs11 with the crypto user's PIN
    ("<user>:<password>") from the secret cloudhsm_pin, and no key store secrets. CloudHSM has no brainpool curve:
    only with authority_curve = "nistP256". Initialising the cluster and the key ceremony are manual steps.
  EOT
  type = object({
    enabled         = bool
    hsms_per_region = optional(number, 2)
    hsm_type        = optional(string, "hsm2m.medium")
    pkcs11_library  = optional(string, "/opt/cloudhsm/lib/libcloudhsm_pkcs11.so")
    client_rpm      = optional(string, "cloudhsm-pkcs11.el9.x86_64.rpm")
  })
  default = { enabled = false }

  validation {
    condition     = !var.cloudhsm.enabled || var.authority_curve == "nistP256"
    error_message = "AWS CloudHSM offers no brainpool curve: cloudhsm.enabled needs authority_curve = \"nistP256\" (docs/deployment.md, \"Keys in an HSM\")."
  }
  validation {
    condition     = var.cloudhsm.hsms_per_region >= 1 && var.cloudhsm.hsms_per_region <= 28
    error_message = "cloudhsm.hsms_per_region must be between 1 and 28 (two or more for availability)."
  }
}
