package eu.vpki.common.fleet;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;

import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;

/**
 * Decodes the certificate and key fields of stored fleet records, and remembers the most recently
 * used decodings. An EC is stored as its COER encoding and a station's canonical key as a
 * compressed point; decoding them costs more than the Redis read (COER parsing, point
 * decompression), and verifying a signature with a key decoded just now costs about 2.5 times a
 * verification with a key already used once (BouncyCastle keeps its precomputed multiples of the
 * point with the decoded point). A station asks for many ATs with the same EC, so the EA decodes it
 * once and then finds it here.
 *
 * <p>Only immutable values are cached, keyed by their exact stored encoding: a changed field is a
 * different key, and what may change (status, permissions, version) is read from Redis every time.
 * Least recently used entries go first; thread-safe.
 */
public final class RecordDecoding {
    /** Entries per kind (certificates, keys) when the caller does not say: about 38 MB when full of ECs in use (measured, docs/ea.md). */
    public static final int DEFAULT_ENTRIES = 4096;
    private static final HexFormat HEX = HexFormat.of();

    private final Lru<String, EtsiCertificate> certificates;
    private final Lru<String, EtsiPublicKey> keys;

    /** @param entries how many certificates, and how many keys, to keep decoded; 0 decodes every time */
    public RecordDecoding(int entries) {
        if (entries < 0) {
            throw new IllegalArgumentException("entries must be >= 0");
        }
        this.certificates = new Lru<>(entries);
        this.keys = new Lru<>(entries);
    }

    /** A decoder that keeps nothing. */
    public static RecordDecoding uncached() {
        return new RecordDecoding(0);
    }

    /** The certificate stored as hex COER. */
    public EtsiCertificate certificate(String hex) {
        return certificates.get(hex, h -> EtsiCertificate.decode(HEX.parseHex(h)));
    }

    /** The public key stored as its curve name and hex point encoding. */
    public EtsiPublicKey key(String curve, String hex) {
        return keys.get(curve + ':' + hex, k -> EtsiPublicKey.fromEncodedPoint(EtsiCurve.valueOf(curve), HEX.parseHex(hex)));
    }

    /** How many certificates are held decoded now (for tests and metrics). */
    public int cachedCertificates() {
        return certificates.size();
    }

    /** How many keys are held decoded now. */
    public int cachedKeys() {
        return keys.size();
    }

    /**
     * A bounded least-recently-used map. Decoding runs outside the lock, so two threads may decode
     * the same value at once; both results are equal and either may stay.
     */
    private static final class Lru<K, V> {
        private final int capacity;
        private final LinkedHashMap<K, V> map;

        Lru(int capacity) {
            this.capacity = capacity;
            this.map = new LinkedHashMap<>(16, 0.75f, true) {
                @Override
                protected boolean removeEldestEntry(Map.Entry<K, V> eldest) {
                    return size() > Lru.this.capacity;
                }
            };
        }

        V get(K key, Function<K, V> decode) {
            if (capacity == 0) {
                return decode.apply(key);
            }
            synchronized (map) {
                V known = map.get(key);
                if (known != null) {
                    return known;
                }
            }
            V decoded = decode.apply(key);
            synchronized (map) {
                map.put(key, decoded);
            }
            return decoded;
        }

        int size() {
            synchronized (map) {
                return map.size();
            }
        }
    }
}
