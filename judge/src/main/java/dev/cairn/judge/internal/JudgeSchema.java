package dev.cairn.judge.internal;

import dev.cairn.store.Schema;
import java.util.List;

/** The judge module's tables in the store: answers, their judgements and policies. */
public final class JudgeSchema implements Schema {

    @Override
    public String module() {
        return "judge";
    }

    @Override
    public String resourceRoot() {
        return "/dev/cairn/judge/schema/";
    }

    @Override
    public List<String> migrations() {
        return List.of("V006__judgements.sql", "V025__answer_trace_index.sql");
    }
}
