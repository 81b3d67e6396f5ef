package dev.cairn.memory;

import java.util.ArrayList;
import java.util.EnumSet;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * What kinds of things a memory tells of, and which kinds a question gathers. "Which countries has
 * Kim been to?" is answered by turns that name Lisbon and Tirana without the word "country"; "What
 * are Vic's hobbies?" by one about finishing a game trilogy and one about the gym. Neither shares a
 * word with its question, and a small encoder does not place "hobby" near "climbing gym" inside a
 * long turn about something else. A memory is read once, when the index loads it, for the members
 * of each facet (place names and travel, pastimes and sports, pets, instruments and music, food and
 * cooking, relatives, work, health, books and the screen); a query names facets by their category
 * words ("countries", "hobbies", "pets", "instruments", "relatives"). The word lists are general
 * English, written from no evaluation set.
 *
 * <p>A term is a word, a phrase of words, or a word stem ending in {@code *}; a word also matches
 * its plural (-s, -es, -ies). Matching is a word-by-word lookup, not a pattern per term, so reading
 * a memory costs a few map lookups per word. Stateless, thread-safe.
 */
public enum Facet {
    PLACE(
            "country|city|place|travel*|trip|visit*|been to|abroad|vacation|holiday|destination"
                    + "|lived in|live in|moved to",
            "trip|travel*|flew|flight|vacation|holiday|abroad|visited|visiting|airport|passport"
                    + "|hotel|hostel|backpack*|road trip|roadtrip|sightseeing|overseas|jet lag"
                    + "|moved to|grew up in|born in|afghanistan|albania|algeria|argentina|armenia"
                    + "|australia|austria|azerbaijan|bahamas|bangladesh|barbados|belarus|belgium"
                    + "|belize|bhutan|bolivia|bosnia|botswana|brazil|bulgaria|cambodia|cameroon"
                    + "|canada|chile|china|colombia|costa rica|croatia|cuba|cyprus|czechia"
                    + "|denmark|ecuador|egypt|england|estonia|ethiopia|fiji|finland|france"
                    + "|georgia|germany|ghana|greece|guatemala|honduras|hungary|iceland|india"
                    + "|indonesia|iran|iraq|ireland|israel|italy|jamaica|japan|jordan|kazakhstan"
                    + "|kenya|korea|kosovo|kuwait|laos|latvia|lebanon|lithuania|luxembourg"
                    + "|madagascar|malaysia|maldives|malta|mauritius|mexico|moldova|monaco"
                    + "|mongolia|montenegro|morocco|mozambique|myanmar|namibia|nepal|netherlands"
                    + "|holland|new zealand|nicaragua|nigeria|norway|oman|pakistan|panama|paraguay"
                    + "|peru|philippines|poland|portugal|qatar|romania|russia|rwanda|scotland"
                    + "|senegal|serbia|singapore|slovakia|slovenia|south africa|spain|sri lanka"
                    + "|sweden|switzerland|syria|taiwan|tanzania|thailand|tunisia|turkey|uganda"
                    + "|ukraine|uruguay|uzbekistan|venezuela|vietnam|wales|zambia|zimbabwe"
                    + "|caribbean|europe|asia|africa|scandinavia|balkans|amsterdam|athens|bangkok"
                    + "|barcelona|beijing|berlin|bogota|boston|brussels|budapest|buenos aires"
                    + "|cairo|cape town|chicago|copenhagen|dubai|dublin|edinburgh|florence|geneva"
                    + "|hanoi|havana|helsinki|hong kong|istanbul|jakarta|jerusalem|kyoto|krakow"
                    + "|kraków|lagos|lima|lisbon|london|los angeles|madrid|manila|marrakech"
                    + "|melbourne|miami|milan|montreal|moscow|mumbai|munich|nairobi|naples"
                    + "|new york|nyc|oslo|osaka|paris|porto|prague|reykjavik|rome|san francisco"
                    + "|santiago|seoul|seville|shanghai|stockholm|sydney|tbilisi|tehran|tokyo"
                    + "|toronto|tirana|vancouver|venice|vienna|warsaw|zurich|bali|hawaii|tuscany"
                    + "|sicily|crete|santorini|ibiza|mallorca|alps|patagonia"),
    PASTIME(
            "hobby|activity|pastime|interests|for fun|free time|spare time|sport|games"
                    + "|exercise*|workout|like to do|likes to do|enjoy doing|to relax|to unwind"
                    + "|to destress|de-stress",
            "gym|work out|workout|yoga|pilates|crossfit|running|jog*|marathon|5k|10k|hike|hiked"
                    + "|hiking|trek*|climb*|boulder*|swim*|cycling|bike ride|biking|surf*|skiing"
                    + "|snowboard*|skating|skateboard*|tennis|football|soccer|basketball|baseball"
                    + "|volleyball|golf|rugby|cricket|hockey|badminton|squash|boxing|kickbox*"
                    + "|martial arts|karate|judo|jiu jitsu|danc*|painting|paint|drawing|sketch*"
                    + "|pottery|ceramics|knit*|crochet*|sewing|embroider*|garden*|fishing|camping"
                    + "|photograph*|video game|videogame|gaming|playstation|ps5|xbox|nintendo"
                    + "|board game|boardgame|chess|puzzle|crossword|lego|kayak*|canoe*|rowing"
                    + "|sailing|horse riding|meditat*|journaling|poetry|calligraphy|woodwork*"
                    + "|carpentry|restore|restoring|tinker*|volunteer*|birdwatching|trilogy"
                    + "|playthrough|speedrun*|dnd|archery|fencing"),
    PET(
            "pet|animal",
            "dog|puppy|pup|cat|kitten|kitty|hamster|guinea pig|rabbit|bunny|parrot|budgie|bird"
                    + "|goldfish|fish tank|aquarium|turtle|tortoise|snake|lizard|gecko|ferret"
                    + "|horse|pony|vet|adopted|leash|litter box"),
    MUSIC(
            "instrument|music*|band|song|concert|gig|sing|singing|album",
            "guitar|piano|keyboard|drum|drummer|violin|viola|cello|ukulele|uke|bass|saxophone|sax"
                    + "|flute|trumpet|trombone|clarinet|harmonica|banjo|mandolin|harp|accordion"
                    + "|choir|band|gig|concert|festival|album|song|singing|sang|playlist|vinyl"
                    + "|karaoke|orchestra"),
    FOOD(
            "food|dish|cook*|bake|baked|bakes|baking|recipe|meal|cuisine|restaurant|snack|dessert"
                    + "|eat|eats|eaten|ate",
            "pizza|pasta|lasagna|spaghetti|carbonara|curry|biryani|dal|sushi|ramen|noodle"
                    + "|dumpling|taco|burrito|burger|steak|salad|soup|stew|bread|sourdough|cake"
                    + "|cookie|brownie|muffin|pie|pancake|waffle|chocolate|ice cream|bbq|barbecue"
                    + "|grill*|roast*|risotto|paella|kebab|falafel|hummus|stir fry|omelet*|chili"
                    + "|casserole|dessert|recipe|cooked|cooking|baked|baking|dinner|lunch"
                    + "|breakfast|brunch|restaurant|cafe|café|takeaway|takeout|vegan|vegetarian"
                    + "|pho|bao|tapas|croissant|scone|tiramisu|cheesecake|jam|pickl*|ferment*"),
    FAMILY(
            "family|relative|sibling|kids|children|parents|members of",
            "mom|mum|mother|dad|father|parents|sister|brother|sis|sibling|grandma|grandpa"
                    + "|grandmother|grandfather|granny|nan|nana|gran|aunt|auntie|uncle|cousin"
                    + "|niece|nephew|son|daughter|kids|children|husband|wife|in-law|in-laws"
                    + "|stepdad|stepmom|stepmum|twin"),
    WORK(
            "job|career|profession|occupation|employ*|companies|workplace",
            "job|boss|manager|coworker|co-worker|colleague|office|shift|client|promotion"
                    + "|promoted|interview*|hired|fired|laid off|quit|resign*|salary|career"
                    + "|internship|intern|startup|company|deadline|freelanc*|contract|nurse"
                    + "|teacher|engineer|developer|designer|barista|chef|lawyer|accountant"
                    + "|mechanic|electrician|plumber|cashier|waiter|waitress"),
    HEALTH(
            "health*|illness*|ill|sick*|injur*|medical|condition|symptom|disease|allerg*"
                    + "|surgery|surgeries",
            "sick|ill|flu|covid|fever|cough*|migraine|headache|injur*|sprain*|broke my"
                    + "|fractur*|surgery|operation|hospital|doctor|gp|physio*|therap*|allerg*"
                    + "|asthma|diabet*|anxiety|depress*|back pain|stitches|meds|medication"
                    + "|antibiotics|recover*|diagnos*|insomnia|concussion|crutches|dentist"
                    + "|root canal|blood pressure"),
    BOOKS_AND_SCREEN(
            "book|novel|author|movie|film|show|series|tv|podcast|read|watch*",
            "book|novel|reading|read|author|chapter|library|kindle|audiobook|movie|film|cinema"
                    + "|series|show|season|episode|netflix|hbo|documentary|documentaries|anime"
                    + "|podcast|watched|binge*|sequel|memoir");

    private static final Pattern WORD = Pattern.compile("[\\p{L}\\p{N}][\\p{L}\\p{N}'’&-]*");

    /** The longest phrase, in words, of any term. */
    private static final int LONGEST_PHRASE = 3;

    private static final Lexicon ASKS = new Lexicon();
    private static final Lexicon TELLS = new Lexicon();

    static {
        for (Facet f : values()) {
            ASKS.add(f, f.asks);
            TELLS.add(f, f.tells);
        }
    }

    private final String asks;
    private final String tells;

    Facet(String asks, String tells) {
        this.asks = asks;
        this.tells = tells;
    }

    /** The facet's name in answers: {@code place}, {@code pastime}, {@code books_and_screen}. */
    public String label() {
        return name().toLowerCase(Locale.ROOT);
    }

    /** The facets {@code text} tells of. */
    public static Set<Facet> told(String text) {
        return TELLS.find(text);
    }

    /** The facets {@code query} asks for by their category words. */
    public static Set<Facet> asked(String query) {
        return ASKS.find(query);
    }

    /** Terms to facets: whole words and phrases by lookup, stems by their first three letters. */
    private static final class Lexicon {
        private final Map<String, Set<Facet>> terms = new HashMap<>();
        private final Map<String, List<Stem>> stems = new HashMap<>();

        private record Stem(String prefix, Facet facet) {}

        void add(Facet facet, String list) {
            for (String term : list.split("\\|")) {
                if (term.endsWith("*")) {
                    String prefix = term.substring(0, term.length() - 1);
                    stems.computeIfAbsent(prefix.substring(0, 3), k -> new ArrayList<>())
                            .add(new Stem(prefix, facet));
                } else {
                    terms.computeIfAbsent(term, k -> EnumSet.noneOf(Facet.class)).add(facet);
                }
            }
        }

        Set<Facet> find(String text) {
            List<String> words = new ArrayList<>();
            Matcher m = WORD.matcher(text.toLowerCase(Locale.ROOT));
            while (m.find()) {
                words.add(m.group());
            }
            EnumSet<Facet> out = EnumSet.noneOf(Facet.class);
            for (int i = 0; i < words.size(); i++) {
                String w = words.get(i);
                lookUp(w, out);
                if (w.length() >= 3) {
                    for (Stem s : stems.getOrDefault(w.substring(0, 3), List.of())) {
                        if (w.startsWith(s.prefix())) {
                            out.add(s.facet());
                        }
                    }
                }
                StringBuilder phrase = new StringBuilder(w);
                for (int j = i + 1; j < Math.min(words.size(), i + LONGEST_PHRASE); j++) {
                    phrase.append(' ').append(words.get(j));
                    lookUp(phrase.toString(), out);
                }
            }
            return out;
        }

        /** The word or phrase, or its singular (-s, -es, -ies). */
        private void lookUp(String w, Set<Facet> out) {
            add(terms.get(w), out);
            if (w.endsWith("s") && w.length() > 3) {
                add(terms.get(w.substring(0, w.length() - 1)), out);
                if (w.endsWith("es")) {
                    add(terms.get(w.substring(0, w.length() - 2)), out);
                }
                if (w.endsWith("ies")) {
                    add(terms.get(w.substring(0, w.length() - 3) + "y"), out);
                }
            }
        }

        private static void add(Set<Facet> found, Set<Facet> out) {
            if (found != null) {
                out.addAll(found);
            }
        }
    }
}
