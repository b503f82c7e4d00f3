package eu.vpki.dc.core;

import java.time.Instant;

/** Bytes to serve with the time up to which they may be cached. */
public record ServedList(byte[] body, String contentType, Instant cacheUntil) {
    public ServedList {
        body = body.clone();
    }

    @Override
    public byte[] body() {
        return body.clone();
    }
}
