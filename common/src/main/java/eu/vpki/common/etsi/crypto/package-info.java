/**
 * Keys, signing and verification on the IEEE 1609.2 curves, over BouncyCastle's lightweight API.
 * No BouncyCastle type appears in the public signatures of this package.
 */
package eu.vpki.common.etsi.crypto;
