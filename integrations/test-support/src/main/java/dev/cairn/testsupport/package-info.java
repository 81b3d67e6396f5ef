/**
 * What the client's and the framework adapters' tests share (clients/java,
 * integrations/langchain4j, integrations/spring-ai): a real Cairn server on a random port ({@link
 * dev.cairn.testsupport.TestCairn}) and a local server speaking OpenAI's chat completions ({@link
 * dev.cairn.testsupport.ChatCompletionsStub}), the one fake: the paid model. Test scope only.
 */
package dev.cairn.testsupport;
