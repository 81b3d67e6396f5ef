package dev.cairn.server.http;

import static org.assertj.core.api.Assertions.assertThat;

import io.helidon.http.Method;
import org.junit.jupiter.api.Test;

/** The operation tag is one of a fixed set, whatever the path, so series stay bounded. */
class MetricsFilterTest {

    @Test
    void namesTheOperationsTheConsoleCharts() {
        assertThat(MetricsFilter.operation(Method.POST, "/v1/namespaces/ops/retrieve"))
                .isEqualTo("retrieve");
        assertThat(MetricsFilter.operation(Method.POST, "/v1/namespaces/ops/recall"))
                .isEqualTo("recall");
        assertThat(MetricsFilter.operation(Method.POST, "/v1/namespaces/ops/judge"))
                .isEqualTo("judge");
        assertThat(MetricsFilter.operation(Method.POST, "/v1/namespaces/ops/documents"))
                .isEqualTo("ingest");
        assertThat(MetricsFilter.operation(Method.POST, "/v1/namespaces/ops/extract"))
                .isEqualTo("extract");
    }

    @Test
    void everythingElseIsOther() {
        assertThat(MetricsFilter.operation(Method.GET, "/v1/namespaces/ops/documents"))
                .isEqualTo("other");
        assertThat(MetricsFilter.operation(Method.POST, "/v1/namespaces/ops/memories/x/disable"))
                .isEqualTo("other");
        assertThat(MetricsFilter.operation(Method.POST, "/v1/namespaces/ops")).isEqualTo("other");
        assertThat(MetricsFilter.operation(Method.POST, "/v1/namespaces/ops/retrieve/extra"))
                .isEqualTo("other");
        assertThat(MetricsFilter.operation(Method.POST, "/ark/ops/messages")).isEqualTo("other");
    }
}
