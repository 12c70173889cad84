// English function words that carry no topic of their own. Coverage scorers skip them so
// that "what is the weather in Paris" is judged on "weather" and "paris", not on "the".
// Tokens here are in the normalised form `tokenize` produces (lower case, no apostrophes);
// contractions that collide with content words once the apostrophe is gone ("we'll" → "well",
// "I'd" → "id") are left out on purpose.

const words = `
a about above after again against all almost also am an and any are around as at
be because been before being below between both but by
can cannot could
did do does doing done down during
each either else enough etc even ever every
few for from further
get gets got
had has have having he her here hers herself him himself his how however
i if in into is it its itself
just
let lets like
may me might more most much must my myself
neither no nor not now
of off often on once one only or other otherwise our ours ourselves out over own
per please
quite
rather really
said same say says shall she should since so some such
than that thats the their theirs them themselves then there therefore these they this those
though through thus to too toward towards
under until up upon us
very via
was we were what whatever when where whether which while who whom whose why will with
within without would
yes yet you your yours yourself yourselves
dont doesnt didnt cant couldnt wont wouldnt shouldnt isnt arent wasnt werent havent hasnt
hadnt im ive youre youve youd youll hes shes weve theyre theyve theyd theyll whats wheres
whos hows
`;

export const englishStopWords: ReadonlySet<string> = new Set(words.split(/\s+/).filter(Boolean));

export function isStopWord(token: string): boolean {
  return englishStopWords.has(token);
}
