# Data-only module: renders the cloud-init user data of one vpki service host.
# It creates no resources, so it needs no provider.
terraform {
  required_version = ">= 1.9.0"
}
