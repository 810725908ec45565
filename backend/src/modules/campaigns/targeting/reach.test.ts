import { ADULT_SHARE, META_ACTIVE_SHARE, estimateReach, haversineMiles, populationWithin, roundEstimate } from './reach';
import { buildPlaceTable, normaliseCityName, stateCode, usPlaces } from './us-places';
import { US_STATE_FIGURES } from './us-states.data';
import { ENTRY_LEVEL_MAX_PRICE, LUXURY_MIN_PRICE, interestsForPrice, templatesForPrice } from './interests';

describe('haversine', () => {
  it('measures known distances in miles', () => {
    // Miami → Fort Lauderdale is about 25 miles; New York → Los Angeles about 2,450.
    expect(haversineMiles(25.774, -80.194, 26.122, -80.137)).toBeCloseTo(24.3, 0);
    expect(haversineMiles(40.714, -74.006, 34.052, -118.244)).toBeGreaterThan(2400);
    expect(haversineMiles(40.714, -74.006, 34.052, -118.244)).toBeLessThan(2500);
    expect(haversineMiles(10, 10, 10, 10)).toBe(0);
  });
});

describe('a small table (the model itself)', () => {
  // Two towns 10 miles apart (0.1449° of latitude ≈ 10 mi) and one 40 miles away, in a made-up corner of Wyoming.
  const table = buildPlaceTable([
    ['Alpha', 'WY', 100_000, 42.0, -106.0],
    ['Beta', 'WY', 50_000, 42.1449, -106.0],
    ['Gamma', 'WY', 20_000, 42.5797, -106.0],
  ]);
  const wy = US_STATE_FIGURES.WY;
  const unplacedDensity = (wy.population - 170_000) / wy.landSqMi;

  it('sums the places inside the radius, plus the state\u2019s unplaced population by area', () => {
    const inner = populationWithin(table, { lat: 42.0, lon: -106.0, state: 'WY' }, 15);
    expect(inner).toBeCloseTo(150_000 + unplacedDensity * Math.PI * 15 ** 2, 0);
    const wide = populationWithin(table, { lat: 42.0, lon: -106.0, state: 'WY' }, 50);
    expect(wide).toBeCloseTo(170_000 + unplacedDensity * Math.PI * 50 ** 2, 0);
  });

  it('applies the adult share and the Facebook/Instagram share, to 2 significant figures', () => {
    const { estimatedReach, population, basis } = estimateReach({ city: 'alpha', state: 'WY', radius: 15 }, table);
    expect(basis).toBe('city');
    expect(estimatedReach).toBe(roundEstimate(population * ADULT_SHARE * META_ACTIVE_SHARE));
  });

  it('falls back to the state\u2019s average density for an unknown city', () => {
    const r = estimateReach({ city: 'Nowhere', state: 'WY', radius: 25 }, table);
    expect(r.basis).toBe('state');
    expect(r.population).toBe(Math.round(wy.population * ((Math.PI * 25 ** 2) / wy.landSqMi)));
  });
});

describe('estimateReach on the bundled US places', () => {
  it('finds a known city and gives a big-city audience', () => {
    const miami = estimateReach({ city: 'Miami', state: 'FL' });
    expect(miami.basis).toBe('city');
    expect(miami.center).toMatchObject({ name: 'Miami', state: 'FL' });
    // Miami-Dade and southern Broward: a few million people within 25 miles.
    expect(miami.population).toBeGreaterThan(2_500_000);
    expect(miami.population).toBeLessThan(5_000_000);
    expect(miami.estimatedReach).toBeGreaterThan(1_000_000);
    expect(miami.estimatedReach).toBeLessThan(miami.population);
  });

  it('defaults to 25 miles and grows with the radius', () => {
    const at = (radius: number) => estimateReach({ city: 'Tampa', state: 'FL', radius }).estimatedReach;
    expect(estimateReach({ city: 'Tampa', state: 'FL' }).estimatedReach).toBe(at(25));
    expect(at(15)).toBeLessThan(at(25));
    expect(at(25)).toBeLessThan(at(35));
    expect(at(35)).toBeLessThan(at(50));
  });

  it('gives a small town a small audience', () => {
    const bozeman = estimateReach({ city: 'Bozeman', state: 'MT' });
    expect(bozeman.basis).toBe('city');
    expect(bozeman.estimatedReach).toBeLessThan(100_000);
  });

  it('counts New York City once (boroughs, not the city and its boroughs)', () => {
    const nyc = estimateReach({ city: 'New York', state: 'NY', radius: 15 });
    expect(nyc.center?.name).toBe('New York City');
    expect(nyc.population).toBeGreaterThan(8_000_000);
    expect(nyc.population).toBeLessThan(14_000_000);
  });

  it('matches spelling variants of a name', () => {
    expect(estimateReach({ city: 'Saint Petersburg', state: 'FL' }).center?.name).toBe('St. Petersburg');
    expect(estimateReach({ city: 'ft lauderdale', state: 'FL' }).center?.name).toBe('Fort Lauderdale');
    expect(estimateReach({ city: 'Washington', state: 'DC' }).basis).toBe('city');
  });

  it('uses the state average for an unknown city', () => {
    const r = estimateReach({ city: 'Nowhereville', state: 'FL' });
    expect(r.basis).toBe('state');
    expect(r.estimatedReach).toBe(roundEstimate(r.population * ADULT_SHARE * META_ACTIVE_SHARE));
    expect(r.estimatedReach).toBeGreaterThan(0);
    // A dense state's average beats a sparse one's.
    expect(r.estimatedReach).toBeGreaterThan(estimateReach({ city: 'Nowhereville', state: 'WY' }).estimatedReach);
  });

  it('refuses an unknown state', () => {
    expect(() => estimateReach({ city: 'Miami', state: 'ZZ' })).toThrow(RangeError);
  });

  it('has a sane table: tens of thousands of places, every state, NYC only through its boroughs', () => {
    const table = usPlaces();
    expect(table.count).toBeGreaterThan(10_000);
    expect(new Set(table.state)).toEqual(new Set(Object.keys(US_STATE_FIGURES)));
    expect(table.find('New York City', 'NY')?.population).toBe(0);
    expect(table.find('Brooklyn', 'NY')?.population).toBeGreaterThan(2_000_000);
    for (const [code, figures] of Object.entries(US_STATE_FIGURES)) {
      expect(table.placePopulationByState.get(code)!).toBeLessThanOrEqual(figures.population * 1.05);
    }
  });
});

describe('names and states', () => {
  it('normalises city names', () => {
    expect(normaliseCityName('  Saint Paul ')).toBe('st paul');
    expect(normaliseCityName('St. Paul')).toBe('st paul');
    expect(normaliseCityName("Coeur d'Alene")).toBe('coeur dalene');
    expect(normaliseCityName('Española')).toBe('espanola');
    expect(normaliseCityName('Mount Pleasant')).toBe('mt pleasant');
  });

  it('reads a state code or name', () => {
    expect(stateCode('fl')).toBe('FL');
    expect(stateCode('Florida')).toBe('FL');
    expect(stateCode(' new york ')).toBe('NY');
    expect(stateCode('DC')).toBe('DC');
    expect(stateCode('Atlantis')).toBeUndefined();
    expect(stateCode('ZZ')).toBeUndefined();
  });

  it('has census figures adding up to the 2020 US population', () => {
    const total = Object.values(US_STATE_FIGURES).reduce((s, f) => s + f.population, 0);
    expect(total).toBe(331_449_281);
  });
});

describe('interests by listing price', () => {
  it('entry-level: buyers and financing', () => {
    expect(templatesForPrice(ENTRY_LEVEL_MAX_PRICE - 1)).toEqual(['buyers', 'financing']);
    expect(interestsForPrice(250_000).map((i) => i.name)).toEqual(expect.arrayContaining(['First-time buyer', 'Mortgage loans', 'Down payment']));
  });

  it('mid-market: general and buyers', () => {
    expect(templatesForPrice(ENTRY_LEVEL_MAX_PRICE)).toEqual(['general', 'buyers']);
    expect(templatesForPrice(0)).toEqual(['general', 'buyers']);
  });

  it('luxury: general and investment', () => {
    expect(templatesForPrice(LUXURY_MIN_PRICE)).toEqual(['general', 'investment']);
    expect(interestsForPrice(2_500_000).map((i) => i.name)).toEqual(expect.arrayContaining(['Real estate investing', 'Vacation rental']));
  });

  it('lists each interest once, enabled, with a stable id', () => {
    const interests = interestsForPrice(500_000);
    expect(new Set(interests.map((i) => i.id)).size).toBe(interests.length);
    expect(interests.every((i) => i.enabled)).toBe(true);
    expect(interests).toContainEqual({ id: 'realtor-com', name: 'Realtor.com', enabled: true });
  });
});
