package dev.cairn.server;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.Socket;
import java.net.SocketTimeoutException;
import java.nio.charset.StandardCharsets;
import java.util.Locale;

/**
 * HTTP/1.1 over a plain {@link Socket}, byte for byte as the test writes it: lying or negative
 * {@code Content-Length}, bad header bytes, bodies that are not UTF-8, half-closed connections.
 * Every request asks {@code Connection: close} unless it writes its own head.
 */
final class RawHttp {

    /** An answer: status (0 when the server closed without one), content type and body. */
    record Answer(int status, String contentType, String body, String head) {}

    private final int port;

    RawHttp(int port) {
        this.port = port;
    }

    /** A request with a bearer token, an optional content type and an optional body. */
    Answer request(String method, String target, String token, String contentType, byte[] body) {
        StringBuilder head = new StringBuilder();
        head.append(method).append(' ').append(target).append(" HTTP/1.1\r\n");
        head.append("Host: localhost\r\nConnection: close\r\n");
        if (token != null) {
            head.append("Authorization: Bearer ").append(token).append("\r\n");
        }
        if (contentType != null) {
            head.append("Content-Type: ").append(contentType).append("\r\n");
        }
        if (body != null) {
            head.append("Content-Length: ").append(body.length).append("\r\n");
        }
        head.append("\r\n");
        byte[] start = head.toString().getBytes(StandardCharsets.ISO_8859_1);
        return exchange(concat(start, body == null ? new byte[0] : body), true);
    }

    /** Writes {@code bytes} as they are, optionally half-closes, and reads the answer. */
    Answer exchange(byte[] bytes, boolean halfClose) {
        try (Socket socket = new Socket("127.0.0.1", port)) {
            socket.setSoTimeout(20_000);
            OutputStream out = socket.getOutputStream();
            out.write(bytes);
            out.flush();
            if (halfClose) {
                socket.shutdownOutput();
            }
            return parse(readAll(socket.getInputStream()));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static byte[] readAll(InputStream in) throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        byte[] buffer = new byte[8192];
        try {
            int n;
            while ((n = in.read(buffer)) >= 0) {
                out.write(buffer, 0, n);
            }
        } catch (SocketTimeoutException | java.net.SocketException e) {
            // what arrived before the server stalled or reset is the answer
        }
        return out.toByteArray();
    }

    static Answer parse(byte[] raw) {
        String text = new String(raw, StandardCharsets.ISO_8859_1);
        int end = text.indexOf("\r\n\r\n");
        if (!text.startsWith("HTTP/1.1 ") || end < 0) {
            return new Answer(0, "", text, "");
        }
        String head = text.substring(0, end);
        int status = Integer.parseInt(head.substring(9, 12));
        String contentType = "";
        boolean chunked = false;
        for (String line : head.split("\r\n")) {
            String lower = line.toLowerCase(Locale.ROOT);
            if (lower.startsWith("content-type:")) {
                contentType = line.substring(13).strip();
            } else if (lower.startsWith("transfer-encoding:") && lower.contains("chunked")) {
                chunked = true;
            }
        }
        byte[] body = java.util.Arrays.copyOfRange(raw, end + 4, raw.length);
        if (chunked) {
            body = dechunk(body);
        }
        return new Answer(status, contentType, new String(body, StandardCharsets.UTF_8), head);
    }

    private static byte[] dechunk(byte[] body) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        int i = 0;
        while (i < body.length) {
            int lineEnd = indexOf(body, i);
            if (lineEnd < 0) {
                break;
            }
            String size = new String(body, i, lineEnd - i, StandardCharsets.ISO_8859_1).strip();
            int semicolon = size.indexOf(';');
            int n = Integer.parseInt(semicolon < 0 ? size : size.substring(0, semicolon), 16);
            if (n == 0) {
                break;
            }
            out.write(body, lineEnd + 2, Math.min(n, body.length - lineEnd - 2));
            i = lineEnd + 2 + n + 2;
        }
        return out.toByteArray();
    }

    private static int indexOf(byte[] bytes, int from) {
        for (int i = from; i + 1 < bytes.length; i++) {
            if (bytes[i] == '\r' && bytes[i + 1] == '\n') {
                return i;
            }
        }
        return -1;
    }

    static byte[] concat(byte[] a, byte[] b) {
        byte[] out = new byte[a.length + b.length];
        System.arraycopy(a, 0, out, 0, a.length);
        System.arraycopy(b, 0, out, a.length, b.length);
        return out;
    }

    /**
     * Reads one response from a kept-alive connection: its head, returned, and its body of {@code
     * Content-Length} bytes, skipped.
     */
    static String readHead(InputStream in) throws IOException {
        StringBuilder head = new StringBuilder();
        while (!head.toString().endsWith("\r\n\r\n")) {
            int b = in.read();
            if (b == -1) {
                break;
            }
            head.append((char) b);
        }
        int length = 0;
        for (String line : head.toString().split("\r\n")) {
            if (line.toLowerCase(java.util.Locale.ROOT).startsWith("content-length:")) {
                length = Integer.parseInt(line.substring(15).trim());
            }
        }
        in.readNBytes(length);
        return head.toString();
    }
}
