/**
 * HCL2 as the Terraform checks read it: {@link eu.vpki.terraform.hcl.HclReader} parses with OpenRewrite's
 * rewrite-hcl and converts its lossless tree into {@link eu.vpki.terraform.hcl.Ast}, references kept as syntax
 * (docs/deployment.md, "Reading the HCL").
 */
package eu.vpki.terraform.hcl;
