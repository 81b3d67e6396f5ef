package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;

import java.util.List;
import org.junit.jupiter.api.Test;

class ExtractionTest {

    private static List<Mention> mentions(Gazetteer gazetteer, String text) {
        return EntityExtractor.rules(gazetteer).extract(text).mentions();
    }

    @Test
    void canonicalKeyFoldsCasePunctuationAndPlurals() {
        assertThat(Canonical.key("Ledger DB")).isEqualTo("ledger-db");
        assertThat(Canonical.key("ledger_db")).isEqualTo("ledger-db");
        assertThat(Canonical.key("`ledger-db`,")).isEqualTo("ledger-db");
        assertThat(Canonical.key("Databases")).isEqualTo(Canonical.key("database"));
        assertThat(Canonical.key("Primary Databases")).isEqualTo("primary-database");
        assertThat(Canonical.key("payments-api")).isEqualTo("payments-api");
        assertThat(Canonical.key("db-primary.prod.internal."))
                .isEqualTo("db-primary.prod.internal");
        assertThat(Canonical.key("Write-Ahead Logs")).isEqualTo("write-ahead-log");
    }

    @Test
    void postgresqlPostgresAndPgBecomeOneEntityThroughDeclaredAliases() {
        Gazetteer gazetteer = new Gazetteer();
        gazetteer.declare(
                new EntityDeclaration(
                        "ledger-db",
                        EntityKind.DATABASE,
                        List.of("PostgreSQL", "postgres", "PG", "primary database")));

        List<Mention> found =
                mentions(
                        gazetteer,
                        "PostgreSQL is slow; restart postgres. PG lag is high on the Primary"
                                + " Databases.");

        assertThat(found)
                .extracting(Mention::entityId, Mention::surface, Mention::kind)
                .containsExactly(
                        tuple("ledger-db", "PostgreSQL", EntityKind.DATABASE),
                        tuple("ledger-db", "postgres", EntityKind.DATABASE),
                        tuple("ledger-db", "PG", EntityKind.DATABASE),
                        tuple("ledger-db", "Primary Databases", EntityKind.DATABASE));
    }

    @Test
    void acronymWithExpansionIsOneConceptAndTheAcronymBecomesAnAlias() {
        Gazetteer gazetteer = new Gazetteer();
        String text = "Archive the Write-Ahead Log (WAL) to object storage.";

        List<Mention> found = mentions(gazetteer, text);

        assertThat(found)
                .extracting(Mention::entityId, Mention::surface, Mention::kind)
                .containsExactly(
                        tuple("write-ahead-log", "Write-Ahead Log", EntityKind.CONCEPT),
                        tuple("write-ahead-log", "WAL", EntityKind.CONCEPT));
        assertThat(found.get(0).start()).isEqualTo(text.indexOf("Write"));
        assertThat(found.get(1).end()).isEqualTo(text.indexOf(")"));
        // Later text using either form links to the same entity.
        assertThat(mentions(gazetteer, "WAL segments pile up; the write-ahead log is full."))
                .extracting(Mention::entityId)
                .containsExactly("write-ahead-log", "write-ahead-log");
    }

    @Test
    void expansionStartsAtTheWordsTheAcronymSpells() {
        List<Mention> found =
                mentions(new Gazetteer(), "Rotate Transport Layer Security (TLS) keys.");

        assertThat(found)
                .extracting(Mention::surface)
                .containsExactly("Transport Layer Security", "TLS");
    }

    @Test
    void camelCaseNamesAreAlerts() {
        List<Mention> found =
                mentions(
                        new Gazetteer(),
                        "If KubePodCrashLooping fires together with EdgeGateway5xxHigh, page.");

        assertThat(found)
                .extracting(Mention::entityId, Mention::kind)
                .containsExactly(
                        tuple("kubepodcrashlooping", EntityKind.ALERT),
                        tuple("edgegateway5xxhigh", EntityKind.ALERT));
    }

    @Test
    void hostnamesServicesAndIdentifiersAreRecognisedByShape() {
        List<Mention> found =
                mentions(
                        new Gazetteer(),
                        "Point payments-api at db-primary.prod.internal, set"
                                + " payments.retry_limit and max_connections, then drain"
                                + " payments-queue and check ledger-db.");

        assertThat(found)
                .extracting(Mention::surface, Mention::kind)
                .containsExactly(
                        tuple("payments-api", EntityKind.SERVICE),
                        tuple("db-primary.prod.internal", EntityKind.HOST),
                        tuple("payments.retry_limit", EntityKind.IDENTIFIER),
                        tuple("max_connections", EntityKind.IDENTIFIER),
                        tuple("payments-queue", EntityKind.QUEUE),
                        tuple("ledger-db", EntityKind.DATABASE));
    }

    @Test
    void backtickedNamesAndCapitalisedNamesAreEntities() {
        List<Mention> found =
                mentions(
                        new Gazetteer(),
                        "Run `pg_ctl promote` as described in the Blue Green Deploy guide.");

        assertThat(found)
                .extracting(Mention::surface, Mention::kind)
                .containsExactly(
                        tuple("pg_ctl", EntityKind.IDENTIFIER),
                        tuple("Blue Green Deploy", EntityKind.CONCEPT));
    }

    @Test
    void sentenceInitialWordDoesNotStartAName() {
        assertThat(mentions(new Gazetteer(), "Restart Order Service now."))
                .extracting(Mention::surface)
                .containsExactly("Order Service");
    }

    @Test
    void statedRelationsBetweenMentionedEntitiesAreExtracted() {
        Extraction extraction =
                EntityExtractor.rules(new Gazetteer())
                        .extract(
                                "checkout-api depends on ledger-db. payments-dlq is part of"
                                        + " payments-queue. ledger-api replaces ledger-web."
                                        + " cart-cache is replaced by session-cache.");

        assertThat(extraction.relations())
                .extracting(r -> r.from().id(), Relation::type, r -> r.to().id())
                .containsExactly(
                        tuple("checkout-api", RelationType.DEPENDS_ON, "ledger-db"),
                        tuple("payments-dlq", RelationType.PART_OF, "payments-queue"),
                        tuple("ledger-api", RelationType.SUPERSEDES, "ledger-web"),
                        tuple("session-cache", RelationType.SUPERSEDES, "cart-cache"));
        assertThat(extraction.relations())
                .allSatisfy(r -> assertThat(r.confidence()).isLessThan(1.0));
    }

    @Test
    void laterEvidenceMakesAnExtractedNameAnAlert() {
        Gazetteer gazetteer = new Gazetteer();
        mentions(gazetteer, "See the runbook of ledgerReplicasAway.");
        assertThat(gazetteer.lookup("ledgerReplicasAway").orElseThrow().kind())
                .isEqualTo(EntityKind.IDENTIFIER);

        mentions(gazetteer, "# ledgerReplicasAway\n\nThis alert fires when replicas are away.");

        assertThat(gazetteer.lookup("ledgerReplicasAway").orElseThrow().kind())
                .isEqualTo(EntityKind.ALERT);
    }

    @Test
    void linkerDoesNotGrowTheGazetteer() {
        Gazetteer gazetteer = new Gazetteer();
        EntityExtractor.linker(gazetteer).extract("is KubePodCrashLooping firing on checkout-api");
        assertThat(gazetteer.entities()).isEmpty();
    }
}
