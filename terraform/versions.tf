terraform {
  # 1.9: variable validation may refer to other variables (home_region vs regions).
  required_version = ">= 1.9.0"

  required_providers {
    aws = {
      source = "hashicorp/aws"
      # 6.x adds the per-resource `region` argument ("enhanced region support"),
      # which is what lets a single provider configuration and one
      # `module "region"` with for_each deploy into any number of regions.
      version = "~> 6.0"
    }
  }
}
