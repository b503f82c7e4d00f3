# One provider configuration for every region: each resource in the modules
# sets `region` explicitly, so this default only matters for global services
# (IAM, Route 53) and for anything that forgets its region, which the build's
# structure test (terraform/src/test) refuses for modules/region.
provider "aws" {
  region = var.home_region

  default_tags {
    tags = {
      Project   = var.name
      ManagedBy = "terraform"
    }
  }
}
