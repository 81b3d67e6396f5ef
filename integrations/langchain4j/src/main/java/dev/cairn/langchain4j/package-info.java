/**
 * LangChain4j adapter over {@link dev.cairn.client.NamespaceClient}: {@link
 * dev.cairn.langchain4j.CairnContentRetriever} feeds Cairn's ranked chunks to a retrieval
 * augmentor, {@link dev.cairn.langchain4j.CairnMemoryTools} lets an {@code AiServices} agent recall
 * and remember typed memories.
 */
package dev.cairn.langchain4j;
