package dev.cairn.springai;

import dev.cairn.client.CairnClient;
import org.springframework.ai.chat.memory.ChatMemoryRepository;
import org.springframework.ai.vectorstore.VectorStore;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;

/**
 * Spring Boot auto-configuration of Cairn, on when {@code cairn.base-url} is set ({@link
 * CairnProperties}): a {@link CairnClient}, a {@link CairnVectorStore} and a {@link
 * CairnChatMemoryRepository} over {@code cairn.namespace}. Each bean backs off when the application
 * defines its own of that type (a {@code VectorStore}, a {@code ChatMemoryRepository}). It runs
 * before Spring AI's chat-memory auto-configuration, so that the chat memory Spring AI builds (a
 * {@code MessageWindowChatMemory}) keeps its messages in Cairn rather than in memory.
 */
@AutoConfiguration(
        beforeName =
                "org.springframework.ai.model.chat.memory.autoconfigure.ChatMemoryAutoConfiguration")
@ConditionalOnProperty(prefix = CairnProperties.PREFIX, name = "base-url")
@EnableConfigurationProperties(CairnProperties.class)
public class CairnAutoConfiguration {

    /** Closed with the context. */
    @Bean
    @ConditionalOnMissingBean
    public CairnClient cairnClient(CairnProperties properties) {
        return CairnClient.builder(properties.baseUrl())
                .token(properties.token())
                .connectTimeout(properties.connectTimeout())
                .requestTimeout(properties.requestTimeout())
                .build();
    }

    @Bean
    @ConditionalOnMissingBean(VectorStore.class)
    public CairnVectorStore cairnVectorStore(CairnClient client, CairnProperties properties) {
        return new CairnVectorStore(client.namespace(properties.requireNamespace()));
    }

    @Bean
    @ConditionalOnMissingBean(ChatMemoryRepository.class)
    public CairnChatMemoryRepository cairnChatMemoryRepository(
            CairnClient client, CairnProperties properties) {
        return new CairnChatMemoryRepository(client.conversations(properties.requireNamespace()));
    }
}
