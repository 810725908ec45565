/**
 * Fair Housing language rules: words and phrases that state a preference, limitation or
 * discrimination based on a class the Fair Housing Act protects (42 U.S.C. 3604(c)): race, color,
 * religion, sex, disability, familial status, national origin.
 *
 * Sources for what is and is not a problem: HUD's "Guidance Regarding Advertisements Under §804(c)"
 * (the 1995 Achtenberg memo) and the word lists MLSs and Meta's housing ad review work from.
 * The aim is to catch phrases that describe *who should live here* and leave alone phrases that
 * describe *the property*: "master bedroom", "family room", "single-family home", "in-law suite",
 * "walk-in closet", "wheelchair ramp" and "near schools" are not flagged.
 *
 * One rule a line of thought. A rule has either a `replacement` (the matched words are rewritten,
 * `$1`… refer to the pattern's groups) or none (the whole sentence is removed).
 * Patterns are matched case-insensitively on word boundaries; write them in lower case.
 */

export const PROTECTED_CLASSES = [
  'race',
  'color',
  'religion',
  'sex',
  'disability',
  'familial status',
  'national origin',
] as const;
export type ProtectedClass = (typeof PROTECTED_CLASSES)[number];

export interface FairHousingRule {
  id: string;
  /** A phrase (matched as whole words, spaces and hyphens interchangeable) or a regular expression source. */
  phrase?: string;
  pattern?: string;
  protectedClass: ProtectedClass;
  reason: string;
  /** What to say instead, shown to the agent. */
  suggestion: string;
  /** Rewrite for the matched words; absent: the sentence is removed. */
  replacement?: string;
}

const WHO =
  '(?:an? |the )?(?:(?:young|older|mature|professional|working|growing|large|small) )?(?:couples?|singles|single (?:men|women|people|persons?|professionals?)|newlyweds|empty[ -]nesters|bachelors?|bachelorettes|retirees|seniors|famil(?:y|ies)|kids|children)';
// Not followed by a word that makes it a place name: Temple Terrace, Chapel Hill, Church Street.
const RELIGIOUS_PLACE =
  '(?:church(?:es)?|synagogues?|mosques?|temples?|cathedrals?|chapels?|parish(?:es)?)(?! (?:terrace|university|city|hills?|heights|street|st|avenue|ave|road|rd|lane|ln|drive|dr|creek|falls)\\b)';
const RELIGIONS = '(?:christian|catholic|protestant|jewish|muslim|islamic|hindu|buddhist|mormon|lds|evangelical|baptist)';
const NATIONALITIES =
  '(?:mexican|chinese|korean|japanese|vietnamese|filipino|indian|irish|italian|polish|russian|african|asian|hispanic|latino|latina|latinx|arab|middle[ -]eastern|european|caribbean|cuban|puerto rican)';
const RACES = '(?:white|black|caucasian|african[ -]american|asian|hispanic|latino|minority|colored)';
/** Who or what an area is described as; "area" not before "rug" (a white area rug is fine). */
const PEOPLE_OR_AREA = '(neighbou?rhood|community|area(?! rugs?)|enclave|block|part of town|buyers?|tenants?|famil(?:y|ies))';

export const FAIR_HOUSING_RULES: readonly FairHousingRule[] = [
  // Familial status
  {
    id: 'no-children',
    pattern: 'no (?:children|kids|kiddos|teens|teenagers|infants|babies|minors)(?: allowed)?',
    protectedClass: 'familial status',
    reason: 'Refusing children is discrimination based on familial status.',
    suggestion: 'Remove it: describe the home, not who may live in it.',
  },
  {
    id: 'adults-only',
    pattern: '(?:adults?[ -]only|adult community only|only adults)',
    protectedClass: 'familial status',
    reason: 'Limiting a home to adults excludes families with children.',
    suggestion: 'Remove it (housing for older persons has its own legal exemption and wording).',
  },
  {
    id: 'perfect-for-who',
    pattern: `(perfect|ideal|great|suited|suitable|designed|made) for ${WHO}(?:(?:,| or| and|, or|, and) ${WHO})*`,
    protectedClass: 'familial status',
    reason: 'Saying a home suits a certain kind of household states a preference based on familial status.',
    suggestion: 'Say who the home suits by its features, e.g. "perfect for entertaining", or "perfect for any buyer".',
    replacement: '$1 for any buyer',
  },
  {
    id: 'who-only',
    pattern: `${WHO} only`,
    protectedClass: 'familial status',
    reason: 'Limiting a home to one kind of household is discrimination based on familial status.',
    suggestion: 'Remove it: anyone may buy or rent the home.',
  },
  {
    id: 'family-neighborhood',
    pattern: '(?:family|family[ -]friendly|family[ -]oriented|kid[ -]friendly) (neighbou?rhood|community|area|street|block|subdivision)',
    protectedClass: 'familial status',
    reason: 'Calling an area a family neighborhood signals a preference for households with children.',
    suggestion: 'Describe the place itself, e.g. "friendly neighborhood" or "quiet street".',
    replacement: 'friendly $1',
  },
  {
    id: 'mature-persons',
    pattern: '(?:an? )?mature (?:couples?|persons?|people|adults?|individuals?|residents?|buyers?|tenants?)',
    protectedClass: 'familial status',
    reason: 'Asking for mature occupants excludes families with children.',
    suggestion: 'Remove it, or say "buyers".',
    replacement: 'buyers',
  },
  {
    id: 'bachelor-pad',
    phrase: 'bachelor pad',
    protectedClass: 'sex',
    reason: 'A "bachelor pad" implies the home is meant for a single man (sex and familial status).',
    suggestion: 'Say "stylish retreat" or describe the space.',
    replacement: 'stylish retreat',
  },
  {
    id: 'no-families',
    pattern: 'no (?:families|couples|pregnant women|expecting (?:mothers|parents))',
    protectedClass: 'familial status',
    reason: 'Refusing families, couples or pregnant women is discrimination based on familial status.',
    suggestion: 'Remove it.',
  },
  {
    id: 'limit-children',
    pattern: '(?:one|1|two|2|max(?:imum)?(?: of)? (?:one|1|two|2)) (?:child|children|kids?) (?:max|maximum|only|limit)',
    protectedClass: 'familial status',
    reason: 'Limiting the number of children is discrimination based on familial status.',
    suggestion: 'Remove it; occupancy limits must be stated in neutral terms.',
  },
  {
    id: 'not-for-children',
    pattern: 'not (?:suitable|suited|safe|ideal|appropriate) for (?:children|kids|families|toddlers)',
    protectedClass: 'familial status',
    reason: 'Discouraging families with children is discrimination based on familial status.',
    suggestion: 'Describe the feature instead (e.g. "pool without a fence").',
  },
  {
    id: 'empty-nesters',
    pattern: 'empty[ -]nesters?',
    protectedClass: 'familial status',
    reason: 'Addressing empty nesters signals a preference for households without children.',
    suggestion: 'Say "buyers looking to downsize" or describe the home\'s size.',
    replacement: 'buyers looking to downsize',
  },
  {
    id: 'couples-singles',
    pattern: '(?:an? )?(?:young|single|childless) (?:couples?|professionals?|singles?|people|persons?)',
    protectedClass: 'familial status',
    reason: 'Addressing a kind of household states a preference based on familial status.',
    suggestion: 'Say "buyers" or describe the home.',
    replacement: 'buyers',
  },
  {
    id: 'retirement-home',
    pattern: '(perfect|ideal|great) (?:retirement|senior) (home|living|spot|retreat)',
    protectedClass: 'familial status',
    reason: 'Marketing a home to retirees signals a preference based on familial status and age.',
    suggestion: 'Describe the features, e.g. "single-level living".',
    replacement: '$1 $2',
  },

  // Sex
  {
    id: 'one-sex-only',
    pattern: '(?:males?|females?|men|women|ladies|gentlemen|guys|girls) only',
    protectedClass: 'sex',
    reason: 'Limiting a home to one sex is discrimination based on sex.',
    suggestion: 'Remove it.',
  },
  {
    id: 'no-one-sex',
    pattern: 'no (?:males|females|men|women|ladies|gentlemen|guys|girls)',
    protectedClass: 'sex',
    reason: 'Refusing people of one sex is discrimination based on sex.',
    suggestion: 'Remove it.',
  },
  {
    id: 'perfect-for-sex',
    pattern: '(perfect|ideal|great|made) for (?:a )?(?:man|woman|men|women|gentleman|gentlemen|lady|ladies|guy|guys|girl|girls|bachelor|bachelorette)',
    protectedClass: 'sex',
    reason: 'Saying a home suits men or women states a preference based on sex.',
    suggestion: 'Say "perfect for any buyer" or describe the feature.',
    replacement: '$1 for any buyer',
  },
  {
    id: 'bachelor-bachelorette',
    pattern: 'bachelorette (?:pad|apartment|condo|home)',
    protectedClass: 'sex',
    reason: 'Implies the home is meant for a single woman.',
    suggestion: 'Say "stylish retreat" or describe the space.',
    replacement: 'stylish retreat',
  },

  // Disability
  {
    id: 'no-wheelchairs',
    pattern: 'no (?:wheelchairs?|wheel chairs?|walkers|disabled|handicapped|handicaps)',
    protectedClass: 'disability',
    reason: 'Refusing people who use wheelchairs or have disabilities is discrimination based on disability.',
    suggestion: 'Remove it; describe accessibility features factually (e.g. "second-floor unit, stairs only").',
  },
  {
    id: 'able-bodied',
    pattern: '(?:able[ -]bodied|physically fit|physically able)(?: (?:persons?|people|buyers?|tenants?|residents?|individuals?|only))?',
    protectedClass: 'disability',
    reason: 'Asking for able-bodied or healthy occupants is discrimination based on disability.',
    suggestion: 'Remove it.',
  },
  {
    id: 'must-climb',
    pattern: 'must (?:be able to )?(?:climb|walk|use) (?:the )?stairs',
    protectedClass: 'disability',
    reason: 'Requiring occupants to climb stairs excludes people with disabilities; state the layout instead.',
    suggestion: 'Say "second-floor unit, stairs only".',
    replacement: 'access is by stairs',
  },
  {
    id: 'not-for-disabled',
    pattern: 'not (?:suitable|suited|ideal|appropriate|meant) for (?:the )?(?:disabled|handicapped|elderly|wheelchair users|people with disabilities)',
    protectedClass: 'disability',
    reason: 'Discouraging people with disabilities is discrimination based on disability.',
    suggestion: 'Describe the layout factually instead.',
  },
  {
    id: 'disability-slurs',
    pattern: '(?:crippled|cripples|retarded|mentally ill|mental patients?)',
    protectedClass: 'disability',
    reason: 'Words about mental or physical disability have no place in a housing ad and signal a limitation.',
    suggestion: 'Remove it.',
  },
  {
    id: 'no-service-animals',
    pattern: 'no (?:service|assistance|support|emotional support) (?:animals?|dogs?)',
    protectedClass: 'disability',
    reason: 'Service and assistance animals are a reasonable accommodation; refusing them discriminates based on disability.',
    suggestion: 'Remove it (a "no pets" policy may be stated on its own).',
  },
  {
    id: 'no-mental-illness',
    pattern: 'no (?:mental(?:ly)? (?:illness|ill|health (?:issues|conditions))|alcoholics|recovering addicts|hiv)',
    protectedClass: 'disability',
    reason: 'Refusing people with mental illness, recovery from addiction or HIV is discrimination based on disability.',
    suggestion: 'Remove it.',
  },
  {
    id: 'independent-only',
    pattern: '(?:must be|only for) (?:independent|self[ -]sufficient|ambulatory)',
    protectedClass: 'disability',
    reason: 'Requiring independent or ambulatory occupants is discrimination based on disability.',
    suggestion: 'Remove it.',
  },

  // Religion
  {
    id: 'near-religious-place',
    pattern: `(?:(?:within |in )?walking distance (?:to|of|from)|steps (?:to|from)|walk to|near(?:by)?|close to|next to|across from|minutes from|blocks from) (?:the |a |an |your |local |st\\.? [a-z]+'?s? |[a-z]+ )?${RELIGIOUS_PLACE}`,
    protectedClass: 'religion',
    reason: 'Pointing to a place of worship signals a preference for buyers of that religion.',
    suggestion: 'Point to neutral landmarks instead, e.g. "close to shops, parks and dining".',
    replacement: 'close to local amenities',
  },
  {
    id: 'religious-home',
    pattern: `${RELIGIONS} (home|household|family|families|community|neighbou?rhood|area|buyers?|tenants?|owners?)`,
    protectedClass: 'religion',
    reason: 'Describing a home or area by religion states a religious preference.',
    suggestion: 'Remove the religious description.',
    replacement: '$1',
  },
  {
    id: 'religion-only',
    pattern: `${RELIGIONS}s? only`,
    protectedClass: 'religion',
    reason: 'Limiting a home to one religion is discrimination based on religion.',
    suggestion: 'Remove it.',
  },
  {
    id: 'no-religion',
    pattern: 'no (?:christians|catholics|protestants|jews|muslims|hindus|buddhists|mormons|atheists)',
    protectedClass: 'religion',
    reason: 'Refusing people of a religion is discrimination based on religion.',
    suggestion: 'Remove it.',
  },
  {
    id: 'religious-lifestyle',
    pattern: '(?:god[ -]fearing|church[ -]going|bible[ -]believing|born[ -]again|faith[ -]based community)',
    protectedClass: 'religion',
    reason: 'Religious descriptions of buyers or a community state a religious preference.',
    suggestion: 'Remove it.',
  },
  {
    id: 'perfect-for-religion',
    pattern: `(perfect|ideal|great) for (?:a )?${RELIGIONS}s?(?: (?:family|families|buyers?|couples?))?`,
    protectedClass: 'religion',
    reason: 'Saying a home suits people of a religion states a religious preference.',
    suggestion: 'Say "perfect for any buyer".',
    replacement: '$1 for any buyer',
  },

  // Race and color
  {
    id: 'exclusive-neighborhood',
    pattern: '(?:exclusive|restricted|segregated) (neighbou?rhood|community|area|enclave|subdivision|street|location)',
    protectedClass: 'race',
    reason: '"Exclusive" or "restricted" neighborhood has long been code for excluding people by race.',
    suggestion: 'Say "desirable neighborhood" or name what makes it desirable.',
    replacement: 'desirable $1',
  },
  {
    id: 'race-neighborhood',
    pattern: `${RACES} ${PEOPLE_OR_AREA}`,
    protectedClass: 'race',
    reason: 'Describing an area or buyers by race states a racial preference.',
    suggestion: 'Describe the area without reference to who lives there.',
  },
  {
    id: 'race-only',
    pattern: `${RACES}s? only`,
    protectedClass: 'race',
    reason: 'Limiting a home to one race is discrimination based on race.',
    suggestion: 'Remove it.',
  },
  {
    id: 'no-race',
    pattern: 'no (?:blacks|whites|asians|hispanics|latinos|minorities|coloreds)',
    protectedClass: 'race',
    reason: 'Refusing people of a race is discrimination based on race.',
    suggestion: 'Remove it.',
  },
  {
    id: 'racial-code-words',
    pattern: '(?:ghetto|barrio|integrated neighbou?rhood|racially (?:mixed|diverse|balanced)|changing neighbou?rhood)',
    protectedClass: 'race',
    reason: 'Racial code words describe who lives in an area, not the home.',
    suggestion: 'Describe the neighborhood\'s amenities instead.',
  },
  {
    id: 'skin-color',
    pattern: '(?:light|dark|fair)[ -]skinned',
    protectedClass: 'color',
    reason: 'References to skin color state a preference based on color.',
    suggestion: 'Remove it.',
  },

  // National origin
  {
    id: 'nationality-neighborhood',
    pattern: `${NATIONALITIES} ${PEOPLE_OR_AREA}`,
    protectedClass: 'national origin',
    reason: 'Describing an area or buyers by national origin states a preference.',
    suggestion: 'Describe the area\'s amenities instead.',
  },
  {
    id: 'ethnic-neighborhood',
    pattern: '(?:ethnic|foreign) (neighbou?rhood|community|area|enclave)',
    protectedClass: 'national origin',
    reason: 'Describing an area by the ethnicity of its residents states a preference based on national origin.',
    suggestion: 'Say "vibrant neighborhood" or name the amenities.',
    replacement: 'vibrant $1',
  },
  {
    id: 'language-required',
    pattern: '(?:english[ -]speak(?:ing|ers?) only|must speak english|english only|no (?:english )?accents?|speak(?:s)? english only)',
    protectedClass: 'national origin',
    reason: 'Requiring a language is discrimination based on national origin.',
    suggestion: 'Remove it.',
  },
  {
    id: 'no-foreigners',
    pattern: '(?:no (?:foreigners|immigrants|aliens|illegals|refugees)|(?:americans|us citizens|u\\.s\\. citizens|citizens|natives|native[ -]born) only)',
    protectedClass: 'national origin',
    reason: 'Refusing people by national origin or immigration status is discrimination based on national origin.',
    suggestion: 'Remove it.',
  },
  {
    id: 'nationality-only',
    pattern: `${NATIONALITIES}s? only`,
    protectedClass: 'national origin',
    reason: 'Limiting a home to a national origin is discrimination.',
    suggestion: 'Remove it.',
  },
  {
    id: 'perfect-for-nationality',
    pattern: `(perfect|ideal|great) for (?:an? )?${NATIONALITIES}(?: (?:family|families|buyers?|couples?))?`,
    protectedClass: 'national origin',
    reason: 'Saying a home suits people of a national origin states a preference.',
    suggestion: 'Say "perfect for any buyer".',
    replacement: '$1 for any buyer',
  },

  // Any class: steering language
  {
    id: 'kind-of-people',
    pattern: '(?:people like you|your kind of people|our kind of people|like[ -]minded (?:neighbou?rs|people|buyers|community))',
    protectedClass: 'race',
    reason: 'Talking about the kind of people who live there steers buyers by the makeup of the neighborhood.',
    suggestion: 'Remove it; describe the home and the area\'s amenities.',
  },
  {
    id: 'traditional-values',
    pattern: '(?:traditional|family|christian|conservative) values',
    protectedClass: 'religion',
    reason: 'Talking about the values of residents states a preference about who should live there.',
    suggestion: 'Remove it.',
  },
  {
    id: 'restricted-covenants',
    pattern: 'restricted (?:membership|covenants?|deed)',
    protectedClass: 'race',
    reason: 'Restricted covenants historically excluded buyers by race and religion.',
    suggestion: 'Describe the HOA or its amenities neutrally.',
  },
  {
    id: 'not-for-pregnant',
    pattern: '(?:not suitable|not suited|unsuitable) for (?:a )?(?:pregnant|expecting|new) (?:women|mothers|parents|families)',
    protectedClass: 'familial status',
    reason: 'Discouraging pregnant women or new parents is discrimination based on familial status.',
    suggestion: 'Remove it.',
  },
];
