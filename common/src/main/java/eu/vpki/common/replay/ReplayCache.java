package eu.vpki.common.replay;

/**
 * Remembers the fingerprints of requests seen recently, so that a replayed request is refused: the
 * replay check of the EA (enrolment) and the AA (authorization). Each fingerprint is kept for the
 * cache's retention after it was first seen. A cache is bounded; what it does when full of live
 * entries (refuse, or forget the oldest and let a replay through) is its policy. Thread-safe.
 */
public interface ReplayCache {
    /**
     * Records a fingerprint unless it is held already.
     *
     * @param fingerprint a hash of the request, at least 16 bytes (the first 16 are the key)
     * @return {@code true} if it was not held (a first request), {@code false} if it was (a replay)
     * @throws eu.vpki.common.error.PkiException {@code INTERNAL_ERROR} when the cache is full of live
     *                                           entries and its policy is to refuse rather than forget
     */
    boolean firstSeen(byte[] fingerprint);
}
