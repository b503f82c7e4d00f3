package eu.vpki.common.error;

/**
 * Numeric values of the TS 102 941 v2.2.1 response-code enumerations, named as in the ASN.1
 * (TypesEnrolment.asn, TypesAuthorization.asn, TypesAuthorizationValidation.asn).
 */
public final class EtsiCodes {
    private EtsiCodes() {
    }

    private static final String[] ENROLMENT_NAMES = {"ok", "cantparse", "badcontenttype", "imnottherecipient",
            "unknownencryptionalgorithm", "decryptionfailed", "unknownits", "invalidsignature", "invalidencryptionkey",
            "baditsstatus", "incompleterequest", "deniedpermissions", "invalidkeys", "deniedrequest"};
    private static final String[] AUTHORIZATION_NAMES = {"ok", "its-aa-cantparse", "its-aa-badcontenttype",
            "its-aa-imnottherecipient", "its-aa-unknownencryptionalgorithm", "its-aa-decryptionfailed", "its-aa-keysdontmatch",
            "its-aa-incompleterequest", "its-aa-invalidencryptionkey", "its-aa-outofsyncrequest", "its-aa-unknownea",
            "its-aa-invalidea", "its-aa-deniedpermissions", "aa-ea-cantreachea", "ea-aa-cantparse", "ea-aa-badcontenttype",
            "ea-aa-imnottherecipient", "ea-aa-unknownencryptionalgorithm", "ea-aa-decryptionfailed", "invalidaa",
            "invalidaasignature", "wrongea", "unknownits", "invalidsignature", "invalidencryptionkey", "deniedpermissions",
            "deniedtoomanycerts"};
    private static final String[] VALIDATION_NAMES = {"ok", "cantparse", "badcontenttype", "imnottherecipient",
            "unknownencryptionalgorithm", "decryptionfailed", "invalidaa", "invalidaasignature", "wrongea", "unknownits",
            "invalidsignature", "invalidencryptionkey", "deniedpermissions", "deniedtoomanycerts", "deniedrequest"};

    /** ASN.1 name of an EnrolmentResponseCode value, e.g. {@code unknownits}. */
    public static String enrolmentName(int code) {
        return name(ENROLMENT_NAMES, code);
    }

    /** ASN.1 name of an AuthorizationResponseCode value, e.g. {@code its-aa-keysdontmatch}. */
    public static String authorizationName(int code) {
        return name(AUTHORIZATION_NAMES, code);
    }

    /** ASN.1 name of an AuthorizationValidationResponseCode value. */
    public static String validationName(int code) {
        return name(VALIDATION_NAMES, code);
    }

    private static String name(String[] names, int code) {
        return code >= 0 && code < names.length ? names[code] : "code-" + code;
    }

    /** EnrolmentResponseCode. */
    public static final class Enrolment {
        private Enrolment() {
        }

        public static final int OK = 0;
        public static final int CANTPARSE = 1;
        public static final int BADCONTENTTYPE = 2;
        public static final int IMNOTTHERECIPIENT = 3;
        public static final int UNKNOWNENCRYPTIONALGORITHM = 4;
        public static final int DECRYPTIONFAILED = 5;
        public static final int UNKNOWNITS = 6;
        public static final int INVALIDSIGNATURE = 7;
        public static final int INVALIDENCRYPTIONKEY = 8;
        public static final int BADITSSTATUS = 9;
        public static final int INCOMPLETEREQUEST = 10;
        public static final int DENIEDPERMISSIONS = 11;
        public static final int INVALIDKEYS = 12;
        public static final int DENIEDREQUEST = 13;
    }

    /** AuthorizationResponseCode. */
    public static final class Authorization {
        private Authorization() {
        }

        public static final int OK = 0;
        public static final int ITS_AA_CANTPARSE = 1;
        public static final int ITS_AA_BADCONTENTTYPE = 2;
        public static final int ITS_AA_IMNOTTHERECIPIENT = 3;
        public static final int ITS_AA_UNKNOWNENCRYPTIONALGORITHM = 4;
        public static final int ITS_AA_DECRYPTIONFAILED = 5;
        public static final int ITS_AA_KEYSDONTMATCH = 6;
        public static final int ITS_AA_INCOMPLETEREQUEST = 7;
        public static final int ITS_AA_INVALIDENCRYPTIONKEY = 8;
        public static final int ITS_AA_OUTOFSYNCREQUEST = 9;
        public static final int ITS_AA_UNKNOWNEA = 10;
        public static final int ITS_AA_INVALIDEA = 11;
        public static final int ITS_AA_DENIEDPERMISSIONS = 12;
        public static final int AA_EA_CANTREACHEA = 13;
        public static final int EA_AA_CANTPARSE = 14;
        public static final int EA_AA_BADCONTENTTYPE = 15;
        public static final int EA_AA_IMNOTTHERECIPIENT = 16;
        public static final int EA_AA_UNKNOWNENCRYPTIONALGORITHM = 17;
        public static final int EA_AA_DECRYPTIONFAILED = 18;
        public static final int INVALIDAA = 19;
        public static final int INVALIDAASIGNATURE = 20;
        public static final int WRONGEA = 21;
        public static final int UNKNOWNITS = 22;
        public static final int INVALIDSIGNATURE = 23;
        public static final int INVALIDENCRYPTIONKEY = 24;
        public static final int DENIEDPERMISSIONS = 25;
        public static final int DENIEDTOOMANYCERTS = 26;

        /**
         * The AuthorizationResponseCode an AA answers when the EA refused validation with the given
         * AuthorizationValidationResponseCode (the EA-to-AA part of the enumeration).
         */
        public static int fromValidationCode(int validationCode) {
            return switch (validationCode) {
                case Validation.OK -> OK;
                case Validation.CANTPARSE -> EA_AA_CANTPARSE;
                case Validation.BADCONTENTTYPE -> EA_AA_BADCONTENTTYPE;
                case Validation.IMNOTTHERECIPIENT -> EA_AA_IMNOTTHERECIPIENT;
                case Validation.UNKNOWNENCRYPTIONALGORITHM -> EA_AA_UNKNOWNENCRYPTIONALGORITHM;
                case Validation.DECRYPTIONFAILED -> EA_AA_DECRYPTIONFAILED;
                case Validation.INVALIDAA -> INVALIDAA;
                case Validation.INVALIDAASIGNATURE -> INVALIDAASIGNATURE;
                case Validation.WRONGEA -> WRONGEA;
                case Validation.UNKNOWNITS -> UNKNOWNITS;
                case Validation.INVALIDSIGNATURE -> INVALIDSIGNATURE;
                case Validation.INVALIDENCRYPTIONKEY -> INVALIDENCRYPTIONKEY;
                case Validation.DENIEDTOOMANYCERTS -> DENIEDTOOMANYCERTS;
                default -> DENIEDPERMISSIONS;
            };
        }
    }

    /** AuthorizationValidationResponseCode. */
    public static final class Validation {
        private Validation() {
        }

        public static final int OK = 0;
        public static final int CANTPARSE = 1;
        public static final int BADCONTENTTYPE = 2;
        public static final int IMNOTTHERECIPIENT = 3;
        public static final int UNKNOWNENCRYPTIONALGORITHM = 4;
        public static final int DECRYPTIONFAILED = 5;
        public static final int INVALIDAA = 6;
        public static final int INVALIDAASIGNATURE = 7;
        public static final int WRONGEA = 8;
        public static final int UNKNOWNITS = 9;
        public static final int INVALIDSIGNATURE = 10;
        public static final int INVALIDENCRYPTIONKEY = 11;
        public static final int DENIEDPERMISSIONS = 12;
        public static final int DENIEDTOOMANYCERTS = 13;
        public static final int DENIEDREQUEST = 14;
    }
}
