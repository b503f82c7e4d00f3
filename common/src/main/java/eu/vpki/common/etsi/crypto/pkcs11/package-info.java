/**
 * Authority keys in a hardware security module through PKCS#11 (issue #36): {@link eu.vpki.common.etsi.crypto.pkcs11.Pkcs11Token}
 * opens a token with the JDK's SunPKCS11 provider and hands out {@link eu.vpki.common.etsi.crypto.EtsiSigner}s
 * (raw {@code CKM_ECDSA} over the IEEE 1609.2 digest, every signature verified before it is returned) and
 * {@link eu.vpki.common.etsi.crypto.EtsiKeyAgreement}s ({@code CKM_ECDH1_DERIVE}) whose private keys never leave
 * the token; {@link eu.vpki.common.etsi.crypto.pkcs11.KeyCeremony} generates an authority's keys inside the token and makes the
 * root certificate or the CA certificate request from them. Why SunPKCS11 and not a wrapper library:
 * docs/design-hsm.md.
 */
package eu.vpki.common.etsi.crypto.pkcs11;
