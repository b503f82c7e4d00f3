package eu.vpki.common.etsi.ts103097;

import eu.vpki.common.etsi.crypto.EtsiCurve;
import eu.vpki.common.etsi.crypto.EtsiKeyPair;
import org.bouncycastle.its.ETSIEncryptedData;
import org.bouncycastle.its.ETSIEncryptedDataBuilder;
import org.bouncycastle.its.ETSIRecipientID;
import org.bouncycastle.its.ETSIRecipientInfo;
import org.bouncycastle.its.ETSIRecipientInfoBuilder;
import org.bouncycastle.its.jcajce.JcaETSIDataDecryptor;
import org.bouncycastle.its.jcajce.JceETSIDataEncryptor;
import org.bouncycastle.its.jcajce.JceETSIKeyWrapper;
import org.bouncycastle.jce.ECNamedCurveTable;
import org.bouncycastle.jce.provider.BouncyCastleProvider;
import org.bouncycastle.jce.spec.ECNamedCurveParameterSpec;
import org.bouncycastle.jce.spec.ECPrivateKeySpec;
import org.bouncycastle.jce.spec.ECPublicKeySpec;
import org.junit.jupiter.api.Test;

import java.math.BigInteger;
import java.security.KeyFactory;
import java.security.PrivateKey;
import java.security.Provider;
import java.security.interfaces.ECPublicKey;
import java.util.HexFormat;

import static eu.vpki.common.etsi.ts103097.EncryptionFixtures.RANDOM;
import static eu.vpki.common.etsi.ts103097.EncryptionFixtures.certificateOn;
import static eu.vpki.common.etsi.ts103097.EncryptionFixtures.randomBytes;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * Interoperability with BouncyCastle's own ETSI encryption (org.bouncycastle.its), an independent
 * implementation of the same IEEE 1609.2 construction. BouncyCastle labels every key
 * {@code eciesNistP256}, so the full-message exchange is checked on nistP256 only; brainpoolP256r1
 * is cross-checked at the ECIES level in {@code EciesTest}.
 */
class DataEncryptionInteropTest {
    private static final HexFormat HEX = HexFormat.of();
    private static final Provider BC = new BouncyCastleProvider();

    /**
     * An EtsiTs103097Data-Encrypted from BouncyCastle's test suite (ETSIEncryptedDataTest) with the
     * recipient's private scalar, P1 (the certificate hash) and the recipient id (its last 8 bytes).
     */
    private static final String BC_MESSAGE = "03820101826cc2023b5115003e8083996da81b76fbdcaae0289abddfaf2b7198"
            + "456dbe5495e58c7c61e32a2c2610ca49a6e39470e44e37f302da99da444426f3"
            + "68211d919a06c57b574647b97ccc5180eaf3a6736b866446b150131382011c1e"
            + "56af1083537123946957844cc5906698a777dddc317966a3920e16cfad39c697"
            + "7f28156bd849b57e33b2a9abd1caa8a08520084214b865a355f6d274c3a64694"
            + "b81b605b729c2a6fbe88c561e591a055713698d40cabe196b1c96fefccc05f97"
            + "7beef6ce3528950c0e05f1c43749fd06114641c0442d0c952eb2eb0fa6b6f0b3"
            + "142c6a7e170c2520edf79076c0b6000d4216af50a72955a28e48b0d5ba14b05e"
            + "3ed4e5220c8bcc207070f6738b3b6ecabe056584b971df2a515bccd129bb614d"
            + "2666a461542fa4c4d25a67a91bacda14fba0310cb937fa9d5d3351f17272eef2"
            + "b6e492c3d7a02df81befed05139ce58a9c7f5d2f24f8acd99c4f8a8adbdd6a53"
            + "5f89a8a406430d3a335caa563b35bbb0733379d58f9056d017fdd7";
    private static final String BC_RECIPIENT_SCALAR = "06EB0D8314ADC4C3564A8E721DF1372FF54B5C725D09E2E353F2D0A46003AB86";
    private static final String BC_CERTIFICATE_HASH = "843BA5DC059A5DD3A6BF81842991608C4CB980456B9DA26F6CC2023B5115003E";
    private static final String BC_RECIPIENT_ID = "6CC2023B5115003E";

    private final DataEncryption encryption = new DataEncryption(RANDOM);

    @Test
    void decrypt_readsBouncyCastleTestVectorLikeBouncyCastleDoes() throws Exception {
        byte[] message = HEX.parseHex(BC_MESSAGE);
        EtsiKeyPair recipient = EtsiKeyPair.fromPrivateScalar(EtsiCurve.NIST_P256, HEX.parseHex(BC_RECIPIENT_SCALAR));
        DecryptionIdentity us = new DecryptionIdentity(recipient, HashedId8.fromHex(BC_RECIPIENT_ID),
                HEX.parseHex(BC_CERTIFICATE_HASH));

        DecryptedMessage ours = encryption.decrypt(us, message);

        assertThat(ours.plaintext()).isNotEmpty().isEqualTo(bouncyCastleDecrypt(message, recipient, us));
    }

    @Test
    void decrypt_readsMessageBuiltByBouncyCastle() throws Exception {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        byte[] plaintext = randomBytes(300);
        ETSIEncryptedDataBuilder builder = new ETSIEncryptedDataBuilder();
        builder.addRecipientInfoBuilder(new ETSIRecipientInfoBuilder(
                new JceETSIKeyWrapper.Builder(jcaPublic(ea), ea.certificateHash()).setProvider(BC).build(),
                ea.certificateId().bytes()));
        byte[] encoded = builder.build(new JceETSIDataEncryptor.Builder().setRandom(RANDOM).setProvider(BC).build(), plaintext)
                .getEncoded();

        assertThat(encryption.decrypt(ea.identity(), encoded).plaintext()).isEqualTo(plaintext);
    }

    @Test
    void bouncyCastle_readsOurMessage() throws Exception {
        EncryptionFixtures ea = certificateOn(EtsiCurve.NIST_P256);
        byte[] plaintext = randomBytes(300);

        EncryptedMessage sent = encryption.encryptFor(ea.recipient(), plaintext);

        assertThat(bouncyCastleDecrypt(sent.encoded(), ea.keyPair(), ea.identity())).isEqualTo(plaintext);
    }

    private static byte[] bouncyCastleDecrypt(byte[] message, EtsiKeyPair recipient, DecryptionIdentity us) throws Exception {
        ETSIRecipientInfo info = new ETSIEncryptedData(message).getRecipients()
                .getMatches(new ETSIRecipientID(us.certificateId().bytes())).iterator().next();
        // .provider(...) is required: without it BouncyCastle 1.86 throws a NullPointerException
        return info.getContent(JcaETSIDataDecryptor.builder(jcaPrivate(recipient), us.certificateHash()).provider(BC).build());
    }

    private static PrivateKey jcaPrivate(EtsiKeyPair keyPair) throws Exception {
        ECNamedCurveParameterSpec spec = ECNamedCurveTable.getParameterSpec(keyPair.curve().curveName());
        return KeyFactory.getInstance("EC", BC).generatePrivate(new ECPrivateKeySpec(new BigInteger(1, keyPair.privateScalar()), spec));
    }

    private static ECPublicKey jcaPublic(EncryptionFixtures certificate) throws Exception {
        ECNamedCurveParameterSpec spec = ECNamedCurveTable.getParameterSpec(certificate.keyPair().curve().curveName());
        return (ECPublicKey) KeyFactory.getInstance("EC", BC).generatePublic(
                new ECPublicKeySpec(spec.getCurve().decodePoint(certificate.keyPair().publicKey().compressed()), spec));
    }
}
