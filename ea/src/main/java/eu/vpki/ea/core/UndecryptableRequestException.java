package eu.vpki.ea.core;

import eu.vpki.common.error.PkiException;

/**
 * A request the EA could not decrypt (garbage, not encrypted for this EA, bad tag). TS 102 941
 * answers are encrypted with the request's AES key; without it no ETSI response can be built, so
 * the shell answers a plain HTTP 400 problem instead. Carries the underlying code.
 */
public final class UndecryptableRequestException extends PkiException {
    public UndecryptableRequestException(PkiException cause) {
        super(cause.code(), "request cannot be decrypted: " + cause.getMessage(), cause);
    }
}
