import { DEFAULT_RADIUS } from '@app/contracts';
import { US_STATE_FIGURES } from './us-states.data';
import { usPlaces, type Place, type PlaceTable } from './us-places';

/**
 * Estimated reach of a housing ad around a city: the people a Facebook/Instagram campaign
 * targeted at "{radius} miles around {city}" can show impressions to.
 *
 *   population in the circle = Σ population of the places whose center is within the radius (haversine)
 *                            + the state's population living outside those places, spread evenly over
 *                              its land area, times the circle's area (capped at the state's area)
 *   estimatedReach           = population × ADULT_SHARE × META_ACTIVE_SHARE, to 2 significant figures
 *
 * Unknown city (not in the table): the state's average density times the circle's area, i.e.
 * statePopulation × min(1, πr² / stateLandArea), with the same two shares.
 *
 * The places are GeoNames' populated places with ≥ 1,000 people (see us-places.ts); the state figures
 * are the 2020 Census (us-states.data.ts). It is an estimate for the pricing screen, not Meta's own
 * audience size, which the ad platform reports only once a campaign exists.
 */

/** Share of residents aged 18+: 258.3 M of 331.4 M (2020 Census, Redistricting Data, table P3). */
export const ADULT_SHARE = 0.779;

/**
 * Share of US adults reachable on Facebook or Instagram in a month: Pew Research Center,
 * "Americans' Social Media Use" (Jan 2024): 68% of US adults use Facebook and 47% Instagram, with
 * most Instagram users also on Facebook; the union is taken as 70%.
 */
export const META_ACTIVE_SHARE = 0.7;

export const EARTH_RADIUS_MILES = 3958.8;

export function haversineMiles(lat1: number, lon1: number, lat2: number, lon2: number): number {
  const rad = Math.PI / 180;
  const dLat = (lat2 - lat1) * rad;
  const dLon = (lon2 - lon1) * rad;
  const h = Math.sin(dLat / 2) ** 2 + Math.cos(lat1 * rad) * Math.cos(lat2 * rad) * Math.sin(dLon / 2) ** 2;
  return 2 * EARTH_RADIUS_MILES * Math.asin(Math.min(1, Math.sqrt(h)));
}

/** 2 significant figures: the model is not more precise than that (1,234,567 → 1,200,000). */
export function roundEstimate(n: number): number {
  if (!(n > 0)) return 0;
  const magnitude = 10 ** Math.max(0, Math.floor(Math.log10(n)) - 1);
  return Math.round(n / magnitude) * magnitude;
}

export interface ReachEstimate {
  estimatedReach: number;
  /** People living within the radius (all ages). */
  population: number;
  /** 'city': the city was found and the circle summed; 'state': unknown city, state-average density. */
  basis: 'city' | 'state';
  center?: Pick<Place, 'name' | 'state' | 'lat' | 'lon'>;
}

/** Population within `radiusMiles` of a point: the places inside plus the state's unplaced population by area. */
export function populationWithin(table: PlaceTable, center: { lat: number; lon: number; state: string }, radiusMiles: number): number {
  // Cheap box filter before the haversine: a degree of latitude is ~69 miles.
  const dLat = radiusMiles / 69;
  const dLon = radiusMiles / (69 * Math.max(0.1, Math.cos((center.lat * Math.PI) / 180)));
  let sum = 0;
  for (let i = 0; i < table.count; i++) {
    const la = table.lat[i];
    const lo = table.lon[i];
    if (Math.abs(la - center.lat) > dLat || Math.abs(lo - center.lon) > dLon) continue;
    if (haversineMiles(center.lat, center.lon, la, lo) <= radiusMiles) sum += table.population[i];
  }
  const figures = US_STATE_FIGURES[center.state];
  if (figures) {
    const unplaced = Math.max(0, figures.population - (table.placePopulationByState.get(center.state) ?? 0));
    const area = Math.min(Math.PI * radiusMiles ** 2, figures.landSqMi);
    sum += (unplaced / figures.landSqMi) * area;
  }
  return sum;
}

export function estimateReach(
  input: { city: string; state: string; radius?: number },
  table: PlaceTable = usPlaces(),
): ReachEstimate {
  const radius = input.radius ?? DEFAULT_RADIUS;
  const figures = US_STATE_FIGURES[input.state];
  if (!figures) throw new RangeError(`unknown state ${input.state}`);
  const place = table.find(input.city, input.state);
  let population: number;
  if (place) {
    population = populationWithin(table, { lat: place.lat, lon: place.lon, state: input.state }, radius);
  } else {
    population = figures.population * Math.min(1, (Math.PI * radius ** 2) / figures.landSqMi);
  }
  return {
    estimatedReach: roundEstimate(population * ADULT_SHARE * META_ACTIVE_SHARE),
    population: Math.round(population),
    basis: place ? 'city' : 'state',
    ...(place ? { center: { name: place.name, state: place.state, lat: place.lat, lon: place.lon } } : {}),
  };
}
