/**
 * English function words and question scaffolding. They carry no topic, so they are dropped from
 * keyword queries, hashed-embedding features and overlap checks. Pronouns and auxiliaries are here
 * because memory queries are questions ("what did she ...").
 */
export const STOP_WORDS: ReadonlySet<string> = new Set(
  `a about above after again against all am an and any are aren't as at be because been before being below
between both but by can can't cannot could couldn't did didn't do does doesn't doing don't down during each few
for from further had hadn't has hasn't have haven't having he he'd he'll he's her here here's hers herself him
himself his how how's i i'd i'll i'm i've if in into is isn't it it's its itself let's me more most mustn't my
myself no nor not of off on once only or other ought our ours ourselves out over own same shan't she she'd
she'll she's should shouldn't so some such than that that's the their theirs them themselves then there there's
these they they'd they'll they're they've this those through to too under until up very was wasn't we we'd
we'll we're we've were weren't what what's when when's where where's which while who who's whom why why's with
won't would wouldn't you you'd you'll you're you've your yours yourself yourselves also just really like get got
will shall may might must yes yeah oh hey hi ok okay s t d ll re ve m im ive dont didnt doesnt isnt wasnt`.split(/\s+/),
);

/**
 * Words that are not function words but are too common in coding sessions to say what a session was
 * about ("run", "file", "change", "please"). Where a summary picks topic words (a slug, keywords, a
 * group name), these are skipped together with the stop words; recall keeps them, since a question may
 * hinge on "run" or "file".
 */
const SESSION_FILLER_WORDS: ReadonlySet<string> = new Set(
  `let now please us use used using much need needs new one sure thanks thank via want way well make made see
run file files code add added change changes`.split(/\s+/),
);

/** Whether a lower-case word can name what a session or a group of sessions is about. */
export function isTopicWord(word: string): boolean {
  return !STOP_WORDS.has(word) && !SESSION_FILLER_WORDS.has(word);
}
