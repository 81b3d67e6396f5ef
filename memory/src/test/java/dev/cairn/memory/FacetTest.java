package dev.cairn.memory;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class FacetTest {

    @Test
    void aTextTellsOfTheFacetsOfTheThingsItNames() {
        assertThat(Facet.told("bom dia from lisbon ☀️")).containsExactly(Facet.PLACE);
        assertThat(Facet.told("ok kraków was INCREDIBLE")).containsExactly(Facet.PLACE);
        assertThat(Facet.told("finally beat the last game of the trilogy, then the gym"))
                .containsExactly(Facet.PASTIME);
        assertThat(Facet.told("nadia dragged me bouldering")).contains(Facet.PASTIME);
        assertThat(Facet.told("restrung my bass after like a year")).contains(Facet.MUSIC);
        assertThat(Facet.told("my sister's twins and a puppy"))
                .containsExactlyInAnyOrder(Facet.FAMILY, Facet.PET);
        assertThat(Facet.told("we had stir fry and two cookies")).containsExactly(Facet.FOOD);
        assertThat(Facet.told("haha ok night!")).isEmpty();
    }

    @Test
    void aQuestionAsksForFacetsByTheirCategoryWords() {
        assertThat(Facet.asked("Which countries has Bea visited?")).contains(Facet.PLACE);
        assertThat(Facet.asked("What are Tommy's hobbies?")).containsExactly(Facet.PASTIME);
        assertThat(Facet.asked("What pets has Luca had?")).containsExactly(Facet.PET);
        assertThat(Facet.asked("What instruments does Seg play?")).containsExactly(Facet.MUSIC);
        assertThat(Facet.asked("Which relatives of Ash are mentioned?"))
                .containsExactly(Facet.FAMILY);
        assertThat(Facet.asked("What has Mari cooked recently?")).containsExactly(Facet.FOOD);
        assertThat(Facet.asked("When did Rafa adopt Churro?")).isEmpty();
    }
}
