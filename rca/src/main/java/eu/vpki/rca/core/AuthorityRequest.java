package eu.vpki.rca.core;

/**
 * An admin's request to certify an EA or AA, as received (strings, not yet validated: the
 * certification validates each field and names it in the error).
 *
 * @param type             {@code EA} or {@code AA}
 * @param name             certificate name (1 to 255 characters)
 * @param curve            curve of the verification key: {@code nistP256}, {@code brainpoolP256r1}, {@code brainpoolP384r1}
 * @param verificationKey  SEC 1 point (compressed or uncompressed), hex or base64
 * @param encryptionCurve  curve of the encryption key; default {@code curve} (must be a P-256 curve)
 * @param encryptionKey    SEC 1 point, hex or base64 (required: relying parties encrypt to EAs and AAs)
 * @param itsAccessPoint   EA: enrolment URL for ITS stations
 * @param aaAccessPoint    EA: authorization-validation URL for AAs
 * @param accessPoint      AA: authorization URL for ITS stations
 * @param validityDays     certificate validity in days; default from the configuration
 */
public record AuthorityRequest(String type, String name, String curve, String verificationKey, String encryptionCurve,
                               String encryptionKey, String itsAccessPoint, String aaAccessPoint, String accessPoint,
                               Integer validityDays) {
}
