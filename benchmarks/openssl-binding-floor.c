/*
 * What a libcrypto binding (option A of docs/design-brainpool-arithmetic.md) would do per
 * operation, measured in C, so without any binding's own cost: the floor of that option.
 * Not part of the build (it needs a C compiler and the OpenSSL headers, which a user of vpki does
 * not need); the measurement script of docs/benchmarks.md runs it when both are present:
 *   cc -O2 -o openssl-binding-floor benchmarks/openssl-binding-floor.c -lcrypto && ./openssl-binding-floor [seconds]
 *
 * Per curve (brainpoolP256r1, brainpoolP384r1, prime256v1), each for `seconds` of CPU time, one thread:
 *   sign            ECDSA over a digest with a key kept in an EVP_PKEY_CTX (openssl speed does this);
 *   verify kept     ECDSA verification with a kept key context;
 *   verify first    the key arrives as a compressed point (as the EA and AA receive station keys):
 *                   EVP_PKEY_fromdata, a new context, the verification; r || s converted to DER;
 *   ecdh first      the peer key arrives as a compressed point (an ECIES ephemeral key):
 *                   EVP_PKEY_fromdata (decompression, on-curve check), derive with our kept
 *                   private key; EVP_PKEY_derive_set_peer validates the peer key again;
 *   ecdh first nv   the same with EVP_PKEY_derive_set_peer_ex(..., 0): no second validation
 *                   (the on-curve check of the decoding is enough on these cofactor-1 curves).
 * openssl speed's figures reuse one key and skip the import, so "first" rows are what an EA or AA
 * would really get from libcrypto.
 */
#include <openssl/core_names.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/param_build.h>
#include <openssl/rand.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#define RING 64

static double cpu_seconds(void) {
    struct timespec t;
    clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void fail(const char *what) {
    fprintf(stderr, "failed: %s\n", what);
    exit(1);
}

static EVP_PKEY *generate(const char *group) {
    EVP_PKEY *key = EVP_EC_gen(group);
    if (key == NULL) {
        fail("EVP_EC_gen");
    }
    return key;
}

/* A public key from its compressed encoding, as a binding would build it from an ETSI certificate. */
static EVP_PKEY *from_point(const char *group, const unsigned char *point, size_t length) {
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0);
    OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, point, length);
    OSSL_PARAM *params = OSSL_PARAM_BLD_to_param(bld);
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL);
    EVP_PKEY *key = NULL;
    if (ctx == NULL || EVP_PKEY_fromdata_init(ctx) <= 0 || EVP_PKEY_fromdata(ctx, &key, EVP_PKEY_PUBLIC_KEY, params) <= 0) {
        fail("EVP_PKEY_fromdata");
    }
    EVP_PKEY_CTX_free(ctx);
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return key;
}

static size_t compressed(EVP_PKEY *key, unsigned char *out, size_t size) {
    size_t length = 0;
    EVP_PKEY_set_utf8_string_param(key, OSSL_PKEY_PARAM_EC_POINT_CONVERSION_FORMAT, "compressed");
    if (EVP_PKEY_get_octet_string_param(key, OSSL_PKEY_PARAM_ENCODED_PUBLIC_KEY, out, size, &length) <= 0) {
        fail("encoded public key");
    }
    return length;
}

/* r || s (what an ETSI signature carries) to the DER that EVP_PKEY_verify takes. */
static int to_der(const unsigned char *rs, size_t half, unsigned char *der) {
    ECDSA_SIG *sig = ECDSA_SIG_new();
    ECDSA_SIG_set0(sig, BN_bin2bn(rs, (int) half, NULL), BN_bin2bn(rs + half, (int) half, NULL));
    unsigned char *p = der;
    int length = i2d_ECDSA_SIG(sig, &p);
    ECDSA_SIG_free(sig);
    return length;
}

static void from_der(const unsigned char *der, size_t length, size_t half, unsigned char *rs) {
    const unsigned char *p = der;
    ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long) length);
    if (sig == NULL) {
        fail("d2i_ECDSA_SIG");
    }
    BN_bn2binpad(ECDSA_SIG_get0_r(sig), rs, (int) half);
    BN_bn2binpad(ECDSA_SIG_get0_s(sig), rs + half, (int) half);
    ECDSA_SIG_free(sig);
}

static void report(const char *curve, const char *what, long count, double seconds) {
    printf("%-16s %-14s %10.0f /s  (%ld in %.2f s CPU)\n", curve, what, count / seconds, count, seconds);
}

static void measure(const char *group, size_t half, double budget) {
    unsigned char digest[48];
    RAND_bytes(digest, sizeof digest);
    size_t digest_length = half;
    EVP_PKEY *ours = generate(group);
    EVP_PKEY_CTX *sign = EVP_PKEY_CTX_new(ours, NULL);
    EVP_PKEY_CTX *verify = EVP_PKEY_CTX_new(ours, NULL);
    if (EVP_PKEY_sign_init(sign) <= 0 || EVP_PKEY_verify_init(verify) <= 0) {
        fail("init");
    }
    unsigned char der[160];
    size_t der_length;
    long count = 0;
    double start = cpu_seconds(), now = start;
    while (now - start < budget) {
        der_length = sizeof der;
        if (EVP_PKEY_sign(sign, der, &der_length, digest, digest_length) <= 0) {
            fail("sign");
        }
        if (++count % 64 == 0) {
            now = cpu_seconds();
        }
    }
    report(group, "sign", count, cpu_seconds() - start);

    count = 0;
    start = now = cpu_seconds();
    while (now - start < budget) {
        if (EVP_PKEY_verify(verify, der, der_length, digest, digest_length) != 1) {
            fail("verify");
        }
        if (++count % 64 == 0) {
            now = cpu_seconds();
        }
    }
    report(group, "verify kept", count, cpu_seconds() - start);

    /* a ring of station keys, each with a signature as r || s */
    unsigned char points[RING][100];
    size_t point_length[RING];
    unsigned char signatures[RING][96];
    for (int i = 0; i < RING; i++) {
        EVP_PKEY *k = generate(group);
        point_length[i] = compressed(k, points[i], sizeof points[i]);
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(k, NULL);
        unsigned char d[160];
        size_t dl = sizeof d;
        if (EVP_PKEY_sign_init(c) <= 0 || EVP_PKEY_sign(c, d, &dl, digest, digest_length) <= 0) {
            fail("ring sign");
        }
        from_der(d, dl, half, signatures[i]);
        EVP_PKEY_CTX_free(c);
        EVP_PKEY_free(k);
    }
    count = 0;
    start = now = cpu_seconds();
    while (now - start < budget) {
        int i = (int) (count & (RING - 1));
        EVP_PKEY *key = from_point(group, points[i], point_length[i]);
        EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(key, NULL);
        unsigned char d[160];
        int dl = to_der(signatures[i], half, d);
        if (EVP_PKEY_verify_init(c) <= 0 || EVP_PKEY_verify(c, d, (size_t) dl, digest, digest_length) != 1) {
            fail("verify first");
        }
        EVP_PKEY_CTX_free(c);
        EVP_PKEY_free(key);
        if (++count % 16 == 0) {
            now = cpu_seconds();
        }
    }
    report(group, "verify first", count, cpu_seconds() - start);

    for (int validate = 1; validate >= 0; validate--) {
        count = 0;
        start = now = cpu_seconds();
        while (now - start < budget) {
            int i = (int) (count & (RING - 1));
            EVP_PKEY *peer = from_point(group, points[i], point_length[i]);
            EVP_PKEY_CTX *c = EVP_PKEY_CTX_new(ours, NULL);
            unsigned char z[64];
            size_t zl = sizeof z;
            if (EVP_PKEY_derive_init(c) <= 0 || EVP_PKEY_derive_set_peer_ex(c, peer, validate) <= 0 || EVP_PKEY_derive(c, z, &zl) <= 0) {
                fail("derive");
            }
            EVP_PKEY_CTX_free(c);
            EVP_PKEY_free(peer);
            if (++count % 16 == 0) {
                now = cpu_seconds();
            }
        }
        report(group, validate ? "ecdh first" : "ecdh first nv", count, cpu_seconds() - start);
    }
    EVP_PKEY_CTX_free(sign);
    EVP_PKEY_CTX_free(verify);
    EVP_PKEY_free(ours);
}

int main(int argc, char **argv) {
    double budget = argc > 1 ? atof(argv[1]) : 3.0;
    printf("%s, %.1f s CPU per row, one thread\n", OpenSSL_version(OPENSSL_VERSION), budget);
    measure("brainpoolP256r1", 32, budget);
    measure("brainpoolP384r1", 48, budget);
    measure("prime256v1", 32, budget);
    return 0;
}
