variable "name" {
  description = "Deployment name, prefix of the secret names and of the S3_PING bucket."
  type        = string
}

variable "home_region" {
  description = "Region holding the primary copy of every secret and the S3_PING bucket."
  type        = string
}

variable "regions" {
  description = "All deployment regions; secrets used outside home_region are replicated to the others."
  type        = list(string)
}

variable "jgroups_discovery" {
  description = "Replica discovery method; the S3_PING bucket exists only when it is S3_PING."
  type        = string
}

variable "replica_ids" {
  description = "Every EA and Operator replica's id (<region>.<host>): one replication key store secret each, kept in that region."
  type        = list(string)
}

variable "cloudhsm_enabled" {
  description = "Whether the authorities' keys are in AWS CloudHSM (root variable cloudhsm): a PIN secret instead of the key store secrets."
  type        = bool
}
