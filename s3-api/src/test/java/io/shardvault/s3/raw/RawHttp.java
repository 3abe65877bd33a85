package io.shardvault.s3.raw;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;

/** A minimal HTTP/1.1 client over a raw socket, for requests no client library would send. */
final class RawHttp implements AutoCloseable {
    private final Socket socket;
    private final InputStream in;
    private final OutputStream out;

    RawHttp(int port) throws IOException {
        socket = new Socket();
        socket.connect(new InetSocketAddress("127.0.0.1", port), 5000);
        socket.setSoTimeout(20_000);
        in = socket.getInputStream();
        out = socket.getOutputStream();
    }

    record Response(int status, Map<String, String> headers, String body) {
        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }

        String xml(String element) {
            int a = body.indexOf("<" + element + ">");
            int b = body.indexOf("</" + element + ">");
            return a < 0 || b < 0 ? null : body.substring(a + element.length() + 2, b);
        }
    }

    void send(String head, byte[] body) throws IOException {
        out.write(head.getBytes(StandardCharsets.ISO_8859_1));
        if (body != null) {
            out.write(body);
        }
        out.flush();
    }

    void shutdownOutput() throws IOException {
        socket.shutdownOutput();
    }

    /** Reads one response; a 1xx interim response is returned like any other. */
    Response read() throws IOException {
        return read(false);
    }

    /** Reads one response to a HEAD (no body) or another method. */
    Response read(boolean head) throws IOException {
        String statusLine = readLine();
        if (statusLine == null) {
            throw new IOException("connection closed before a response");
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new TreeMap<>();
        for (String line; !(line = readLine()).isEmpty(); ) {
            int colon = line.indexOf(':');
            headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
        }
        int length = headers.containsKey("content-length") ? Integer.parseInt(headers.get("content-length")) : 0;
        byte[] body = in.readNBytes(head || status / 100 == 1 || status == 204 || status == 304 ? 0 : length);
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    /** Whether the server closed the connection (EOF within the socket timeout). */
    boolean closedByServer() {
        try {
            return in.read() < 0;
        } catch (IOException e) {
            return true;
        }
    }

    private String readLine() throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        int c;
        while ((c = in.read()) >= 0) {
            if (c == '\n') {
                String s = line.toString(StandardCharsets.ISO_8859_1);
                return s.endsWith("\r") ? s.substring(0, s.length() - 1) : s;
            }
            line.write(c);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }

    static String head(String method, String target, List<String[]> headers) {
        StringBuilder sb = new StringBuilder(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        for (String[] h : headers) {
            sb.append(h[0]).append(": ").append(h[1]).append("\r\n");
        }
        return sb.append("\r\n").toString();
    }

    static List<String[]> headers(String... nameValues) {
        List<String[]> out = new ArrayList<>();
        for (int i = 0; i < nameValues.length; i += 2) {
            out.add(new String[] {nameValues[i], nameValues[i + 1]});
        }
        return out;
    }

    @Override
    public void close() throws IOException {
        socket.close();
    }
}
