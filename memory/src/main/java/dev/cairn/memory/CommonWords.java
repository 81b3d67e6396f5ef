package dev.cairn.memory;

import java.util.Arrays;
import java.util.Set;

/**
 * Frequent English and chat words that are no one's name: what a greeting is followed by when it
 * addresses nobody ("hey there", "thanks so much", "love you too", "morning guys"), the words a
 * query shares with everyday text ("will", "may"), and the terms of endearment a chat uses for
 * whoever it talks to ("babe", "dude"), which would make everyone the same person. Names are only
 * learned and matched outside this list ({@link NameMentions}, {@link PersonNames}). Stateless,
 * thread-safe.
 */
final class CommonWords {

    private static final Set<String> WORDS =
            Set.copyOf(
                    Arrays.asList(
                            """
                            a about after again all also am an and any are as at back be been before
                            being both but by can could did do does done each even ever every for
                            from had has have having he her here hers him his how i if in into is it
                            its just may me might mine more most much must my no not now of off on
                            once one only or other our out over own same she should so some still
                            such than that the their them then there these they this those though
                            through to too under until up us very was we well were what when where
                            which while who whom whose why will with would yet you your yours
                            yourself everyone everybody anyone someone nobody something nothing
                            everything anything today tonight tomorrow yesterday later soon ago next
                            last
                            u ur ya yall y'all yes yeah yep yup yea nope nah ok okay okk kk lol lmao
                            haha hahaha hehe omg wow oh ohh ah aw aww um umm hmm btw tbh idk ngl pls
                            plz please thanks thank thx sorry hey hi hello bye morning night evening
                            afternoon guys guy all folks fam there again lots loads bunch heaps tons
                            alot cool nice great good awesome amazing sure right true fine happy sad
                            glad welcome congrats birthday sweet dear i'm im it's its that's thats
                            you're youre we're gonna wanna gotta cuz coz because really totally
                            definitely literally actually seriously honestly anyway anyways man dude
                            bro bruh sis girl girls boy boys mate buddy pal friend friends babe baby
                            love luv hun honey sweetie sweetheart darling boss chief stranger
                            sunshine champ legend queen king team mom mum dad mama papa bestie soo
                            sooo much lot for such x xx xo xoxo a an the hope see talk catch speak
                            chat tell let get got go going went know think feel say said wait look
                            check ive i've i'd i'll can't cant don't dont didn't didnt won't wont
                            what's whats how's hows new old big little first best better bad worse
                            worst long day days week weeks weekend month months year years time
                            times people person family work home school life
                            user users agent assistant bot system admin guest test human customer
                            client speaker member owner
                            monday tuesday wednesday thursday friday saturday sunday january
                            february march april june july august september october november
                            december christmas easter
                            """
                                    .strip()
                                    .split("\\s+")));

    private CommonWords() {}

    /** Whether {@code word} (any case, a trailing possessive left out) is in the list. */
    static boolean contains(String word) {
        return WORDS.contains(NameMentions.lower(word));
    }
}
