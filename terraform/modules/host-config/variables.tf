variable "service" {
  description = "Service this host runs: rca, dc, ea, operator or aa (jar vpki-<service>-<version>.jar)."
  type        = string

  validation {
    condition     = contains(["rca", "dc", "ea", "operator", "aa"], var.service)
    error_message = "service must be one of rca, dc, ea, operator, aa."
  }
}

variable "region" {
  description = "Region the host runs in; secrets are read from their copy in this region."
  type        = string
}

variable "artefacts" {
  description = "Where the jar and the RCA certificate are: bucket, its region, key prefix of this version, version, and the key of the RCA certificate."
  type = object({
    bucket              = string
    region              = string
    prefix              = string
    version             = string
    rca_certificate_key = string
  })
}

variable "environment" {
  description = "Service configuration as environment variables (the keys of docs/configuration.md, Spring relaxed binding). Never secrets: those go through secret_files."
  type        = map(string)
}

variable "secret_files" {
  description = <<-EOT
    Secrets the service reads from files, keyed by the configuration variable
    that names the file (e.g. VPKI_KEYSTORE_PASSWORD_FILE). Before every start
    the host fetches each secret from Secrets Manager into a file in the unit's
    runtime directory (tmpfs, mode 0700) and points the variable at it.
    base64 = true decodes the value (PKCS#12 key stores).
  EOT
  type = map(object({
    secret_id = string
    base64    = bool
  }))
  default = {}
}

variable "trusts_rca" {
  description = "Whether the service needs the RCA certificate (DC, EA, AA): it is fetched next to the secrets and named by VPKI_RCA_CERTIFICATE_FILE."
  type        = bool
  default     = false
}

variable "own_certificate" {
  description = "Whether the service needs its own authority certificate (EA, AA): fetched with the RCA certificate from the same S3 prefix (<prefix>/trust/<service>.cert) into the runtime directory; the caller's environment names it (VPKI_EA_CERTIFICATE_FILE / VPKI_AA_CERTIFICATE_FILE = /run/vpki-<service>/<service>.cert)."
  type        = bool
  default     = false
}

variable "redis" {
  description = "Whether the host runs its own Redis (EA and Operator replicas), bound to loopback only, asking for the password of the secret_files entry VPKI_REDIS_PASSWORD_FILE (required then)."
  type        = bool
  default     = false
}

variable "redis_maxmemory_percent" {
  description = "With redis: the share (percent) of the host's memory Redis may use, computed at boot from /proc/meminfo (maxmemory, with maxmemory-policy noeviction)."
  type        = number
  default     = 50

  validation {
    condition     = var.redis_maxmemory_percent >= 10 && var.redis_maxmemory_percent <= 70
    error_message = "redis_maxmemory_percent must be between 10 and 70."
  }
}

variable "data_volume_id" {
  description = "EBS volume mounted at /var/lib/vpki (service working directory and Redis data), or null for stateless hosts."
  type        = string
  default     = null
}

variable "cloudhsm" {
  description = "The AWS CloudHSM cluster whose PKCS#11 library (Client SDK 5) the host installs and configures for the service's keys (RCA, EA, AA with the root variable cloudhsm on): cluster id, its region and the client RPM's name under the artefact prefix; null without CloudHSM."
  type = object({
    cluster_id = string
    region     = string
    rpm        = string
  })
  default = null
}
