package eu.vpki.common.testing;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A POST of a huge body over a plain socket (a TLS socket trusting {@link TestTls} for an {@code https} URL), streamed from one reused 64 KiB buffer (nothing the
 * size of the body is ever allocated): chunked, or with a {@code Content-Length} header (true or a
 * lie). One thread writes the body until it is all sent, the server closed the connection or an
 * answer arrived; the caller's thread reads the answer meanwhile, so an early refusal is seen
 * without waiting for the upload. No timing is involved: the read blocks until the server answers
 * or closes.
 *
 * @param status  HTTP status of the answer
 * @param headers answer headers, names in lower case
 * @param body    answer body
 * @param sent    body bytes the client managed to hand to its socket before it stopped
 */
public record StreamedPost(int status, Map<String, String> headers, String body, long sent) {
    private static final int CHUNK = 64 * 1024;

    /**
     * POSTs {@code total} bytes of {@code 'A'} to {@code url}.
     *
     * @param contentLength {@code null} for chunked transfer coding, else the Content-Length header to send
     * @param extraHeaders  further request headers, e.g. {@code Authorization}
     */
    public static StreamedPost send(URI url, String contentType, long total, Long contentLength, Map<String, String> extraHeaders)
            throws IOException, InterruptedException {
        return send(url, contentType, "", total, contentLength, extraHeaders);
    }

    /**
     * POSTs {@code prefix} then {@code 'A'} up to {@code total} bytes to {@code url}; e.g. the prefix
     * {@code ["} makes a JSON body that stays valid (one endless string) for as long as it is read.
     */
    public static StreamedPost send(URI url, String contentType, String prefix, long total, Long contentLength,
                                    Map<String, String> extraHeaders)
            throws IOException, InterruptedException {
        try (Socket socket = "https".equals(url.getScheme())
                ? eu.vpki.common.etsi.crypto.ApiTlsCa.clientContext(TestTls.loopback().caCertificate()).getSocketFactory()
                        .createSocket(url.getHost(), url.getPort())
                : new Socket(url.getHost(), url.getPort())) {
            StringBuilder head = new StringBuilder("POST " + url.getRawPath() + " HTTP/1.1\r\nHost: " + url.getHost() + ":" + url.getPort()
                    + "\r\nContent-Type: " + contentType + "\r\n");
            head.append(contentLength == null ? "Transfer-Encoding: chunked\r\n" : "Content-Length: " + contentLength + "\r\n");
            extraHeaders.forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            out.write(head.toString().getBytes(StandardCharsets.US_ASCII));
            out.flush();

            AtomicBoolean answered = new AtomicBoolean();
            AtomicLong sent = new AtomicLong();
            Thread writer = new Thread(() -> {
                byte[] data = new byte[CHUNK];
                Arrays.fill(data, (byte) 'A');
                byte[] first = prefix.getBytes(StandardCharsets.UTF_8);
                System.arraycopy(first, 0, data, 0, first.length);
                byte[] chunkHead = (Integer.toHexString(CHUNK) + "\r\n").getBytes(StandardCharsets.US_ASCII);
                byte[] crlf = "\r\n".getBytes(StandardCharsets.US_ASCII);
                try {
                    while (sent.get() < total && !answered.get()) {
                        int n = (int) Math.min(CHUNK, total - sent.get());
                        if (contentLength == null) {
                            out.write(n == CHUNK ? chunkHead : (Integer.toHexString(n) + "\r\n").getBytes(StandardCharsets.US_ASCII));
                            out.write(data, 0, n);
                            out.write(crlf);
                        } else {
                            out.write(data, 0, n);
                        }
                        sent.addAndGet(n);
                        Arrays.fill(data, 0, first.length, (byte) 'A');
                    }
                    if (contentLength == null && !answered.get()) {
                        out.write("0\r\n\r\n".getBytes(StandardCharsets.US_ASCII));
                    }
                    out.flush();
                } catch (IOException closed) {
                    // the server closed the connection (or we did, having read the answer): what was sent so far is the measure
                }
            }, "streamed-post");
            writer.setDaemon(true);
            writer.start();
            StreamedPost answer;
            try {
                answer = read(socket.getInputStream(), answered, sent);
            } finally {
                answered.set(true);
                socket.close();
            }
            writer.join();
            return new StreamedPost(answer.status, answer.headers, answer.body, sent.get());
        }
    }

    private static StreamedPost read(InputStream in, AtomicBoolean answered, AtomicLong sent) throws IOException {
        String statusLine = HttpHeadLine.read(in);
        answered.set(true);
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String l = HttpHeadLine.read(in); !l.isEmpty(); l = HttpHeadLine.read(in)) {
            int colon = l.indexOf(':');
            headers.put(l.substring(0, colon).strip().toLowerCase(Locale.ROOT), l.substring(colon + 1).strip());
        }
        byte[] body;
        if (headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        } else if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream b = new ByteArrayOutputStream();
            for (int n = Integer.parseInt(HttpHeadLine.read(in).strip(), 16); n > 0; n = Integer.parseInt(HttpHeadLine.read(in).strip(),
                    16)) {
                b.write(in.readNBytes(n));
                HttpHeadLine.read(in);
            }
            body = b.toByteArray();
        } else {
            body = in.readAllBytes();
        }
        return new StreamedPost(status, headers, new String(body, StandardCharsets.UTF_8), sent.get());
    }
}
