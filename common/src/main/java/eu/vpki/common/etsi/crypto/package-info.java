/**
 * Keys, signing and verification on the IEEE 1609.2 curves, over BouncyCastle's lightweight API,
 * with nistP256 ECDSA and ECDH in AWS-LC where its native library loads ({@link eu.vpki.common.etsi.crypto.NativeP256}).
 * No BouncyCastle or JCA type appears in the public signatures of this package.
 */
package eu.vpki.common.etsi.crypto;
