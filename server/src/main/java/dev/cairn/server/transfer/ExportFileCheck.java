package dev.cairn.server.transfer;

import dev.cairn.agents.conversation.ConversationCopy;
import dev.cairn.judge.Policy;
import dev.cairn.retrieval.DocumentCopy;
import dev.cairn.retrieval.feedback.Adaptation;
import dev.cairn.retrieval.store.ChunkDraft;
import dev.cairn.server.api.AdaptationSubject;
import dev.cairn.store.Identifiers;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.Set;

/**
 * The first pass of an import: reads the whole file without writing and refuses it, naming the
 * line, when a record is malformed or illegal, appears twice, has a vector of the wrong length, or
 * the file is cut short. Stateless.
 */
final class ExportFileCheck {

    private ExportFileCheck() {}

    /** Reads the whole file without writing: its header, when every line is good. */
    static ExportFormat.Header check(Path file) {
        Set<String> ids = new HashSet<>();
        Set<String> documentIds = new HashSet<>();
        ExportFormat.Header header = ExportFileReader.header(file);
        int dimensions = header.dimensions();
        Set<String> conversationIds = new HashSet<>();
        Set<String> keys = new HashSet<>();
        Set<String> others = new HashSet<>();
        int[] active = new int[AdaptationSubject.values().length];
        ExportFileReader.each(
                file,
                header.version(),
                new ExportFileReader.Records() {
                    @Override
                    public void memory(ExportedMemory memory) {
                        if (!ids.add(memory.id())) {
                            throw new IllegalArgumentException(
                                    "memory '" + memory.id() + "' appears twice");
                        }
                        memory.memory("check", "");
                        memory.transitions();
                        float[] v = ExportFormat.decode(memory.vector());
                        if (v.length != 0 && v.length != dimensions) {
                            throw new IllegalArgumentException(
                                    "illegal vector of memory '"
                                            + memory.id()
                                            + "': "
                                            + v.length
                                            + " dimensions, the header says "
                                            + dimensions);
                        }
                        if (v.length != 0 && memory.embeddingModel().isBlank()) {
                            throw new IllegalArgumentException(
                                    "illegal memory '" + memory.id() + "': a vector with no model");
                        }
                        memory.windowVectors(dimensions);
                    }

                    @Override
                    public void document(ExportedDocument document) {
                        if (!documentIds.add(document.id())) {
                            throw new IllegalArgumentException(
                                    "document '" + document.id() + "' appears twice");
                        }
                        DocumentCopy copy = document.copy();
                        for (ChunkDraft c : copy.chunks()) {
                            int n = c.embedding().length;
                            if (n != 0 && n != dimensions) {
                                throw new IllegalArgumentException(
                                        "illegal vector of chunk "
                                                + c.ordinal()
                                                + " of document '"
                                                + document.id()
                                                + "': "
                                                + n
                                                + " dimensions, the header says "
                                                + dimensions);
                            }
                        }
                        copy.draft(); // the store's own checks of a document
                    }

                    @Override
                    public void conversation(ExportedConversation conversation) {
                        if (!conversationIds.add(conversation.id())) {
                            throw new IllegalArgumentException(
                                    "conversation '" + conversation.id() + "' appears twice");
                        }
                        ConversationCopy copy = conversation.copy();
                        Identifiers.requireId(copy.id(), "conversation id");
                        copy.messages().forEach(m -> Identifiers.requireId(m.queryId(), "queryId"));
                    }

                    @Override
                    public void entry(ExportedEntry entry) {
                        if (!keys.add(entry.key())) {
                            throw new IllegalArgumentException(
                                    "entry '" + entry.key() + "' appears twice");
                        }
                        entry.entry();
                    }

                    @Override
                    public void relation(ExportedRelation relation) {
                        once("relation", relation.copy().id());
                    }

                    @Override
                    public void proposal(ExportedProposal proposal) {
                        once("proposal", proposal.proposal().id());
                    }

                    @Override
                    public void judgment(ExportedJudgment judgment) {
                        once("feedback", judgment.judgment().id());
                    }

                    @Override
                    public void adaptation(ExportedAdaptation adaptation) {
                        Adaptation a = adaptation.adaptation();
                        AdaptationSubject subject = adaptation.adaptationSubject();
                        once("adaptation", subject.wireName() + " " + a.version());
                        if (a.adapter().dimensions() != dimensions) {
                            throw new IllegalArgumentException(
                                    "illegal adaptation "
                                            + a.version()
                                            + ": "
                                            + a.adapter().dimensions()
                                            + " dimensions, the header says "
                                            + dimensions);
                        }
                        if (a.state() == Adaptation.State.ACTIVE
                                && ++active[subject.ordinal()] > 1) {
                            throw new IllegalArgumentException(
                                    "a second active adaptation of " + subject.wireName());
                        }
                    }

                    @Override
                    public void policy(ExportedPolicy policy) {
                        once("policy", policy.name());
                        Policy.parse(policy.name(), policy.document());
                    }

                    private void once(String type, String id) {
                        if (!others.add(type + ":" + id)) {
                            throw new IllegalArgumentException(
                                    type + " '" + id + "' appears twice");
                        }
                    }
                });
        return header;
    }
}
