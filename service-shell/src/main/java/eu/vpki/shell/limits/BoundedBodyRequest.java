package eu.vpki.shell.limits;

import eu.vpki.common.error.ErrorCode;
import eu.vpki.common.error.PkiException;
import jakarta.servlet.ReadListener;
import jakarta.servlet.ServletInputStream;
import jakarta.servlet.http.HttpServletRequest;
import jakarta.servlet.http.HttpServletRequestWrapper;
import jakarta.servlet.http.HttpServletResponse;
import org.springframework.http.HttpHeaders;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;

/**
 * A request whose body stream counts the bytes read and throws {@link PkiException}
 * ({@code OVERSIZE_INPUT}) on the first byte past the limit, whatever the framing (chunked, or a
 * {@code Content-Length} that lies): whoever reads it never holds more than the limit. When that
 * happens the response is marked {@code Connection: close}, so the container does not drain the
 * rest of the body either.
 */
final class BoundedBodyRequest extends HttpServletRequestWrapper {
    private final long maxBytes;
    private final String limitName;
    private final HttpServletResponse response;
    private ServletInputStream stream;
    private BufferedReader reader;
    private volatile boolean exceeded;

    BoundedBodyRequest(HttpServletRequest request, HttpServletResponse response, long maxBytes, String limitName) {
        super(request);
        this.response = response;
        this.maxBytes = maxBytes;
        this.limitName = limitName;
    }

    /** Whether a reader went past the limit. */
    boolean exceeded() {
        return exceeded;
    }

    PkiException oversize() {
        return new PkiException(ErrorCode.OVERSIZE_INPUT, "request body over " + maxBytes + " bytes (" + limitName + ")");
    }

    @Override
    public ServletInputStream getInputStream() throws IOException {
        if (reader != null) {
            throw new IllegalStateException("getReader() was already called");
        }
        if (stream == null) {
            stream = new Counting(super.getInputStream());
        }
        return stream;
    }

    @Override
    public BufferedReader getReader() throws IOException {
        if (reader == null) {
            String encoding = getCharacterEncoding();
            Charset charset = encoding == null ? StandardCharsets.ISO_8859_1 : Charset.forName(encoding);
            reader = new BufferedReader(new InputStreamReader(getInputStream(), charset));
            stream = null;
        }
        return reader;
    }

    private final class Counting extends ServletInputStream {
        private final ServletInputStream in;
        private long count;

        Counting(ServletInputStream in) {
            this.in = in;
        }

        @Override
        public int read() throws IOException {
            if (exceeded) {
                throw oversize();
            }
            int b = in.read();
            if (b >= 0) {
                add(1);
            }
            return b;
        }

        @Override
        public int read(byte[] b, int off, int len) throws IOException {
            if (exceeded) {
                throw oversize();
            }
            int n = in.read(b, off, (int) Math.min(len, maxBytes - count + 1));
            if (n > 0) {
                add(n);
            }
            return n;
        }

        private void add(long n) {
            count += n;
            if (count > maxBytes) {
                exceeded = true;
                if (!response.isCommitted()) {
                    response.setHeader(HttpHeaders.CONNECTION, "close");
                }
                throw oversize();
            }
        }

        @Override
        public boolean isFinished() {
            return in.isFinished();
        }

        @Override
        public boolean isReady() {
            return in.isReady();
        }

        @Override
        public void setReadListener(ReadListener listener) {
            in.setReadListener(listener);
        }
    }
}
