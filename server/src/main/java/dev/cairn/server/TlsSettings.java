package dev.cairn.server;

import java.nio.file.Path;
import java.util.Objects;

/**
 * Where the server's TLS key and certificate come from, if it listens with TLS at all: a PKCS12
 * keystore with its password, or a PEM certificate (chain) and private key pair. Read by {@link
 * ServerTls} before anything else starts, so a bad file or password is a one-line start-up error.
 */
public sealed interface TlsSettings {

    /** Plain HTTP (the default: put a TLS-terminating proxy in front, or configure one below). */
    TlsSettings NONE = new Plain();

    /** Plain HTTP. */
    record Plain() implements TlsSettings {}

    /**
     * A PKCS12 keystore holding one private key entry and its certificate chain.
     *
     * @param keystore the {@code .p12} file
     * @param password the keystore's password (also the key's, as {@code keytool} makes them)
     */
    record Keystore(Path keystore, String password) implements TlsSettings {
        public Keystore {
            Objects.requireNonNull(keystore, "keystore");
            Objects.requireNonNull(password, "password");
        }

        @Override
        public String toString() {
            return "Keystore[keystore=" + keystore + ", password=(hidden)]";
        }
    }

    /**
     * A PEM certificate (the server's first, then any intermediates) and its unencrypted private
     * key (PKCS#8 {@code BEGIN PRIVATE KEY} or PKCS#1 {@code BEGIN RSA PRIVATE KEY}).
     */
    record Pem(Path certificate, Path key) implements TlsSettings {
        public Pem {
            Objects.requireNonNull(certificate, "certificate");
            Objects.requireNonNull(key, "key");
        }
    }

    default boolean enabled() {
        return !(this instanceof Plain);
    }
}
