/**
 * Spring AI adapter over {@link dev.cairn.client.CairnClient}: {@link
 * dev.cairn.springai.CairnVectorStore} (documents in, Cairn's ranked chunks out, filter expressions
 * as Cairn's retrieve filters), {@link dev.cairn.springai.CairnChatMemoryRepository} (chat memory
 * in ARK conversations) and {@link dev.cairn.springai.CairnAutoConfiguration} with {@code cairn.*}
 * properties for Spring Boot.
 */
package dev.cairn.springai;
