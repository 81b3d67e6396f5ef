/**
 * The server's side of the API's answers: the mappings of domain values onto the shared wire
 * records of {@code dev.cairn.api.view} (module {@code clients/api}): {@link
 * dev.cairn.server.api.view.KnowledgeViews}, {@link dev.cairn.server.api.view.MemoryViews}, {@link
 * dev.cairn.server.api.view.GovernanceViews}; and the answer records that carry a library's own
 * type or belong to a mount the client does not call (adaptation, traces, entities, tokens, ARK,
 * Orloj). Serialised by Jackson in declaration order; a component sent only in some answers is null
 * otherwise and left out ({@code JsonInclude.Include.NON_NULL}).
 */
package dev.cairn.server.api.view;
