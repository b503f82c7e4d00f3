# One internet-facing load balancer per region; host names select the service.
# Vehicles normally arrive through the latency-routed <service>.<domain>
# records (module global); <service>.<region>.<domain> pins a region.

resource "aws_lb" "this" {
  region                     = var.region
  name                       = substr("${var.name}-${var.region}", 0, 32)
  load_balancer_type         = "application"
  internal                   = false
  security_groups            = [aws_security_group.alb.id]
  subnets                    = aws_subnet.public[*].id
  drop_invalid_header_fields = true
}

locals {
  public_services = {
    dc = { port = local.service_ports.dc, management_port = local.management_ports.dc, priority = 10 }
    ea = { port = local.service_ports.ea, management_port = local.management_ports.ea, priority = 20 }
    aa = { port = local.service_ports.aa, management_port = local.management_ports.aa, priority = 30 }
  }
}

resource "aws_lb_target_group" "service" {
  for_each = local.public_services

  region               = var.region
  name                 = substr("${var.name}-${each.key}-${var.region}", 0, 32)
  port                 = each.value.port
  protocol             = "HTTP"
  vpc_id               = aws_vpc.this.id
  target_type          = "instance"
  deregistration_delay = 30

  # Actuator answers on the management port only (no listener rule ever
  # forwards there); an EA replica out of its majority or without its Redis
  # answers 503 and leaves the rotation.
  health_check {
    path    = "/actuator/health"
    port    = tostring(each.value.management_port)
    matcher = "200"
  }
}

resource "aws_lb_listener" "http" {
  region            = var.region
  load_balancer_arn = aws_lb.this.arn
  port              = 80
  protocol          = "HTTP"

  default_action {
    type = "fixed-response"
    fixed_response {
      content_type = "text/plain"
      status_code  = "404"
      message_body = "unknown host"
    }
  }
}

# The ETSI endpoints over HTTPS as well, when the region has a certificate
# (issue #18: an option; the messages are signed and encrypted end to end, so
# the HTTP listener above stays for OBUs that speak HTTP). TLS ends at the load
# balancer, which forwards to the same target groups over the VPC.
resource "aws_lb_listener" "https" {
  count = var.etsi_tls_certificate_arn == null ? 0 : 1

  region            = var.region
  load_balancer_arn = aws_lb.this.arn
  port              = 443
  protocol          = "HTTPS"
  ssl_policy        = "ELBSecurityPolicy-TLS13-1-2-2021-06"
  certificate_arn   = var.etsi_tls_certificate_arn

  default_action {
    type = "fixed-response"
    fixed_response {
      content_type = "text/plain"
      status_code  = "404"
      message_body = "unknown host"
    }
  }
}

resource "aws_lb_listener_rule" "service" {
  for_each = local.public_services

  region       = var.region
  listener_arn = aws_lb_listener.http.arn
  priority     = each.value.priority

  action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.service[each.key].arn
  }
  condition {
    host_header {
      values = ["${each.key}.${var.domain_name}", "${each.key}.${var.region}.${var.domain_name}"]
    }
  }
}

# the same host names and target groups on the HTTPS listener
resource "aws_lb_listener_rule" "service_https" {
  for_each = var.etsi_tls_certificate_arn == null ? {} : local.public_services

  region       = var.region
  listener_arn = aws_lb_listener.https[0].arn
  priority     = each.value.priority

  action {
    type             = "forward"
    target_group_arn = aws_lb_target_group.service[each.key].arn
  }
  condition {
    host_header {
      values = ["${each.key}.${var.domain_name}", "${each.key}.${var.region}.${var.domain_name}"]
    }
  }
}

resource "aws_lb_target_group_attachment" "ea" {
  for_each = { for k, r in local.replicas_by_key : k => r if r.service == "ea" }

  region           = var.region
  target_group_arn = aws_lb_target_group.service["ea"].arn
  target_id        = aws_instance.replica[each.key].id
  port             = local.service_ports.ea
}

resource "aws_lb_target_group_attachment" "dc" {
  region           = var.region
  target_group_arn = aws_lb_target_group.service["dc"].arn
  target_id        = aws_instance.dc.id
  port             = local.service_ports.dc
}
