package dev.cairn.server.cli;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.server.ServerSettings;
import dev.cairn.server.api.ArkRoutes;
import dev.cairn.server.api.SystemRoutes;
import dev.cairn.server.auth.ApiToken;
import dev.cairn.server.auth.Role;
import io.helidon.config.Config;
import io.helidon.config.ConfigSources;
import io.helidon.config.EnvironmentVariables;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.yaml.snakeyaml.Yaml;
import picocli.CommandLine.Command;

/**
 * The files under {@code deploy/} against the server's own configuration: the container image
 * ({@code deploy/Containerfile}), the Kubernetes manifests ({@code deploy/k8s/embedded} and its
 * {@code postgres} overlay) and the ARK Memory ({@code deploy/ark-memory.yaml}). Their variables go
 * through the server's real configuration path (Helidon's environment mapping over {@code
 * application.yaml}, then {@link Settings#resolve}), so a port, path or variable name that the
 * server would read otherwise, or not at all, fails here rather than in a cluster. {@code
 * scripts/test-image.sh} runs the image itself.
 */
class DeployConfigurationTest {

    /** Surefire runs in the module's directory. */
    private static final Path DEPLOY = Path.of("..", "deploy").toAbsolutePath().normalize();

    private static final Yaml YAML = new Yaml();

    @Test
    void theImageServesItsExposedPortFromItsVolumeAsAUserOtherThanRoot() {
        Image image = Image.read();
        ServerSettings settings = settings(image.env());

        assertThat(settings.port()).isEqualTo(image.exposedPort());
        assertThat(settings.host()).as("reachable from outside the container").isEqualTo("0.0.0.0");
        assertThat(settings.dataDir()).startsWithRaw(Path.of(image.volume()));
        assertThat(settings.dataDir())
                .as("a directory in the volume: its root may hold lost+found")
                .isNotEqualTo(Path.of(image.volume()));
        assertThat(settings.dbUrl()).as("the embedded store by default").isEmpty();
        assertThat(image.uid()).isPositive();
        assertThat(image.gid()).isPositive();
        assertThat(image.command()).containsExactly(commandName(ServeCommand.class));
        assertThat(image.entrypoint())
                .as("the launcher's run script on the jar, where the Containerfile copies them")
                .containsExactly(
                        image.copies().get("scripts/run-jar.sh"),
                        image.copies().get("server/target/cairn.jar"));
        assertThat(unknownVariables(image.env().keySet())).isEmpty();
    }

    @Test
    void theDeploymentRunsTheImageAsItsUserWithProbesOnHealthAndTheVolumeOnAClaim() {
        Image image = Image.read();
        Map<String, Map<String, Object>> manifests = kustomization(DEPLOY.resolve("k8s/embedded"));
        Map<String, Object> deployment = manifests.get("Deployment");
        Map<String, Object> pod = map(map(map(deployment, "spec"), "template"), "spec");
        Map<String, Object> container = single(list(pod, "containers"));
        Map<String, Object> port = single(list(container, "ports"));
        ServerSettings settings = settings(image.env());

        assertThat(port).containsEntry("name", "http");
        assertThat(port.get("containerPort")).isEqualTo(settings.port());
        assertThat(container.get("args")).isEqualTo(image.command());
        for (String probe : List.of("startupProbe", "readinessProbe", "livenessProbe")) {
            Map<String, Object> get = map(map(container, probe), "httpGet");
            assertThat(get).as(probe).containsEntry("path", SystemRoutes.HEALTH);
            assertThat(get).as(probe).containsEntry("port", "http");
        }
        Map<String, Object> mount = single(list(container, "volumeMounts"));
        assertThat(mount).containsEntry("mountPath", image.volume());
        Map<String, Object> volume = single(list(pod, "volumes"));
        assertThat(volume).containsEntry("name", mount.get("name"));
        assertThat(map(volume, "persistentVolumeClaim"))
                .containsEntry(
                        "claimName",
                        map(manifests.get("PersistentVolumeClaim"), "metadata").get("name"));
        Map<String, Object> security = map(pod, "securityContext");
        assertThat(security).containsEntry("runAsNonRoot", true);
        assertThat(((Number) security.get("runAsUser")).longValue()).isEqualTo(image.uid());
        assertThat(((Number) security.get("fsGroup")).longValue()).isEqualTo(image.gid());
        assertThat(map(deployment, "spec"))
                .as("the embedded store is one server's")
                .containsEntry("replicas", 1);
        assertThat(map(map(deployment, "spec"), "strategy")).containsEntry("type", "Recreate");

        Map<String, Object> service = map(manifests.get("Service"), "spec");
        Map<String, Object> servicePort = single(list(service, "ports"));
        assertThat(servicePort).containsEntry("name", "http").containsEntry("targetPort", "http");
        assertThat(servicePort.get("port")).isEqualTo(settings.port());
        assertThat(map(service, "selector"))
                .isEqualTo(
                        map(map(map(map(deployment, "spec"), "template"), "metadata"), "labels"));

        // the Secret reaches the container as variables by its keys
        Map<String, Object> secret = manifests.get("Secret");
        assertThat(map(single(list(container, "envFrom")), "secretRef"))
                .containsEntry("name", map(secret, "metadata").get("name"));
        Map<String, String> secrets = strings(map(secret, "stringData"));
        assertThat(unknownVariables(secrets.keySet())).isEmpty();
        assertThat(secrets).containsKey(Settings.ADMIN_TOKEN);
        // its placeholder is refused at start, so a forgotten replacement serves no known token
        Map<String, String> withPlaceholder = new HashMap<>(image.env());
        withPlaceholder.putAll(secrets);
        assertThatThrownBy(() -> settings(withPlaceholder))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith(Settings.ADMIN_TOKEN + " has ");
    }

    @Test
    void thePostgresOverlayGivesTheServersAPostgresUrlAndEachItsOwnDataDir() {
        Image image = Image.read();
        Path overlay = DEPLOY.resolve("k8s/postgres");
        Map<String, Object> kustomization = load(overlay.resolve("kustomization.yaml")).getFirst();
        assertThat(texts(kustomization.get("resources"))).containsExactly("../embedded");
        Map<String, Map<String, Object>> patches = new HashMap<>();
        String deletes = "";
        for (Object entry : (List<?>) kustomization.get("patches")) {
            Map<String, Object> patch = map(entry);
            if (patch.containsKey("path")) {
                Map<String, Object> manifest =
                        load(overlay.resolve((String) patch.get("path"))).getFirst();
                patches.put((String) manifest.get("kind"), manifest);
            } else {
                deletes += patch.get("patch");
            }
        }

        Map<String, String> secrets = strings(map(patches.get("Secret"), "stringData"));
        assertThat(unknownVariables(secrets.keySet())).isEmpty();
        Map<String, String> env = new HashMap<>(image.env());
        env.putAll(secrets);
        assertThat(settings(env).dbUrl()).startsWith("jdbc:postgresql://");
        Map<String, Object> spec = map(patches.get("Deployment"), "spec");
        assertThat((Integer) spec.get("replicas")).isGreaterThan(1);
        Map<String, Object> volume = single(list(map(map(spec, "template"), "spec"), "volumes"));
        assertThat(volume).containsEntry("persistentVolumeClaim", null).containsKey("emptyDir");
        assertThat(deletes)
                .contains("$patch: delete", "kind: PersistentVolumeClaim", "name: cairn-data");
    }

    @Test
    void theArkMemoryAddressesTheArkMountThroughTheServiceWithAWriteToken() throws IOException {
        Map<String, Map<String, Object>> manifests = kustomization(DEPLOY.resolve("k8s/embedded"));
        Path file = DEPLOY.resolve("ark-memory.yaml");
        Map<String, Object> memory = load(file).getFirst();
        assertThat(memory)
                .containsEntry("apiVersion", "ark.mckinsey.com/v1alpha1")
                .containsEntry("kind", "Memory");
        Map<String, Object> spec = map(memory, "spec");
        Map<String, Object> service = map(map(map(spec, "address"), "valueFrom"), "serviceRef");
        assertThat(service.get("name"))
                .isEqualTo(map(manifests.get("Service"), "metadata").get("name"));
        assertThat(service.get("port"))
                .isEqualTo(
                        single(list(map(manifests.get("Service"), "spec"), "ports")).get("name"));
        String path = (String) service.get("path");
        assertThat(path).matches(Pattern.quote(ArkRoutes.MOUNT) + "/[a-z0-9][a-z0-9-]*");
        String namespace = path.substring(ArkRoutes.MOUNT.length() + 1);
        Map<String, Object> header = single(list(spec, "headers"));
        assertThat(header).containsEntry("name", "Authorization");
        assertThat(map(map(map(header, "value"), "valueFrom"), "secretKeyRef"))
                .containsEntry("name", "cairn-ark")
                .containsEntry("key", "authorization");

        // the token its comment makes: the variables, as `kubectl set env` sets them
        Map<String, String> env = new HashMap<>(Image.read().env());
        Matcher assignment =
                Pattern.compile("(CAIRN_AUTH_TOKENS_\\w+)=(\"[^\"]*\"|\\S+)")
                        .matcher(Files.readString(file, StandardCharsets.UTF_8));
        while (assignment.find()) {
            env.put(assignment.group(1), assignment.group(2));
        }
        assertThat(env).containsKey("CAIRN_AUTH_TOKENS_0_SHA256");
        String secret = "an ARK secret of the test";
        env.put("CAIRN_AUTH_TOKENS_0_SHA256", ApiToken.hash(secret));
        ApiToken token = only(settings(env).tokens());
        assertThat(token.name()).isEqualTo("ark");
        assertThat(token.roles()).containsExactly(Role.WRITE);
        assertThat(token.allows(Role.WRITE, namespace)).isTrue();
        assertThat(token.allows(Role.READ, "another")).isFalse();
        assertThat(token.allowsEverywhere(Role.ADMIN)).isFalse();
    }

    /**
     * Settings as the server resolves them with {@code environment} for the process's: Helidon's
     * mapping of {@code CAIRN_<KEY>} over {@code application.yaml}, then the variables {@link
     * Settings} reads itself.
     */
    private static ServerSettings settings(Map<String, String> environment) {
        Config config =
                Config.builder()
                        .disableEnvironmentVariablesSource()
                        .disableSystemPropertiesSource()
                        .sources(
                                ConfigSources.create(EnvironmentVariables.expand(environment)),
                                ConfigSources.classpath("application.yaml"))
                        .build();
        return Settings.resolve(config.get("cairn"), null, null, null, environment);
    }

    /**
     * The variables of {@code names} the server does not read: Cairn's own ({@code CAIRN_...}) that
     * are neither one {@link Settings} reads nor Helidon's name of a key in {@code
     * application.yaml}. Other variables (JAVA_HOME, DJL_CACHE_DIR) are not the server's to judge.
     */
    private static Set<String> unknownVariables(Set<String> names) {
        Set<String> keys = new TreeSet<>();
        try (InputStream in = Settings.class.getResourceAsStream("/application.yaml")) {
            flatten("", YAML.load(in), keys);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        Set<String> unknown = new TreeSet<>();
        for (String name : names) {
            String key = name.toLowerCase(Locale.ROOT).replace("_dash_", "-").replace('_', '.');
            if (name.startsWith("CAIRN_")
                    && !Settings.VARIABLES.contains(name)
                    && !keys.contains(key)) {
                unknown.add(name);
            }
        }
        return unknown;
    }

    private static void flatten(String prefix, Object node, Set<String> keys) {
        if (node instanceof Map<?, ?> children) {
            children.forEach(
                    (name, child) -> {
                        String key = prefix.isEmpty() ? name.toString() : prefix + "." + name;
                        keys.add(key);
                        flatten(key, child, keys);
                    });
        }
    }

    private static String commandName(Class<?> command) {
        return command.getAnnotation(Command.class).name();
    }

    /** The manifests a kustomization lists, by kind (one of each here). */
    private static Map<String, Map<String, Object>> kustomization(Path dir) {
        Map<String, Map<String, Object>> byKind = new LinkedHashMap<>();
        Map<String, Object> kustomization = load(dir.resolve("kustomization.yaml")).getFirst();
        for (String resource : texts(kustomization.get("resources"))) {
            for (Map<String, Object> manifest : load(dir.resolve(resource))) {
                assertThat(byKind.put((String) manifest.get("kind"), manifest))
                        .as("one %s in %s", manifest.get("kind"), dir)
                        .isNull();
            }
        }
        return byKind;
    }

    private static List<Map<String, Object>> load(Path file) {
        try {
            List<Map<String, Object>> documents = new ArrayList<>();
            for (Object document : YAML.loadAll(Files.readString(file, StandardCharsets.UTF_8))) {
                documents.add(map(document));
            }
            return documents;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(Object node) {
        assertThat(node).isInstanceOf(Map.class);
        return (Map<String, Object>) node;
    }

    private static Map<String, Object> map(Map<String, Object> node, String key) {
        assertThat(node).containsKey(key);
        return map(node.get(key));
    }

    private static List<?> list(Map<String, Object> node, String key) {
        assertThat(node.get(key)).as(key).isInstanceOf(List.class);
        return (List<?>) node.get(key);
    }

    private static Map<String, Object> single(List<?> nodes) {
        assertThat(nodes).hasSize(1);
        return map(nodes.getFirst());
    }

    private static <T> T only(List<T> values) {
        assertThat(values).hasSize(1);
        return values.getFirst();
    }

    private static Map<String, String> strings(Map<String, Object> node) {
        Map<String, String> strings = new LinkedHashMap<>();
        node.forEach((key, value) -> strings.put(key, String.valueOf(value)));
        return strings;
    }

    private static List<String> texts(Object node) {
        assertThat(node).isInstanceOf(List.class);
        return ((List<?>) node).stream().map(String::valueOf).toList();
    }

    /**
     * The last stage of {@code deploy/Containerfile}, as podman and docker read it: continuation
     * lines joined, comments left out.
     *
     * @param env its {@code ENV} variables
     * @param exposedPort its {@code EXPOSE}
     * @param volume its {@code VOLUME}
     * @param uid the user of its {@code USER uid:gid}
     * @param gid the group of its {@code USER uid:gid}
     * @param entrypoint its {@code ENTRYPOINT}
     * @param command its {@code CMD}
     * @param copies where each {@code COPY} from the build context puts its source
     */
    record Image(
            Map<String, String> env,
            int exposedPort,
            String volume,
            long uid,
            long gid,
            List<String> entrypoint,
            List<String> command,
            Map<String, String> copies) {

        static Image read() {
            List<String> instructions = new ArrayList<>();
            StringBuilder current = new StringBuilder();
            try {
                for (String line : Files.readAllLines(DEPLOY.resolve("Containerfile"))) {
                    String trimmed = line.strip();
                    if (trimmed.startsWith("#") || trimmed.isEmpty() && current.isEmpty()) {
                        continue;
                    }
                    if (trimmed.endsWith("\\")) {
                        current.append(trimmed, 0, trimmed.length() - 1).append(' ');
                        continue;
                    }
                    instructions.add(current.append(trimmed).toString());
                    current.setLength(0);
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            int lastFrom = 0;
            for (int i = 0; i < instructions.size(); i++) {
                if (instructions.get(i).startsWith("FROM ")) {
                    lastFrom = i;
                }
            }
            Map<String, String> env = new LinkedHashMap<>();
            Map<String, String> copies = new LinkedHashMap<>();
            Map<String, String> single = new HashMap<>();
            for (String instruction : instructions.subList(lastFrom + 1, instructions.size())) {
                String[] words = instruction.split("\\s+");
                String rest = instruction.substring(words[0].length()).strip();
                switch (words[0]) {
                    case "ENV" -> {
                        for (int i = 1; i < words.length; i++) {
                            String[] pair = words[i].split("=", 2);
                            env.put(pair[0], pair[1]);
                        }
                    }
                    case "COPY" -> {
                        if (!words[1].startsWith("--from=")) {
                            copies.put(words[1], words[2]);
                        }
                    }
                    case "RUN" -> {
                        // what the build does, not what a container is given
                    }
                    default -> assertThat(single.put(words[0], rest)).as(words[0]).isNull();
                }
            }
            String[] user = single.get("USER").split(":");
            return new Image(
                    env,
                    Integer.parseInt(single.get("EXPOSE").replace("/tcp", "")),
                    single.get("VOLUME"),
                    Long.parseLong(user[0]),
                    Long.parseLong(user[1]),
                    texts(YAML.load(single.get("ENTRYPOINT"))),
                    texts(YAML.load(single.get("CMD"))),
                    copies);
        }
    }
}
