data "aws_availability_zones" "available" {
  region = var.region
  state  = "available"
}

locals {
  azs = slice(data.aws_availability_zones.available.names, 0, length(var.public_subnet_cidrs))
}

resource "aws_vpc" "this" {
  region               = var.region
  cidr_block           = var.vpc_cidr
  enable_dns_support   = true
  enable_dns_hostnames = true

  tags = { Name = "${var.name}-${var.region}" }
}

resource "aws_internet_gateway" "this" {
  region = var.region
  vpc_id = aws_vpc.this.id
}

resource "aws_subnet" "public" {
  count = length(var.public_subnet_cidrs)

  region            = var.region
  vpc_id            = aws_vpc.this.id
  cidr_block        = var.public_subnet_cidrs[count.index]
  availability_zone = local.azs[count.index]

  tags = { Name = "${var.name}-${var.region}-public-${local.azs[count.index]}" }
}

resource "aws_subnet" "private" {
  count = length(var.private_subnet_cidrs)

  region            = var.region
  vpc_id            = aws_vpc.this.id
  cidr_block        = var.private_subnet_cidrs[count.index]
  availability_zone = local.azs[count.index]

  tags = { Name = "${var.name}-${var.region}-private-${local.azs[count.index]}" }
}

resource "aws_subnet" "replica" {
  count = length(var.replica_subnet_cidrs)

  region            = var.region
  vpc_id            = aws_vpc.this.id
  cidr_block        = var.replica_subnet_cidrs[count.index]
  availability_zone = local.azs[count.index]

  tags = { Name = "${var.name}-${var.region}-replica-${local.azs[count.index]}" }
}

resource "aws_route_table" "public" {
  region = var.region
  vpc_id = aws_vpc.this.id

  route {
    cidr_block = "0.0.0.0/0"
    gateway_id = aws_internet_gateway.this.id
  }
}

resource "aws_route_table_association" "public" {
  count = length(aws_subnet.public)

  region         = var.region
  subnet_id      = aws_subnet.public[count.index].id
  route_table_id = aws_route_table.public.id
}

# Hosts have no public address; they reach S3 (artefacts), Secrets Manager,
# the package repositories and the public EA endpoint through one NAT gateway.
# One per region keeps the example cheap; use one per AZ to survive an AZ loss.
resource "aws_eip" "nat" {
  region = var.region
  domain = "vpc"
}

resource "aws_nat_gateway" "this" {
  region        = var.region
  allocation_id = aws_eip.nat.id
  subnet_id     = aws_subnet.public[0].id

  depends_on = [aws_internet_gateway.this]
}

resource "aws_route_table" "private" {
  region = var.region
  vpc_id = aws_vpc.this.id

  route {
    cidr_block     = "0.0.0.0/0"
    nat_gateway_id = aws_nat_gateway.this.id
  }
}

resource "aws_route_table_association" "private" {
  count = length(aws_subnet.private)

  region         = var.region
  subnet_id      = aws_subnet.private[count.index].id
  route_table_id = aws_route_table.private.id
}

# Replica subnets have their own route table: module global adds the routes
# to the other regions' replica subnets over VPC peering here, and only here,
# so the peering carries replication traffic and nothing else. Inline route
# blocks would fight those separate aws_route resources, so the default route
# is a separate resource too.
resource "aws_route_table" "replica" {
  region = var.region
  vpc_id = aws_vpc.this.id
}

resource "aws_route" "replica_default" {
  region                 = var.region
  route_table_id         = aws_route_table.replica.id
  destination_cidr_block = "0.0.0.0/0"
  nat_gateway_id         = aws_nat_gateway.this.id
}

resource "aws_route_table_association" "replica" {
  count = length(aws_subnet.replica)

  region         = var.region
  subnet_id      = aws_subnet.replica[count.index].id
  route_table_id = aws_route_table.replica.id
}
