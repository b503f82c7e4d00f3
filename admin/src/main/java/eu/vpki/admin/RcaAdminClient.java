package eu.vpki.admin;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import eu.vpki.common.etsi.crypto.EtsiPublicKey;
import eu.vpki.common.etsi.crypto.SoftwareKeyStore;
import eu.vpki.common.etsi.ts103097.EtsiCertificate;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;
import tools.jackson.databind.node.ObjectNode;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;
import java.util.HexFormat;
import java.util.Map;

/**
 * The one client of the RCA's admin API ({@code docs/endpoints.md}, "RCA admin API"): the RCA
 * certificate, and the certification of an EA or an AA whose keys it generates into a key store.
 * The bootstrap command and the local launcher both go through it.
 */
public final class RcaAdminClient {
    private static final JsonMapper JSON = JsonMapper.builder().build();

    private final HttpClient http;
    private final URI rca;
    private final String adminToken;

    /**
     * @param http       the client to speak through (its TLS context trusts the RCA's API certificate)
     * @param rca        the RCA's base URL (https)
     * @param adminToken the RCA's admin bearer token
     */
    public RcaAdminClient(HttpClient http, URI rca, String adminToken) {
        this.http = http;
        this.rca = rca;
        this.adminToken = adminToken;
    }

    /** The RCA certificate (COER), waiting up to {@code wait} until the RCA answers (as a one-shot container must). */
    public byte[] rcaCertificate(Duration wait) throws InterruptedException {
        long deadline = System.nanoTime() + wait.toNanos();
        while (true) {
            try {
                HttpResponse<byte[]> r = http.send(
                        HttpRequest.newBuilder(rca.resolve("/rca/certificate")).timeout(Duration.ofSeconds(5)).build(),
                        HttpResponse.BodyHandlers.ofByteArray());
                if (r.statusCode() == 200) {
                    return r.body();
                }
            } catch (IOException e) {
                // not up yet
            }
            if (System.nanoTime() > deadline) {
                throw new IllegalStateException("the RCA at " + rca + " did not answer within " + wait);
            }
            Thread.sleep(1000);
        }
    }

    /**
     * Generates an authority's signing and encryption keys into a key store (keys already there are
     * kept) and has the RCA certify them.
     *
     * @param type         {@code EA} or {@code AA}
     * @param accessPoints what goes into the CTL: {@code itsAccessPoint} and {@code aaAccessPoint} (EA), {@code accessPoint} (AA)
     */
    public EtsiCertificate certify(SecureRandom random, EtsiCurve curve, String type, String name, Path store, char[] password,
                                   String signingAlias, String encryptionAlias, Map<String, String> accessPoints) {
        return certify(random, curve, curve.encryptionCapable() ? curve : EtsiCurve.NIST_P256, null, type, name, store, password,
                signingAlias, encryptionAlias, accessPoints);
    }

    /**
     * As {@link #certify(SecureRandom, EtsiCurve, String, String, Path, char[], String, String, Map)}, with the
     * encryption key's curve and the certificate's validity in days (null: the RCA's default) chosen by the caller.
     */
    public EtsiCertificate certify(SecureRandom random, EtsiCurve curve, EtsiCurve encCurve, Integer validityDays, String type, String name,
                                   Path store, char[] password, String signingAlias, String encryptionAlias,
                                   Map<String, String> accessPoints) {
        SoftwareKeyStore keys = SoftwareKeyStore.openOrCreate(store, password);
        EtsiKeyPair signing = keys.keyPairOrGenerate(signingAlias, curve, random);
        EtsiKeyPair encryption = keys.keyPairOrGenerate(encryptionAlias, encCurve, random);
        return certify(type, name, signing.publicKey(), encryption.publicKey(), validityDays, accessPoints);
    }

    /**
     * Has the RCA certify an authority whose keys are elsewhere (a PKCS#11 token, say): its public
     * verification and encryption keys, the curves theirs.
     */
    public EtsiCertificate certify(String type, String name, EtsiPublicKey verificationKey, EtsiPublicKey encryptionKey,
                                   Integer validityDays,
                                   Map<String, String> accessPoints) {
        ObjectNode body = JSON.createObjectNode();
        body.put("type", type);
        body.put("name", name);
        body.put("curve", verificationKey.curve().curveName());
        body.put("verificationKey", HexFormat.of().formatHex(verificationKey.compressed()));
        body.put("encryptionCurve", encryptionKey.curve().curveName());
        body.put("encryptionKey", HexFormat.of().formatHex(encryptionKey.compressed()));
        accessPoints.forEach(body::put);
        if (validityDays != null) {
            body.put("validityDays", validityDays.intValue());
        }
        HttpResponse<String> r = send(HttpRequest.newBuilder(rca.resolve("/admin/authorities"))
                .header("Authorization", "Bearer " + adminToken).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body))).build());
        if (r.statusCode() != 201) {
            throw new IllegalStateException("RCA refused to certify the " + type + ": " + r.statusCode() + " " + r.body());
        }
        JsonNode issued = JSON.readTree(r.body());
        return EtsiCertificate.decode(Base64.getDecoder().decode(issued.get("certificate").asText()));
    }

    private HttpResponse<String> send(HttpRequest r) {
        try {
            return http.send(r, HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException(e);
        }
    }
}
