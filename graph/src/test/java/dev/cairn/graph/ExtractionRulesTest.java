package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The extraction rules as a table: text in, entities (canonical key -> kind) out, in text order.
 * The texts are written for this test; the failure cases are the ones found on public runbooks
 * (common words as the most-mentioned entities, product names typed as alerts).
 */
class ExtractionRulesTest {

    static Stream<Arguments> cases() {
        return Stream.of(
                // Stop-words and common words never become entities, whatever rule sees them.
                row("Scale the deployment `or` restart it; see `down` and `Running`.", Map.of()),
                row("SORT BY NAME, OR BY NODE, AND THEN BY POD.", Map.of()),
                row("Step 1: run `1` then `e.g`.", Map.of()),
                // Column headers of command output in a fenced block are no acronyms.
                row(
                        "Check the pods:\n```\nNAME    READY   NODE    STATUS\nweb-1   1/1  "
                                + " worker-0   Running\n```\nThen look at the PVC.",
                        entities("pvc", EntityKind.CONCEPT)),
                // Shapes inside a code block still count.
                row(
                        "```\noc -n openshift-etcd get pods\ncurl billing-api.prod.internal\n```",
                        entities("billing-api.prod.internal", EntityKind.HOST)),
                // A backticked command is not a name; the names in it are.
                row(
                        "Run `pg_ctl promote` as described in the Blue Green Deploy guide.",
                        entities(
                                "pg-ctl", EntityKind.IDENTIFIER,
                                "blue-green-deploy", EntityKind.CONCEPT)),
                row("Use `etcdctl` on the node.", entities("etcdctl", EntityKind.IDENTIFIER)),
                // A URL gives its host, not its scheme or path.
                row(
                        "See https://docs.example.com/guide/http-errors?page=2 for details.",
                        entities("docs.example.com", EntityKind.HOST)),
                // Product names in CamelCase are not alerts: nothing says they are.
                row(
                        "Connections go through PgBouncer and jobs through RabbitMQ.",
                        entities("pgbouncer", EntityKind.OTHER, "rabbitmq", EntityKind.OTHER)),
                // Alerts: the name ends in an alert state ...
                row(
                        "If KubePodCrashLooping fires together with EdgeGateway5xxHigh, page.",
                        entities(
                                "kubepodcrashlooping", EntityKind.ALERT,
                                "edgegateway5xxhigh", EntityKind.ALERT)),
                row(
                        "Both HAControlPlaneDown and TargetDown are alerts.",
                        entities(
                                "hacontrolplanedown", EntityKind.ALERT,
                                "targetdown", EntityKind.ALERT)),
                // ... or the text calls it an alert ...
                row(
                        "The alert QuotaWatcher and alertname=LedgerSync both page; an OpenShift alert too.",
                        entities(
                                "quotawatcher",
                                EntityKind.ALERT,
                                "ledgersync",
                                EntityKind.ALERT,
                                "openshift",
                                EntityKind.OTHER)),
                // ... or it is the heading of a text about an alert (lowerCamel too).
                row(
                        "# ledgerReplicasAway\n\nThis alert fires when replicas are away.",
                        entities("ledgerreplicasaway", EntityKind.ALERT)),
                // lowerCamel without evidence is a code identifier, even with a state word.
                row(
                        "Set maxUnavailable and podName in the spec.",
                        entities(
                                "maxunavailable", EntityKind.IDENTIFIER,
                                "podname", EntityKind.IDENTIFIER)),
                // A heading in Title Case of common words describes; a capitalised name inside
                // a sentence names.
                row(
                        "## Check Health\n\nRestart Order Service now.",
                        entities("order-service", EntityKind.CONCEPT)));
    }

    @ParameterizedTest
    @MethodSource("cases")
    void extractsTheEntitiesAndKindsOfEachText(String text, Map<String, EntityKind> expected) {
        Map<String, EntityKind> found = new LinkedHashMap<>();
        for (Mention m : EntityExtractor.rules(new Gazetteer()).extract(text).mentions()) {
            found.putIfAbsent(m.entityId(), m.kind());
        }

        assertThat(found).containsExactlyEntriesOf(expected);
    }

    @ParameterizedTest
    @MethodSource("cases")
    void theQueryLinkerFindsTheSameNamesAsIngest(String text, Map<String, EntityKind> expected) {
        List<String> linked =
                EntityExtractor.linker(new Gazetteer()).extract(text).mentions().stream()
                        .map(Mention::entityId)
                        .distinct()
                        .toList();

        assertThat(linked).containsExactlyElementsOf(expected.keySet());
    }

    private static Arguments row(String text, Map<String, EntityKind> expected) {
        return Arguments.of(text, expected);
    }

    private static Map<String, EntityKind> entities(Object... keyKind) {
        Map<String, EntityKind> out = new LinkedHashMap<>();
        for (int i = 0; i < keyKind.length; i += 2) {
            out.put((String) keyKind[i], (EntityKind) keyKind[i + 1]);
        }
        return out;
    }
}
