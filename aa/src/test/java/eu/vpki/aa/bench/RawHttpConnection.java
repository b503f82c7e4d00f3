package eu.vpki.aa.bench;

import javax.net.ssl.SSLParameters;
import javax.net.ssl.SSLSocket;
import javax.net.ssl.SSLSocketFactory;
import java.io.BufferedInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * One persistent HTTP/1.1 connection for the benchmark's load generator: writes a POST, reads one
 * response with a Content-Length. Far cheaper per request than a general client, so that the load
 * generator takes as little as possible of the two cores it shares with the services under test.
 * With an {@link SSLSocketFactory} it speaks TLS on the same connection (one handshake per connection,
 * kept alive like the plain one).
 */
final class RawHttpConnection implements AutoCloseable {
    /** Status, content type and body of one answer. */
    record Response(int status, String contentType, byte[] body) {
    }

    private final String host;
    private final int port;
    private final String path;
    /** Null: plain HTTP. */
    private final SSLSocketFactory tls;
    private Socket socket;
    private OutputStream out;
    private InputStream in;

    RawHttpConnection(String host, int port, String path) {
        this(host, port, path, null);
    }

    RawHttpConnection(String host, int port, String path, SSLSocketFactory tls) {
        this.host = host;
        this.port = port;
        this.path = path;
        this.tls = tls;
    }

    Response post(String contentType, byte[] body) throws IOException {
        if (socket == null) {
            socket = new Socket();
            socket.setTcpNoDelay(true);
            socket.connect(new InetSocketAddress(host, port), 2_000);
            socket.setSoTimeout(30_000);
            if (tls != null) {
                SSLSocket ssl = (SSLSocket) tls.createSocket(socket, host, port, true);
                SSLParameters parameters = ssl.getSSLParameters();
                parameters.setEndpointIdentificationAlgorithm("HTTPS");
                ssl.setSSLParameters(parameters);
                ssl.startHandshake();
                socket = ssl;
            }
            out = socket.getOutputStream();
            in = new BufferedInputStream(socket.getInputStream(), 8192);
        }
        byte[] head = ("POST " + path + " HTTP/1.1\r\nHost: " + host + ":" + port + "\r\nContent-Type: " + contentType
                + "\r\nContent-Length: " + body.length + "\r\n\r\n").getBytes(StandardCharsets.US_ASCII);
        byte[] request = new byte[head.length + body.length];
        System.arraycopy(head, 0, request, 0, head.length);
        System.arraycopy(body, 0, request, head.length, body.length);
        out.write(request);
        out.flush();
        String status = line();
        int code = Integer.parseInt(status.split(" ", 3)[1]);
        int length = -1;
        String type = "";
        boolean close = false;
        for (String h = line(); !h.isEmpty(); h = line()) {
            int colon = h.indexOf(':');
            String name = h.substring(0, colon).trim().toLowerCase(Locale.ROOT);
            String value = h.substring(colon + 1).trim();
            switch (name) {
                case "content-length" -> length = Integer.parseInt(value);
                case "content-type" -> type = value;
                case "connection" -> close = value.equalsIgnoreCase("close");
                case "transfer-encoding" -> throw new IOException("chunked answers are not supported by the benchmark client");
                default -> {
                }
            }
        }
        byte[] answer = length < 0 ? new byte[0] : in.readNBytes(length);
        if (close) {
            close();
        }
        return new Response(code, type, answer);
    }

    private String line() throws IOException {
        ByteArrayOutputStream b = new ByteArrayOutputStream(64);
        for (int c = in.read(); c != '\n'; c = in.read()) {
            if (c < 0) {
                throw new IOException("connection closed mid-response");
            }
            if (c != '\r') {
                b.write(c);
            }
        }
        return b.toString(StandardCharsets.US_ASCII);
    }

    @Override
    public void close() throws IOException {
        if (socket != null) {
            socket.close();
            socket = null;
        }
    }
}
