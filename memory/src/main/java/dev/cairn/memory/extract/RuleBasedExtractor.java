package dev.cairn.memory.extract;

import dev.cairn.memory.MemoryType;
import dev.cairn.memory.TextNormalizer;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * Pattern-based extraction. Each sentence of the query and the response is tried against the rules
 * below in order; the first rule that matches decides the sentence's type (so "we decided to ship
 * on Tuesday" is a DECISION, not an EVENT). Numbered step lists become one PROCEDURE. Questions are
 * skipped (except "remind me to ..."), and so are sentences about a transient state ("right now",
 * "currently", "is down"), which are not worth keeping.
 *
 * <p>Confidences: the rule's base value; sentences from the assistant's response get {@link
 * #RESPONSE_PENALTY} less, except problems/fixes and procedures, which assistants state as well as
 * users. Immutable, thread-safe.
 */
final class RuleBasedExtractor implements MemoryExtractor {

    static final RuleBasedExtractor INSTANCE = new RuleBasedExtractor();

    /** Subtracted from the confidence of most rules when the sentence is from the response. */
    static final double RESPONSE_PENALTY = 0.15;

    /** Longest sentence considered; longer ones are rarely a single memory. */
    static final int MAX_SENTENCE = 600;

    private record Rule(
            String name, MemoryType type, Pattern pattern, double confidence, boolean penalised) {}

    private static final int CI = Pattern.CASE_INSENSITIVE | Pattern.UNICODE_CASE;

    private static final String DATE =
            "(?:\\b\\d{4}-\\d{2}-\\d{2}\\b|\\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)"
                    + "[a-z]*\\.? \\d{1,2}(?:st|nd|rd|th)?\\b|\\b\\d{1,2}(?:st|nd|rd|th)? (?:of )?"
                    + "(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\\b"
                    + "|\\b(?:on|last|this past) (?:monday|tuesday|wednesday|thursday|friday"
                    + "|saturday|sunday)\\b|\\byesterday\\b|\\blast (?:week|night|month|quarter)\\b"
                    + "|\\bin q[1-4]\\b|\\bin (?:19|20)\\d{2}\\b)";

    private static final String NOT_ENTITY =
            "(?!(?i:it|this|that|these|those|there|here|what|which|who|how|why|when|where|i|we|you|they|he|she"
                    + "|thanks|thank|yes|no|sure|ok|okay|great|today|everything|nothing"
                    + "|something|everyone|nobody|one|each|all|some|any|my|your|our|their"
                    + "|the answer|the result|the idea|that one|so|but|and|also|well|hi|hello"
                    + "|looks|seems|apparently)\\b)";

    private static final String FACT_VERB =
            "(?:is (?:hosted on|deployed (?:on|to)|owned by|written in|built (?:on|with)|backed by"
                    + "|configured (?:with|to)|located in|maintained by|pinned to|limited to)"
                    + "|runs on|run on|runs in|uses|use|lives (?:in|on)|live (?:in|on)|depends on"
                    + "|listens on|stores|goes through|go through|is served by|sits behind"
                    + "|defaults to|talks to|reads from|writes to|was migrated to|is|are"
                    + "|has|requires|belongs to|points to|expires after|caches)";

    private static final List<Rule> RULES =
            List.of(
                    rule(
                            "problem_cause",
                            MemoryType.PROBLEM,
                            "\\b(?:failed|fails|failing|broke|breaks|crashed|crashes|errored"
                                    + "|timed out|times out|was broken|went down|kept restarting"
                                    + "|OOM(?:ed)?|leaked|(?:is|are|was|were|got) (?:slow|flaky|broken"
                                    + "|stuck|hanging)|outage|incident|errors?|5\\d\\ds)\\b.{0,120}"
                                    + "\\b(?:because|due to|since|caused by)\\b",
                            0.85,
                            false),
                    rule(
                            "problem_fix",
                            MemoryType.PROBLEM,
                            "\\b(?:fixed|resolved|solved|worked around|mitigated)\\b.{0,60}\\bby\\b"
                                    + "|\\bthe (?:fix|root cause|workaround|solution|culprit)"
                                    + " (?:was|is|turned out)\\b|\\broot cause\\b"
                                    + "|\\bturned out (?:to be|that)\\b"
                                    + "|\\b(?:fixed|fixes|solved|resolved) (?:it|this|the issue|the problem)\\b",
                            0.82,
                            false),
                    rule(
                            "decision",
                            MemoryType.DECISION,
                            "\\b(?:we|i|the team|team|they|leadership|management)"
                                    + " (?:have |'ve |had |finally |just )?(?:decided|chose|chosen"
                                    + "|agreed|settled on|opted|picked|went with|are going with"
                                    + "|will go with|voted to|committed to)\\b"
                                    + "|\\b(?:the )?decision(?: is| was|:)"
                                    + "|\\bit (?:was|has been|got) (?:decided|agreed)\\b"
                                    + "|^going forward,? |\\bwe(?:'ve| have)? picked\\b"
                                    + "|\\b(?:signed off on|approved the (?:move|switch|plan|proposal))\\b"
                                    + "|\\bwe(?:'re| are) (?:going with|standardi[sz]ing on|moving to"
                                    + "|switching to|dropping|deprecating)\\b",
                            0.85,
                            true),
                    rule(
                            "task_reminder",
                            MemoryType.TASK,
                            "\\bremind me to\\b|\\bTODO\\b|\\bdon't forget to\\b"
                                    + "|\\bdo not forget to\\b|\\bnext step is\\b"
                                    + "|\\baction item\\b|\\bfollow up (?:on|with)\\b"
                                    + "|^let's (?:revisit|look at|schedule|plan|review|finish|do)\\b"
                                    + ".{3,}\\b(?:next|tomorrow|later|on|by|after)\\b",
                            0.85,
                            true),
                    rule(
                            "task_need",
                            MemoryType.TASK,
                            "(?:\\b(?:i|we) |^)(?:still |also )?(?:need|have|must|should) to\\b.{3,}"
                                    + "\\b(?:by|before|until|next|tomorrow|this week|end of)\\b",
                            0.7,
                            true),
                    rule(
                            "preference_strong",
                            MemoryType.PREFERENCE,
                            "\\bi (?:really |strongly |usually |generally |always |definitely )?"
                                    + "(?:prefer|always use|never use|always want|never want"
                                    + "|do not (?:like|want)|don't (?:like|want)|hate|dislike"
                                    + "|avoid|rather)\\b"
                                    + "|\\bmy (?:preference|preferred|favou?rite|default)\\b"
                                    + "|\\b(?:please )?(?:always|never) (?:use|add|write|run|include"
                                    + "|format|reply|answer|respond|put|commit|push)\\b"
                                    + "|\\bi(?:'d| would) rather\\b|\\bi like (?:my|to|it when|when)\\b"
                                    + "|\\bi (?:go|went|usually go) with\\b"
                                    + "|^(?:please )?(?:don't|do not|never) (?:use|add|write|put|include"
                                    + "|send|ping|mention)\\b|\\bi(?:'d| would) like (?:all|my|every|the"
                                    + " answers|answers|responses)\\b|^whenever you\\b"
                                    + "|\\bi use .{2,40} (?:instead of|over|rather than)\\b",
                            0.85,
                            true),
                    rule(
                            "preference_like",
                            MemoryType.PREFERENCE,
                            "\\bi (?:really )?(?:like|love|enjoy|favou?r) (?!(?:it|that|this|them"
                                    + "|the idea|your)\\b)\\S+ \\S+",
                            0.65,
                            true),
                    rule(
                            "preference_imperative",
                            MemoryType.PREFERENCE,
                            "^(?:please )?(?:use|keep|write|format|reply|answer|put|add|sign)\\b"
                                    + ".{3,80}\\b(?:for me|in every|in all|always|every time"
                                    + "|whenever)\\b",
                            0.7,
                            true),
                    rule(
                            "relationship",
                            MemoryType.RELATIONSHIP,
                            "^[A-Z][a-z]+(?: [A-Z][a-z]+)? (?:reports to|is (?:my|our) (?:manager"
                                    + "|lead|boss|mentor|skip-level|director)|manages|mentors"
                                    + "|works closely with)\\b"
                                    + "|\\b[Mm]y (?:team lead|tech lead|manager|lead|boss|mentor"
                                    + "|skip-level|director) is [A-Z]",
                            0.75,
                            true),
                    rule(
                            "event_dated",
                            MemoryType.EVENT,
                            "(?=.*"
                                    + DATE
                                    + ").*\\b(?:released|shipped|deployed|launched|happened"
                                    + "|migrated|went live|upgraded|merged|had an? (?:outage"
                                    + "|incident)|was held|started|joined|left|signed|closed"
                                    + "|rolled back|announced|presented|completed|cut over|moved"
                                    + "|outage|incident|release|launch)\\b",
                            0.78,
                            true),
                    rule(
                            "procedure_to_run",
                            MemoryType.PROCEDURE,
                            "\\bto [a-z][\\w /-]{2,60},? (?:run|use|execute|call|type|invoke"
                                    + "|open|set|edit|add)\\b"
                                    + "|\\b(?:run|use|execute) [`'\"][^`'\"]{2,80}[`'\"] to\\b"
                                    + "|^(?:run|execute) `[^`]{2,80}`"
                                    + "|^steps to [a-z][\\w /-]{2,60}:"
                                    + "|^to (?!be |clarify|summari[sz]e|recap|sum up)[a-z][\\w /-]{2,60},"
                                    + " [a-z]+ |^(?:if|when|whenever) [^,]{3,80}, (?:kill|run|restart"
                                    + "|delete|rerun|scale|flush|purge|rotate|drain|call|page|ping|open"
                                    + "|file|set|bump|roll back|revert)\\b",
                            0.8,
                            false),
                    rule(
                            "procedure_sequence",
                            MemoryType.PROCEDURE,
                            "\\bfirst\\b.{1,120}\\bthen\\b",
                            0.72,
                            false),
                    rule(
                            "fact_our",
                            MemoryType.FACT,
                            "\\b(?:our|my|the team's) [\\w .-]{2,40}? " + FACT_VERB + "\\b",
                            0.78,
                            true),
                    rule(
                            "fact_component",
                            MemoryType.FACT,
                            "^the [a-z][\\w-]*(?: [a-z][\\w-]*){0,2} (?:service|cluster|team"
                                    + "|database|db|api|job|queue|bucket|repo|server|app|pipeline"
                                    + "|topic|index|cache|gateway|proxy) "
                                    + FACT_VERB
                                    + "\\b",
                            0.72,
                            true),
                    rule(
                            "fact_entity",
                            MemoryType.FACT,
                            "^(?:the )?"
                                    + NOT_ENTITY
                                    + "(?:[A-Z][\\w.+-]*(?: [A-Z0-9][\\w.+-]*){0,3}|`[^`]{2,60}`"
                                    + "|[a-z][\\w-]*[._/][\\w./-]+)"
                                    + "(?: service| cluster| team| database| db| api| job| queue"
                                    + "| bucket| repo| server| app| pipeline)? "
                                    + FACT_VERB
                                    + "\\b",
                            0.72,
                            true));

    private static Rule rule(
            String name, MemoryType type, String regex, double confidence, boolean penalised) {
        int flags = name.equals("fact_entity") || name.equals("relationship") ? 0 : CI;
        return new Rule(name, type, Pattern.compile(regex, flags), confidence, penalised);
    }

    /**
     * Fallback for the user's own declarative sentences that no rule matched: a statement about
     * something specific (a capitalised name after the first word, or a code-like or numeric token)
     * with a verb, and no hedge. FACT at {@link #STATEMENT_CONFIDENCE}, just above the default
     * gate. Not applied to the response: assistants state generic things all the time.
     */
    static final double STATEMENT_CONFIDENCE = 0.62;

    private static final Pattern SPECIFIC =
            Pattern.compile("^\\S+.*?(?:\\s[A-Z][\\w-]+|[\\w-]*[_./`\\d][\\w./`-]*)");

    private static final Pattern STATEMENT_VERB =
            Pattern.compile(
                    "\\b(?:is|are|was|were|has|have|uses|runs|ships|gets|goes|lives|sits|holds"
                            + "|contains|owns|handles|serves|stores|keeps|sends|calls|needs"
                            + "|requires|takes|expires|rotates|deploys|partitioned|configured"
                            + "|stored|hosted|managed|set to|backed)\\b",
                    CI);

    private static final Pattern NOT_STATEMENT =
            Pattern.compile(
                    "^(?:please |can |could |would |will |do |does |did |show|give|write|tell"
                            + "|explain|translate|convert|generate|summari[sz]e|list|find|make"
                            + "|create|help|let me|let's|thanks|thank|sorry|ok|okay|hmm|i think"
                            + "|maybe|what|why|how|where|when|who|which|if)\\b"
                            + "|\\b(?:not sure|i think|maybe|might|perhaps|probably|i guess|lol)\\b",
                    CI);

    private static final Pattern TRANSIENT =
            Pattern.compile(
                    "\\b(?:right now|at the moment|currently|for now|just now|as we speak"
                            + "|(?:is|are) (?:still )?(?:down|up|slow|loading|running|building|compiling|restarting)"
                            + "|are (?:down|slow)|i(?:'m| am) (?:looking|checking|trying|working"
                            + "|waiting|reading)|let me (?:check|look|see|try)|one sec|brb)\\b",
                    CI);

    private static final Pattern OPINION =
            Pattern.compile(
                    "^(?:\\S+ ){0,3}(?:is|are) (?:so |really |very |pretty |super |quite )?"
                            + "(?:great|awesome|cool|nice|good|bad|amazing|terrible|weird|funny"
                            + "|interesting|annoying|fine|ok|okay|hard|easy|fun|boring|wonderful)\\b",
                    CI);

    private static final Pattern REMIND = Pattern.compile("\\bremind me to\\b", CI);
    private static final Pattern STEP =
            Pattern.compile("^\\s*(?:\\d{1,2}[.)]|step \\d{1,2}[:.)]|[-*] \\[ \\])\\s+\\S.*", CI);
    private static final Pattern SENTENCE_END = Pattern.compile("(?<=[.!?])\\s+|\\n+");
    private static final Pattern LEAD_IN =
            Pattern.compile(
                    "^(?:also|btw|by the way|fyi|ok|okay|so|and|but|oh|note|heads up|just so you"
                            + " know)[,:]?\\s+",
                    CI);

    private RuleBasedExtractor() {}

    @Override
    public List<Candidate> extract(ExtractionInput input) {
        List<Candidate> out = new ArrayList<>();
        Set<String> seen = new HashSet<>();
        extractFrom(input.query(), false, out, seen);
        extractFrom(input.response(), true, out, seen);
        return List.copyOf(out);
    }

    private static void extractFrom(
            String text, boolean fromResponse, List<Candidate> out, Set<String> seen) {
        if (text.isBlank()) {
            return;
        }
        List<String> lines = text.lines().toList();
        StringBuilder prose = new StringBuilder();
        List<String> steps = new ArrayList<>();
        String stepLead = "";
        String previous = "";
        for (String line : lines) {
            if (STEP.matcher(line).matches()) {
                if (steps.isEmpty() && previous.strip().endsWith(":")) {
                    stepLead = previous.strip();
                }
                steps.add(line.strip());
            } else {
                flushSteps(steps, stepLead, out, seen);
                stepLead = "";
                prose.append(line).append('\n');
            }
            if (!line.isBlank()) {
                previous = line;
            }
        }
        flushSteps(steps, stepLead, out, seen);
        for (String raw : SENTENCE_END.split(prose)) {
            String sentence = LEAD_IN.matcher(raw.strip()).replaceFirst("");
            if (sentence.isEmpty() || sentence.length() > MAX_SENTENCE) {
                continue;
            }
            boolean question = sentence.endsWith("?");
            if (question && !REMIND.matcher(sentence).find()) {
                continue;
            }
            boolean matched = false;
            for (Rule r : RULES) {
                if (!r.pattern().matcher(sentence).find()) {
                    continue;
                }
                if (TRANSIENT.matcher(sentence).find() && r.type() != MemoryType.PROBLEM) {
                    matched = true;
                    break;
                }
                if (OPINION.matcher(sentence).find() && r.type() == MemoryType.FACT) {
                    matched = true;
                    break;
                }
                double c = r.confidence() - (fromResponse && r.penalised() ? RESPONSE_PENALTY : 0);
                add(out, seen, new Candidate(r.type(), clean(sentence), c, r.name()));
                matched = true;
                break;
            }
            if (!matched && !fromResponse && !question && statement(sentence)) {
                add(
                        out,
                        seen,
                        new Candidate(
                                MemoryType.FACT,
                                clean(sentence),
                                STATEMENT_CONFIDENCE,
                                "statement"));
            }
        }
    }

    private static boolean statement(String sentence) {
        return sentence.length() >= 20
                && sentence.length() <= 300
                && !NOT_STATEMENT.matcher(sentence).find()
                && !TRANSIENT.matcher(sentence).find()
                && !OPINION.matcher(sentence).find()
                && SPECIFIC.matcher(sentence).find()
                && STATEMENT_VERB.matcher(sentence).find();
    }

    private static void flushSteps(
            List<String> steps, String lead, List<Candidate> out, Set<String> seen) {
        if (steps.size() >= 2) {
            String body = String.join("\n", steps);
            String content = lead.isEmpty() ? body : lead + "\n" + body;
            add(out, seen, new Candidate(MemoryType.PROCEDURE, content, 0.8, "procedure_steps"));
        }
        steps.clear();
    }

    private static void add(List<Candidate> out, Set<String> seen, Candidate c) {
        if (seen.add(c.type() + ":" + TextNormalizer.normalize(c.content()))) {
            out.add(c);
        }
    }

    private static String clean(String sentence) {
        String s = sentence.strip();
        if (!s.isEmpty() && Character.isLowerCase(s.charAt(0))) {
            s = Character.toUpperCase(s.charAt(0)) + s.substring(1);
        }
        return s;
    }
}
