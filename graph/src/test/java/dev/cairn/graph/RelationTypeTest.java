package dev.cairn.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

import org.junit.jupiter.api.Test;

class RelationTypeTest {

    @Test
    void defaultWeightsFollowTheApiContract() {
        assertThat(RelationType.GOVERNS.defaultWeight()).isEqualTo(1.0);
        assertThat(RelationType.SUPERSEDES.defaultWeight()).isEqualTo(0.95);
        assertThat(RelationType.DEPENDS_ON.defaultWeight()).isEqualTo(0.8);
        assertThat(RelationType.PART_OF.defaultWeight()).isEqualTo(0.7);
        assertThat(RelationType.RELATED_TO.defaultWeight()).isEqualTo(0.5);
        assertThat(RelationType.MENTIONS.defaultWeight()).isEqualTo(0.35);
        assertThat(RelationType.CONTRADICTS.defaultWeight()).isEqualTo(0.0);
    }

    @Test
    void parsesSnakeCaseWireNamesCaseInsensitively() {
        assertThat(RelationType.parse("depends_on")).isEqualTo(RelationType.DEPENDS_ON);
        assertThat(RelationType.parse(" Part-Of ")).isEqualTo(RelationType.PART_OF);
        assertThat(RelationType.DEPENDS_ON.wireName()).isEqualTo("depends_on");
        for (RelationType type : RelationType.values()) {
            assertThat(RelationType.parse(type.wireName())).isEqualTo(type);
        }
    }

    @Test
    void unknownNameIsRejectedNamingTheAllowedValues() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> RelationType.parse("blocks"))
                .withMessage(
                        "unknown relation type: blocks, must be one of governs, supersedes,"
                                + " depends_on, part_of, related_to, mentions, contradicts");
        assertThatIllegalArgumentException()
                .isThrownBy(() -> EntityKind.parse("planet"))
                .withMessageContaining("must be one of service, component, database");
    }

    @Test
    void proximityConfigNamesTheBadValueAndItsRange() {
        assertThatIllegalArgumentException()
                .isThrownBy(() -> ProximityConfig.defaults().withMaxHops(0))
                .withMessage("illegal maxHops: 0, must be in [1, 8]");
    }
}
