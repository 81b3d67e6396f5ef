package dev.cairn.safety;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.EnumSet;
import java.util.Set;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * One realistic sample of every secret format Cairn detects (the gitleaks and detect-secrets rules
 * it covers; the values are random, in each format's real shape): found, labelled with its own
 * kind, and only its own characters replaced. Look-alikes that are not secrets pass untouched.
 */
class SecretFormatsTest {

    record Sample(SecretKind kind, String name, String text, String secret) {
        @Override
        public String toString() {
            return name;
        }
    }

    private static Sample sample(SecretKind kind, String name, String text, String secret) {
        return new Sample(kind, name, text, secret);
    }

    static Stream<Sample> samples() {
        return Stream.of(
                sample(
                        SecretKind.PRIVATE_KEY,
                        "private key",
                        "-----BEGIN OPENSSH PRIVATE KEY-----\n6eFKAqSJ4dqhz6gwOoGPsm0gOQDtNuNL7uA+3ivAbl7MoyE76m8Q6KFietXx\n-----END OPENSSH PRIVATE KEY-----",
                        "6eFKAqSJ4dqhz6gwOoGPsm0gOQDtNuNL7uA+3ivAbl7MoyE76m8Q6KFietXx"),
                sample(
                        SecretKind.URL_CREDENTIALS,
                        "url credentials",
                        "redis://default:Y8UCg1UAmLbAEH6p@cache.internal:6379",
                        "Y8UCg1UAmLbAEH6p"),
                sample(
                        SecretKind.JWT,
                        "jwt",
                        "eyJhbGciOiJIUzI1NiIsInR5cCI6IkpXVCJ9.eyJzdWIiOiJhZ2VudC03In0.C4yvuNGlwRuFhExhEB138NNFeZfuuNdMUY2PeG8GcBf",
                        "C4yvuNGlwRuFhExhEB138NNFeZfuuNdMUY2PeG8GcBf"),
                sample(
                        SecretKind.GITHUB_TOKEN,
                        "github fine-grained token",
                        "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",
                        "cRVlsbEgp7CEq6UEoCMYyvJ673C7U10EbmB1xPSj7zBdIXn8LaaOk5V5IUu"),
                sample(
                        SecretKind.OPENAI_KEY,
                        "openai project key",
                        "sk-proj-hnJvBLZwan8M6hWikNzVKhUeoBFfa8estaoExIiBoK4eykfM",
                        "hnJvBLZwan8M6hWikNzVKhUeoBFfa8estaoExIiBoK4eykfM"),
                sample(
                        SecretKind.ANTHROPIC_KEY,
                        "anthropic key",
                        "sk-ant-api03-e4E7YoM_8E8sM_6S1Dgpjbokz-MFZw9z91Mjbvo2V80zQPXqn3kIdhVBqP2p8P69UA8FRzR7wfH4whsYMYsvNdzguxx2uAA",
                        "e4E7YoM_8E8sM_6S1Dgpjbokz-MFZw9z91Mjbvo2V80zQPXqn3kIdhVBqP2p8P69UA8FRzR7wfH4whsYMYsvNdzguxx2u"),
                sample(
                        SecretKind.SLACK_TOKEN,
                        "slack bot token",
                        "xoxb-9416511095572-9491153706802-o3ppD7o7T3ZJYmdCH721FCHx",
                        "o3ppD7o7T3ZJYmdCH721FCHx"),
                sample(
                        SecretKind.SLACK_WEBHOOK,
                        "slack webhook",
                        "https://hooks.slack.com/services/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",
                        "ND7pnQdmr2tWF2SKf7foN8I4"),
                sample(
                        SecretKind.STRIPE_KEY,
                        "stripe live secret key",
                        "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",
                        "aPZdBqCofK4FNYdJDBnsRAGtJYGPfFhWmR9EKgsUDBugibKKQ7bUzegDRzbO12SBOD34BNwAkauGD0USYrjgaO83DG9iZtViE"),
                sample(
                        SecretKind.STRIPE_KEY,
                        "stripe restricted key",
                        "rk_live_kxAwAqAkY8E7CtongJuJNMBY",
                        "kxAwAqAkY8E7CtongJuJNMBY"),
                sample(
                        SecretKind.STRIPE_KEY,
                        "stripe webhook secret",
                        "whsec_Gp1HkSH4AoLFVyJzlV3M5pTjHO2uZRmu",
                        "Gp1HkSH4AoLFVyJzlV3M5pTjHO2uZRmu"),
                sample(
                        SecretKind.NPM_TOKEN,
                        "npm token",
                        "npm_iMjEYIGqDOinLRrxgm3I1xaWAFc2Zsb37Zcy",
                        "iMjEYIGqDOinLRrxgm3I1xaWAFc2Zsb37Zcy"),
                sample(
                        SecretKind.CAIRN_TOKEN,
                        "cairn token",
                        "cairn_0UCqXuqRZR6du0apvi5johwgmf17JQTohWIhpraQulW",
                        "0UCqXuqRZR6du0apvi5johwgmf17JQTohWIhpraQulW"),
                sample(
                        SecretKind.AWS_ACCESS_KEY_ID,
                        "aws access key id",
                        "AKIAYNHYFJWPXT44QRHI",
                        "YNHYFJWPXT44QRHI"),
                sample(
                        SecretKind.AWS_SECRET_KEY,
                        "aws secret key assignment",
                        "aws_secret_access_key = bZkZTwg45iNJQ/cmmz8IhkGmKm2uyhUpkhxSPUpA",
                        "bZkZTwg45iNJQ/cmmz8IhkGmKm2uyhUpkhxSPUpA"),
                sample(
                        SecretKind.GOOGLE_API_KEY,
                        "google api key",
                        "AIzaWU1spP_f9qEXfj_bkc1q0url70fe0YMjZet",
                        "WU1spP_f9qEXfj_bkc1q0url70fe0YMjZet"),
                sample(
                        SecretKind.BEARER_TOKEN,
                        "bearer header",
                        "Authorization: Bearer p2kgHk.P4ZUgbLvUZuFQTfl-DPdJtHYg",
                        "p2kgHk.P4ZUgbLvUZuFQTfl-DPdJtHYg"),
                sample(
                        SecretKind.BASIC_AUTH,
                        "basic auth header",
                        "Authorization: Basic p8ytfzQEXcSwYIODvM+bJRsA==",
                        "p8ytfzQEXcSwYIODvM+bJRsA"),
                sample(
                        SecretKind.PASSWORD,
                        "password in words",
                        "the vpn password is TOO2MIrHVO",
                        "TOO2MIrHVO"),
                sample(
                        SecretKind.SECRET_ASSIGNMENT,
                        "client secret assignment",
                        "client_secret: \"5VNEGATOZTsWzeADCwGSUlKh\"",
                        "5VNEGATOZTsWzeADCwGSUlKh"),
                sample(
                        SecretKind.GITLAB_TOKEN,
                        "gitlab personal access token",
                        "glpat-TMTEEp-qav15nvoiXJUC",
                        "TMTEEp-qav15nvoiXJUC"),
                sample(
                        SecretKind.HUGGINGFACE_TOKEN,
                        "hugging face token",
                        "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",
                        "LoNttTcWnDLVTDRXbAJrdIKwnAeDCPeXRl"),
                sample(
                        SecretKind.SENDGRID_KEY,
                        "sendgrid key",
                        "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",
                        "OVGD4sbcsn47MhYwdinFhcodX4DBzpV3ANfLIbHZkHg"),
                sample(
                        SecretKind.TWILIO_KEY,
                        "twilio api key",
                        "SKf0545400d7ef1a830eb2bc72466c474e",
                        "f0545400d7ef1a830eb2bc72466c474e"),
                sample(
                        SecretKind.SHOPIFY_TOKEN,
                        "shopify admin token",
                        "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",
                        "893abb60ca8ff846144d8aa87c0fdb78"),
                sample(
                        SecretKind.PYPI_TOKEN,
                        "pypi upload token",
                        "pypi-AgEIcHlwaS5vcmcwbtryC2FOHoAjTpJTsTN6cuJjy8ebGed7dZH4r73fhs_1upwWk6IQ91osb3_i9FMikTM7_",
                        "wbtryC2FOHoAjTpJTsTN6cuJjy8ebGed7dZH4r73fhs_1upwWk6IQ91osb3_i9FMikTM7_"),
                sample(
                        SecretKind.DOCKER_TOKEN,
                        "docker hub token",
                        "dckr_pat_U_LnfjVt9C2tEJP8Z0p4wsvW_eQ",
                        "U_LnfjVt9C2tEJP8Z0p4wsvW_eQ"),
                sample(
                        SecretKind.DIGITALOCEAN_TOKEN,
                        "digitalocean token",
                        "dop_v1_49b625615db770f9a5a7ee430eb47094a080ce3c6d0ce4f9c157e1689e6593ae",
                        "49b625615db770f9a5a7ee430eb47094a080ce3c6d0ce4f9c157e1689e6593ae"),
                sample(
                        SecretKind.VAULT_TOKEN,
                        "vault service token",
                        "hvs.5Sh5wZOZRZ5q7PGl4-AXgoG4e2Zcbry31uRK0Amf7j2qrCij3mAsKISKdZGEmOVG_LfPtSoHZu_dUtdDQzXbKrfhwb",
                        "5Sh5wZOZRZ5q7PGl4-AXgoG4e2Zcbry31uRK0Amf7j2qrCij3mAsKISKdZGEmOVG_LfPtSoHZu_dUtdDQzXbKrfhwb"),
                sample(
                        SecretKind.GOOGLE_OAUTH_SECRET,
                        "google oauth client secret",
                        "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",
                        "jXaiFoAbnlPtqAv3WIPbKRRlZXq7"),
                sample(
                        SecretKind.AZURE_CLIENT_SECRET,
                        "azure ad client secret",
                        "g038Q~CHdPV6H.10TmbxhSf~1aWb2HdwJU.TV~dM",
                        "CHdPV6H.10TmbxhSf~1aWb2HdwJU.TV~dM"),
                sample(
                        SecretKind.AZURE_STORAGE_KEY,
                        "azure storage connection string",
                        "DefaultEndpointsProtocol=https;AccountName=billingdata;AccountKey=IrNFO9+lCq9K2ZLxgE5yDEmBibnJEovYAOhoT7L1ccKE13cu5WTNX1PE9a0qBY+DK+7Yfc8HFzPmgCPCYu3d4K==;EndpointSuffix=core.windows.net",
                        "IrNFO9+lCq9K2ZLxgE5yDEmBibnJEovYAOhoT7L1ccKE13cu5WTNX1PE9a0qBY+DK+7Yfc8HFzPmgCPCYu3d4K"),
                sample(
                        SecretKind.DATABRICKS_TOKEN,
                        "databricks token",
                        "dapi97447d197792b62357dd6b13f3e1cec8",
                        "97447d197792b62357dd6b13f3e1cec8"),
                sample(
                        SecretKind.LINEAR_KEY,
                        "linear api key",
                        "lin_api_jpQwQplYP1dUOj8i7OWHuTJnEYGomfwGO72SqmFa",
                        "jpQwQplYP1dUOj8i7OWHuTJnEYGomfwGO72SqmFa"),
                sample(
                        SecretKind.NEW_RELIC_KEY,
                        "new relic user key",
                        "NRAK-QB0TZLBOXQWW5TZN45ZE3GWRWIV",
                        "QB0TZLBOXQWW5TZN45ZE3GWRWIV"),
                sample(
                        SecretKind.POSTMAN_KEY,
                        "postman api key",
                        "PMAK-de155a54a88390e1a56a34e4-77bc8f1eb95a3812dbdeaa34b51cdb7ab7",
                        "77bc8f1eb95a3812dbdeaa34b51cdb7ab7"),
                sample(
                        SecretKind.GRAFANA_TOKEN,
                        "grafana service account token",
                        "glsa_Dev1yHYics1oSOcKvX6u0Fenn2xM25vm_40ef0afd",
                        "Dev1yHYics1oSOcKvX6u0Fenn2xM25vm"),
                sample(
                        SecretKind.TELEGRAM_BOT_TOKEN,
                        "telegram bot token",
                        "2815873679:AAQ6LbCAhUmMcyOGPpTBzJmu5g7fcKZ7QCf",
                        "Q6LbCAhUmMcyOGPpTBzJmu5g7fcKZ7QCf"),
                sample(
                        SecretKind.AGE_SECRET_KEY,
                        "age secret key",
                        "AGE-SECRET-KEY-18HFAJHPSZAEZJTJPJN89JXCJNA37VJPVGNKKNJS4H46GRQH6Q8ML24JC6G",
                        "8HFAJHPSZAEZJTJPJN89JXCJNA37VJPVGNKKNJS4H46GRQH6Q8ML24JC6G"),
                sample(
                        SecretKind.HIGH_ENTROPY_TOKEN,
                        "bare 40-character key, nothing naming it",
                        "mV6KlBDq8f+UDv7Q/Gq+PFwkrc5T5wAt9mSKc074",
                        "mV6KlBDq8f+UDv7Q/Gq+PFwkrc5T5wAt9mSKc074"));
    }

    private static final SecretRedactor REDACTOR = SecretRedactor.standard();

    @ParameterizedTest(name = "{0}")
    @MethodSource("samples")
    void eachFormatIsFoundLabelledAndReplacedAlone(Sample s) {
        assertThat(s.text()).contains(s.secret());
        String text = "Ops note, ① ﬁle: " + s.text() + " (rotate on Friday).";

        RedactionResult r = REDACTOR.redact(text);

        assertThat(r.counts()).as(s.name()).containsOnlyKeys(s.kind());
        assertThat(r.text()).as(s.name()).doesNotContain(s.secret()).contains(s.kind().marker());
        assertThat(r.text()).startsWith("Ops note, ① ﬁle: ").endsWith(" (rotate on Friday).");
    }

    @Test
    void everyKindHasASample() {
        Set<SecretKind> sampled =
                samples()
                        .map(Sample::kind)
                        .collect(Collectors.toCollection(() -> EnumSet.noneOf(SecretKind.class)));
        assertThat(sampled).containsExactlyInAnyOrder(SecretKind.values());
    }

    @Test
    void aStripeKeyIsAStripeKeyAndAnAnthropicKeyIsNotOpenAis() {
        assertThat(REDACTOR.redact("sk_live_" + "4eC39HqLyjWDarjtT1zdp7dc").counts())
                .containsOnlyKeys(SecretKind.STRIPE_KEY);
        assertThat(REDACTOR.redact("sk-ant-api03-" + "x".repeat(90) + "AA").counts())
                .containsOnlyKeys(SecretKind.ANTHROPIC_KEY);
    }

    @ParameterizedTest
    @MethodSource("notSecrets")
    void readableAndLowEntropyTokensAreNotSecrets(String text) {
        assertThat(REDACTOR.redact(text).counts()).as(text).isEmpty();
        assertThat(REDACTOR.redact(text).text()).isEqualTo(text);
    }

    static Stream<String> notSecrets() {
        return Stream.of(
                "commit a94a8fe5ccb19ba61c4c0873d391e987982fbbd3 fixed it",
                "user CustomerSupportAgentVersion2Production",
                "session MyVeryLongSessionNameForTheQ3PlanningMeeting",
                "task billingServiceDeploymentPipelineV2Stage3",
                "path src/main/java/dev/cairn/server/api/view/KeyValueAnswers",
                "id 3f2504e0-4f89-11d3-9a0c-0305e82c3301-7d44b5a6e1f0",
                "the firebase uid kR4n2pQfX9Z1mO8hT3yLw7cVb6A2 (28 characters)",
                "AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA1a");
    }
}
