package eu.vpki.aa.core;

import eu.vpki.common.error.ErrorCode;

/** What the AA does with a request body: answer it (AT or refusal, always encrypted), or reject it as undecryptable. */
public sealed interface AuthorizationOutcome {
    /** An encrypted AuthorizationResponse to send with HTTP 200; {@code responseCode} 0 means an AT is inside. */
    record Answered(byte[] response, int responseCode) implements AuthorizationOutcome {
        public Answered {
            response = response.clone();
        }

        @Override
        public byte[] response() {
            return response.clone();
        }
    }

    /**
     * The body could not be decrypted, so there is no key to encrypt an answer with; the shell
     * answers an HTTP 400 problem (docs/aa.md).
     */
    record Undecryptable(ErrorCode reason, String detail) implements AuthorizationOutcome {
    }
}
