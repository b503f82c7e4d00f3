output "rca_private_ip" {
  description = "Private IP of the RCA."
  value       = aws_instance.rca.private_ip
}
