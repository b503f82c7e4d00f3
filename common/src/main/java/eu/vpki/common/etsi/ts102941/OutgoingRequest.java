package eu.vpki.common.etsi.ts102941;

/**
 * A request ready to POST, with what the sender must keep to read the answer: the AES key the
 * response will be encrypted with and the request hash the response must echo.
 */
public record OutgoingRequest(byte[] body, byte[] aesKey, byte[] requestHash) {
    public OutgoingRequest {
        body = body.clone();
        aesKey = aesKey.clone();
        requestHash = requestHash.clone();
    }

    @Override
    public byte[] body() {
        return body.clone();
    }

    @Override
    public byte[] aesKey() {
        return aesKey.clone();
    }

    @Override
    public byte[] requestHash() {
        return requestHash.clone();
    }
}
