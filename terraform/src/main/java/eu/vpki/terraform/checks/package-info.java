/**
 * Structural checks of the AWS deployment (regions, ingress, secrets, consistency, management port, listener TLS)
 * over the module tree, following references symbolically with {@link eu.vpki.terraform.checks.Resolver}
 * (docs/deployment.md, "What the build checks").
 */
package eu.vpki.terraform.checks;
