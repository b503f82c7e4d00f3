package eu.vpki.common.etsi.ts102941;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;

import java.net.URI;
import java.net.URISyntaxException;

/** Checks for the IA5String URLs of trust lists: absolute http(s) with a path, ASCII only. */
final class Urls {
    private Urls() {
    }

    static void require(String url, String field) {
        if (url == null || url.isBlank()) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, field + " is required");
        }
        if (!url.chars().allMatch(c -> c > 0x20 && c < 0x7F)) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, field + " must be printable ASCII (IA5String): " + url);
        }
        try {
            URI u = new URI(url);
            if (!("http".equals(u.getScheme()) || "https".equals(u.getScheme())) || u.getHost() == null
                    || u.getPath() == null || u.getPath().isEmpty()) {
                throw new PkiException(ErrorCode.INVALID_ARGUMENT, field + " must be an absolute http(s) URL with a path: " + url);
            }
        } catch (URISyntaxException e) {
            throw new PkiException(ErrorCode.INVALID_ARGUMENT, field + " is not a URL: " + url, e);
        }
    }
}
