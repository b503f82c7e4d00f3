/**
 * Relying-party trust: chain validation from a certificate to a trusted Root CA, through the
 * authorities of the RCA's CTL, with the CRL's revocations.
 */
package eu.vpki.common.etsi.validation;
