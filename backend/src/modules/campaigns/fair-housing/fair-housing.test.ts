import { checkFairHousing, rewriteForFairHousing, sentenceSpans } from './fair-housing';
import { FAIR_HOUSING_RULES, PROTECTED_CLASSES } from './fair-housing.rules';

const phrases = (text: string) => checkFairHousing(text).map((f) => f.phrase);
const classes = (text: string) => checkFairHousing(text).map((f) => f.protectedClass);

describe('the rule list', () => {
  it('has 40+ rules, each with a pattern, a protected class, a reason and a suggestion, and unique ids', () => {
    expect(FAIR_HOUSING_RULES.length).toBeGreaterThanOrEqual(40);
    const ids = new Set<string>();
    for (const rule of FAIR_HOUSING_RULES) {
      expect(rule.phrase ?? rule.pattern).toBeTruthy();
      expect(PROTECTED_CLASSES).toContain(rule.protectedClass);
      expect(rule.reason.length).toBeGreaterThan(10);
      expect(rule.suggestion.length).toBeGreaterThan(3);
      expect(ids.has(rule.id)).toBe(false);
      ids.add(rule.id);
    }
  });

  it('covers every protected class', () => {
    expect(new Set(FAIR_HOUSING_RULES.map((r) => r.protectedClass))).toEqual(new Set(PROTECTED_CLASSES));
  });
});

describe('checkFairHousing: flagged', () => {
  it.each([
    ['No children allowed in this quiet unit.', 'No children allowed', 'familial status'],
    ['Adults only building with a gym.', 'Adults only', 'familial status'],
    ['This condo is perfect for young couples.', 'perfect for young couples', 'familial status'],
    ['Ideal for singles who love the city.', 'Ideal for singles', 'familial status'],
    ['Walking distance to church and shops.', 'Walking distance to church', 'religion'],
    ['Located in an exclusive neighborhood.', 'exclusive neighborhood', 'race'],
    ['A rare find in an exclusive neighbourhood.', 'exclusive neighbourhood', 'race'],
    ['Lovely Christian home with a big porch.', 'Christian home', 'religion'],
    ['Second floor, no wheelchairs.', 'no wheelchairs', 'disability'],
    ['Able-bodied tenants only.', 'Able-bodied tenants', 'disability'],
    ['The ultimate bachelor pad downtown.', 'bachelor pad', 'sex'],
    ['Would suit a mature couple.', 'a mature couple', 'familial status'],
    ['Set in a family neighborhood near parks.', 'family neighborhood', 'familial status'],
    ['Quiet family-friendly community.', 'family-friendly community', 'familial status'],
    ['Great for families with a big yard.', 'Great for families', 'familial status'],
    ['English speakers only please.', 'English speakers only', 'national origin'],
    ['A quiet Hispanic neighborhood.', 'Hispanic neighborhood', 'race'],
    ['In the heart of the Italian community.', 'Italian community', 'national origin'],
    ['Men only, shared kitchen.', 'Men only', 'sex'],
    ['Steps from St. Mary\u2019s Church.', 'Steps from St. Mary\u2019s Church', 'religion'],
    ['Close to the synagogue.', 'Close to the synagogue', 'religion'],
    ['No service animals.', 'No service animals', 'disability'],
    ['Restricted community with a golf course.', 'Restricted community', 'race'],
    ['Perfect for empty nesters.', 'Perfect for empty nesters', 'familial status'],
  ])('%s', (text, phrase, protectedClass) => {
    const findings = checkFairHousing(text);
    expect(findings).toHaveLength(1);
    expect(findings[0]).toMatchObject({ phrase, protectedClass, reason: expect.any(String), suggestion: expect.any(String) });
  });

  it('reports each phrase once, in order, with the words as written', () => {
    expect(phrases('ADULTS ONLY. No kids. Near the mosque.')).toEqual(['ADULTS ONLY', 'No kids', 'Near the mosque']);
    expect(classes('ADULTS ONLY. No kids. Near the mosque.')).toEqual(['familial status', 'familial status', 'religion']);
  });
});

describe('checkFairHousing: not over-flagged', () => {
  it.each([
    'Spacious master bedroom with a walk-in closet.',
    'Family room opens to the kitchen.',
    'Classic single-family home on a quiet street.',
    'In-law suite with a private entrance.',
    'Wheelchair ramp and wide doorways throughout.',
    'Minutes from Temple Terrace and Chapel Hill.',
    'Corner lot on Church Street.',
    'White area rug and black granite countertops included.',
    'Exclusive listing: new roof, impact windows, pool.',
    'Near schools, parks and shopping.',
    'No HOA and no pets.',
    'Great for entertaining with an open floor plan.',
    'Near Temple University.',
    'Perfect for any buyer who loves to cook.',
  ])('%s', (text) => {
    expect(checkFairHousing(text)).toEqual([]);
  });
});

describe('rewriteForFairHousing', () => {
  it('replaces a phrase that has a suggestion, keeping the sentence', () => {
    const { text, findings } = rewriteForFairHousing('This condo is perfect for young couples. Pool and gym.');
    expect(text).toBe('This condo is perfect for any buyer. Pool and gym.');
    expect(findings.map((f) => f.phrase)).toEqual(['perfect for young couples']);
  });

  it('keeps the capital letter of a replaced phrase at the start of a sentence', () => {
    expect(rewriteForFairHousing('Exclusive neighborhood, quiet street.').text).toBe('Desirable neighborhood, quiet street.');
  });

  it('rewrites places of worship to neutral amenities', () => {
    expect(rewriteForFairHousing('Updated kitchen. Walking distance to church and shops!').text).toBe(
      'Updated kitchen. Close to local amenities and shops!',
    );
  });

  it('removes a sentence whose phrase has no rewrite, and only that sentence', () => {
    const { text, findings } = rewriteForFairHousing('Sunny 2-bed condo in Miami. Adults only. Call me today!');
    expect(text).toBe('Sunny 2-bed condo in Miami. Call me today!');
    expect(findings).toHaveLength(1);
  });

  it('does not cut a sentence at "St." when removing it', () => {
    expect(rewriteForFairHousing('Great home. No kids near St. Anne Park. Call now.').text).toBe('Great home. Call now.');
  });

  it('leaves compliant copy as it is', () => {
    const copy = 'Just listed in Tampa! This 3-bed, 2-bath home has a master bedroom and a family room. Call me today.';
    expect(rewriteForFairHousing(copy)).toEqual({ text: copy, findings: [] });
  });

  it('can remove everything', () => {
    expect(rewriteForFairHousing('No children. Christians only!').text).toBe('');
  });

  it('leaves no findings in what it returns', () => {
    const messy =
      'Perfect for a mature couple or empty nesters! Exclusive neighborhood near the cathedral. Bachelor pad vibes. Family neighborhood, adults only, no wheelchairs.';
    const { text, findings } = rewriteForFairHousing(messy);
    expect(findings.length).toBeGreaterThanOrEqual(5);
    expect(checkFairHousing(text)).toEqual([]);
    expect(text).toContain('Desirable neighborhood');
  });
});

describe('sentenceSpans', () => {
  it('splits on . ! ? but not after abbreviations', () => {
    const text = 'Near St. Pete. 1,200 sq. ft. of space! Ready? Yes';
    expect(sentenceSpans(text).map(([s, e]) => text.slice(s, e).trim())).toEqual([
      'Near St. Pete.',
      '1,200 sq. ft. of space!',
      'Ready?',
      'Yes',
    ]);
  });
});
