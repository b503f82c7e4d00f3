package eu.vpki.common.etsi.crypto;

import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;

/** The two hash functions of IEEE 1609.2. The JDK's implementations use CPU intrinsics. */
public enum HashAlgorithm {
    SHA256("SHA-256", 32), SHA384("SHA-384", 48);

    private final String jcaName;
    private final int length;
    private final MessageDigest prototype;

    HashAlgorithm(String jcaName, int length) {
        this.jcaName = jcaName;
        this.length = length;
        try {
            this.prototype = MessageDigest.getInstance(jcaName);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException(jcaName + " missing from the JDK", e);
        }
    }

    public int length() {
        return length;
    }

    public byte[] digest(byte[] data) {
        return newDigest().digest(data);
    }

    /** Hash of the concatenation of the given parts. */
    public byte[] digest(byte[]... parts) {
        MessageDigest md = newDigest();
        for (byte[] p : parts) {
            md.update(p);
        }
        return md.digest();
    }

    private MessageDigest newDigest() {
        try {
            return (MessageDigest) prototype.clone();
        } catch (CloneNotSupportedException e) {
            try {
                return MessageDigest.getInstance(jcaName);
            } catch (NoSuchAlgorithmException impossible) {
                throw new IllegalStateException(impossible);
            }
        }
    }
}
