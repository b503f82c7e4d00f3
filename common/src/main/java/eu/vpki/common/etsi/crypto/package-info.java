/**
 * Keys, signing, verification and key agreement on the IEEE 1609.2 curves, with three backends
 * chosen per curve: nistP256 in AWS-LC where its native library loads ({@link eu.vpki.common.etsi.crypto.NativeP256}),
 * brainpoolP256r1 and brainpoolP384r1 in our constant-time Montgomery arithmetic
 * ({@link eu.vpki.common.etsi.crypto.MontgomeryBrainpool}, {@link eu.vpki.common.etsi.crypto.BrainpoolCurve}),
 * and BouncyCastle's lightweight API for the rest and as the fallback
 * ({@link eu.vpki.common.etsi.crypto.BouncyCastleEc}). No BouncyCastle or JCA type appears in the
 * public signatures of this package.
 */
package eu.vpki.common.etsi.crypto;
