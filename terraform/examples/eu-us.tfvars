# Two groups of authorities, Europe and the US West coast, as in the paper's
# geographic experiments: 3 EA replicas in Europe and 2 in the US, one
# Operator replica per region, all in one replication group.
#   terraform apply -var-file=examples/eu-us.tfvars
name        = "vpki"
home_region = "eu-west-1"

regions = {
  "eu-west-1" = {
    vpc_cidr          = "10.10.0.0/16"
    az_count          = 3
    ea_replicas       = 3
    operator_replicas = 1
    aa_min            = 2
    aa_max            = 10
    # the ETSI endpoints over HTTPS as well (docs/deployment.md): an ACM certificate of this region
    # etsi_tls_certificate_arn = "arn:aws:acm:eu-west-1:123456789012:certificate/..."
  }
  "us-west-2" = {
    vpc_cidr          = "10.20.0.0/16"
    az_count          = 2
    ea_replicas       = 2
    operator_replicas = 1
    aa_min            = 1
    aa_max            = 6
  }
}

aa_target_cpu = 60

instance_types = {
  ea = "c6i.large"
  aa = "c6i.large"
}

# FIFO/ASYNC keeps writes local; TOTAL/SYNC pays the inter-region round trip
# on every enrolment (see docs/deployment.md).
replication_order       = "FIFO"
replication_propagation = "ASYNC"
jgroups_discovery       = "TCPPING"

vpki_version           = "0.1.0"
artefact_bucket        = "example-vpki-artefacts"
artefact_bucket_region = "eu-west-1"

operator_cidrs = ["192.0.2.0/24"]
domain_name    = "pki.example.org"
public_zone_id = "Z0000000EXAMPLE"

# Keys in AWS CloudHSM (docs/deployment.md, "AWS CloudHSM"): nistP256 deployments only, off by default.
# authority_curve = "nistP256"
# cloudhsm        = { enabled = true, hsms_per_region = 2 }
