import {
  DEFAULT_RADIUS,
  MIN_RADIUS,
  RADIUS_OPTIONS,
  TARGETING_TEMPLATES,
  TARGETING_TEMPLATE_IDS,
  defaultTargetingDraft,
  getTargetingTemplate,
  interestId,
  interestsForTemplate,
  isRadiusOption,
  isTargetingTemplateId,
} from './targeting.js';

describe('radius', () => {
  it('offers 15, 25, 35 and 50 miles, default 25, minimum 15', () => {
    expect(RADIUS_OPTIONS).toEqual([15, 25, 35, 50]);
    expect(DEFAULT_RADIUS).toBe(25);
    expect(MIN_RADIUS).toBe(15);
    expect(Math.min(...RADIUS_OPTIONS)).toBe(MIN_RADIUS);
    expect(isRadiusOption(35)).toBe(true);
    expect(isRadiusOption(10)).toBe(false);
    expect(isRadiusOption('25')).toBe(false);
  });
});

describe('targeting templates', () => {
  it('are general, buyers, investment and financing, each complete', () => {
    expect(TARGETING_TEMPLATES.map((t) => t.id)).toEqual(['general', 'buyers', 'investment', 'financing']);
    expect([...TARGETING_TEMPLATE_IDS]).toEqual(['general', 'buyers', 'investment', 'financing']);
    for (const t of TARGETING_TEMPLATES) {
      expect(t.name.length).toBeGreaterThan(0);
      expect(t.description.length).toBeGreaterThan(0);
      expect(t.interests.length).toBeGreaterThanOrEqual(4);
      expect(new Set(t.interests).size).toBe(t.interests.length);
    }
  });

  it('carry believable interests per theme', () => {
    expect(getTargetingTemplate('buyers').interests).toEqual(
      expect.arrayContaining(['Real estate', 'Zillow', 'Realtor.com', 'First-time buyer', 'Mortgage loans']),
    );
    expect(getTargetingTemplate('investment').interests).toEqual(
      expect.arrayContaining(['Real estate investing', 'Rental property']),
    );
    expect(getTargetingTemplate('financing').interests).toEqual(
      expect.arrayContaining(['Mortgage loans', 'Refinancing']),
    );
  });

  it('never mention age, gender or ZIP codes', () => {
    const text = JSON.stringify(TARGETING_TEMPLATES).toLowerCase();
    for (const word of ['age', 'gender', 'zip', 'male', 'female', 'years old']) {
      expect(text).not.toMatch(new RegExp(`\\b${word}\\b`));
    }
  });

  it('turn interests into enabled draft entries with stable ids', () => {
    expect(interestId('Realtor.com')).toBe('realtor-com');
    expect(interestId('First-time buyer')).toBe('first-time-buyer');
    const list = interestsForTemplate('buyers');
    expect(list[0]).toEqual({ id: 'real-estate', name: 'Real estate', enabled: true });
    expect(list).toHaveLength(getTargetingTemplate('buyers').interests.length);
    expect(isTargetingTemplateId('financing')).toBe(true);
    expect(isTargetingTemplateId('age')).toBe(false);
  });

  it('build the default draft from the listing location', () => {
    const d = defaultTargetingDraft({ city: ' Miami ', state: 'FL' });
    expect(d.targetingLocation).toEqual({ city: 'Miami', state: 'FL', radius: 25 });
    expect(d.targetingTemplate).toBe('general');
    expect(d.targetingInterests.every((i) => i.enabled)).toBe(true);
  });
});
