output "secrets" {
  description = "Secret name and ARN (of the home-region copy) per credential."
  value       = { for k, s in aws_secretsmanager_secret.this : k => { name = s.name, arn = s.arn } }
}

output "jgroups_ping_bucket" {
  description = "S3_PING bucket name, or \"\" when another discovery method is used."
  value       = try(aws_s3_bucket.jgroups_ping[0].bucket, "")
}
