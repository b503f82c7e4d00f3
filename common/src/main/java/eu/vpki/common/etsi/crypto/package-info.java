/**
 * Keys, signing, verification and key agreement on the IEEE 1609.2 curves, with three backends
 * chosen per curve: nistP256 in AWS-LC where its native library loads ({@link eu.vpki.common.etsi.crypto.NativeP256}),
 * brainpoolP256r1 and brainpoolP384r1 in our constant-time Montgomery arithmetic
 * ({@link eu.vpki.common.etsi.crypto.MontgomeryBrainpool}, {@link eu.vpki.common.etsi.crypto.BrainpoolCurve}),
 * and BouncyCastle's lightweight API for the rest and as the fallback
 * ({@link eu.vpki.common.etsi.crypto.BouncyCastleEc}). No BouncyCastle or JCA type appears in the
 * public signatures of this package, except in the X.509 CAs of our own TLS (not ETSI), which hand out
 * {@code java.security.cert} certificates: {@link eu.vpki.common.etsi.crypto.DeploymentCa} (the replication
 * channel) and {@link eu.vpki.common.etsi.crypto.ApiTlsCa} (the HTTPS of the RCA admin and Operator APIs), both
 * on one package-private X.509 issuer; they live here because BouncyCastle does.
 */
package eu.vpki.common.etsi.crypto;
