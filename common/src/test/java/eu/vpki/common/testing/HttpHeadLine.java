package eu.vpki.common.testing;

import java.io.ByteArrayOutputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;

/** Reading the head of an HTTP/1.1 message off a plain socket, for tests that speak HTTP byte by byte. */
public final class HttpHeadLine {
    private HttpHeadLine() {
    }

    /**
     * The next line of a message head, without its CR LF (an empty string ends the head).
     *
     * @throws EOFException when the peer closed the connection first
     */
    public static String read(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new EOFException("connection closed after '" + line.toString(StandardCharsets.US_ASCII) + "'");
            }
            if (c != '\r') {
                line.write(c);
            }
        }
        return line.toString(StandardCharsets.US_ASCII);
    }
}
