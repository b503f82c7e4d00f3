/**
 * ETSI TS 103 097 security headers: {@link eu.vpki.common.etsi.ts103097.HashedId8} and the
 * encryption of {@code EtsiTs103097Data-Encrypted} to a certificate (ECIES) or under a pre-shared
 * key ({@link eu.vpki.common.etsi.ts103097.DataEncryption}); see {@code docs/encryption.md}.
 * Public signatures carry no BouncyCastle types.
 */
package eu.vpki.common.etsi.ts103097;
