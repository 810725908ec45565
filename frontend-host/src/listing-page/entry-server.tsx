import { renderToString } from 'react-dom/server';
import { Provider } from 'react-redux';
import { formatPrice, formatUsd, PROPERTY_NOT_FOUND } from '@app/contracts/rules';
import { ListingApp } from './ListingApp';
import { addressLine } from './ListingView';
import { PAGE_DATA_ID, serializeForScript, type ListingPageData } from './pageData';
import { makeListingStore } from './store';

export { serializeForScript } from './pageData';
export type { ListingPageData } from './pageData';

export interface RenderInput {
  page: ListingPageData;
  /** Absolute origin for canonical and Open Graph URLs ("https://homes.example.com"). */
  origin: string;
  /** The share image (1200×630), absolute; null on the not-found page. */
  ogImage: string | null;
  /** Built assets: the entry script, modules to preload, the page's CSS (inlined), the app run on first interaction. */
  assets: { script: string; preload: string[]; css: string; app: string[] };
}

const escapeHtml = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;').replace(/'/g, '&#39;');

function absolute(origin: string, url: string): string {
  return /^https?:\/\//.test(url) ? url : `${origin}${url.startsWith('/') ? '' : '/'}${url}`;
}

/** The first photo's preload: it is the LCP element. Same candidates and sizes as the <img>. */
function preloadFirstPhoto(url: string | undefined): string {
  if (!url) return '';
  const upload = /^\/objects\/uploads\/[0-9a-f-]{36}$/i.test(url);
  if (!upload) return `<link rel="preload" as="image" href="${escapeHtml(url)}" fetchpriority="high">`;
  const set = [320, 640, 1280].map((w) => `${url}?w=${w} ${w}w`).join(', ');
  return `<link rel="preload" as="image" href="${escapeHtml(url)}?w=640" imagesrcset="${escapeHtml(set)}" imagesizes="(min-width: 900px) 50vw, 100vw" fetchpriority="high">`;
}

function description(page: ListingPageData): string {
  const l = page.response!.listing;
  const facts = [l.bedrooms !== null ? `${l.bedrooms} bd` : null, l.bathrooms ? `${l.bathrooms} ba` : null, l.squareFeet ? `${formatPrice(l.squareFeet)} sq ft` : null].filter(Boolean).join(' · ');
  const lead = `${formatUsd(l.price)}${facts ? ` · ${facts}` : ''} · ${l.status === 'sold' ? 'Sold' : 'For sale'} in ${l.city}, ${l.state}.`;
  const text = (page.kind === 'manual' && page.campaign?.description) || l.description || '';
  const full = text ? `${lead} ${text}` : lead;
  return full.length > 200 ? `${full.slice(0, 197).trimEnd()}...` : full;
}

/** JSON-LD: a RealEstateListing about the residence, with its Offer. */
function jsonLd(page: ListingPageData, origin: string, image: string | null): Record<string, unknown> {
  const { listing: l, agent } = page.response!;
  return {
    '@context': 'https://schema.org',
    '@type': 'RealEstateListing',
    name: addressLine(l),
    url: page.pageUrl,
    ...(l.description ? { description: l.description } : {}),
    ...(l.listDate ? { datePosted: l.listDate } : {}),
    image: l.photos.length ? l.photos.slice(0, 10).map((p) => absolute(origin, p)) : image ? [image] : [],
    about: {
      '@type': 'SingleFamilyResidence',
      address: { '@type': 'PostalAddress', streetAddress: l.address, addressLocality: l.city, addressRegion: l.state, ...(l.postalCode ? { postalCode: l.postalCode } : {}), addressCountry: 'US' },
      ...(l.bedrooms !== null ? { numberOfBedrooms: l.bedrooms, numberOfRooms: l.bedrooms } : {}),
      ...(l.bathrooms ? { numberOfBathroomsTotal: Number(l.bathrooms) } : {}),
      ...(l.squareFeet ? { floorSize: { '@type': 'QuantitativeValue', value: l.squareFeet, unitCode: 'FTK' } } : {}),
      ...(l.yearBuilt ? { yearBuilt: l.yearBuilt } : {}),
      ...(l.latitude !== null && l.longitude !== null ? { geo: { '@type': 'GeoCoordinates', latitude: l.latitude, longitude: l.longitude } } : {}),
    },
    offers: {
      '@type': 'Offer',
      price: l.price,
      priceCurrency: 'USD',
      availability: l.status === 'sold' ? 'https://schema.org/SoldOut' : 'https://schema.org/InStock',
      url: page.pageUrl,
      offeredBy: { '@type': 'RealEstateAgent', name: agent.name, ...(agent.brokerage ? { worksFor: { '@type': 'Organization', name: agent.brokerage } } : {}) },
    },
  };
}

function head(input: RenderInput): string {
  const { page, origin, ogImage } = input;
  if (!page.response || page.kind === 'not-found') {
    return `<title>${PROPERTY_NOT_FOUND.title}</title><meta name="robots" content="noindex"><meta name="description" content="${escapeHtml(PROPERTY_NOT_FOUND.description)}">`;
  }
  const l = page.response.listing;
  const title = `${formatUsd(l.price)} · ${addressLine(l)}`;
  const desc = description(page);
  const tags = [
    `<title>${escapeHtml(title)}</title>`,
    `<meta name="description" content="${escapeHtml(desc)}">`,
    `<link rel="canonical" href="${escapeHtml(page.pageUrl)}">`,
    `<meta property="og:type" content="website">`,
    `<meta property="og:site_name" content="Listing Ads">`,
    `<meta property="og:title" content="${escapeHtml(title)}">`,
    `<meta property="og:description" content="${escapeHtml(desc)}">`,
    `<meta property="og:url" content="${escapeHtml(page.pageUrl)}">`,
    ...(ogImage
      ? [
          `<meta property="og:image" content="${escapeHtml(ogImage)}">`,
          `<meta property="og:image:type" content="image/jpeg">`,
          `<meta property="og:image:width" content="1200">`,
          `<meta property="og:image:height" content="630">`,
          `<meta property="og:image:alt" content="${escapeHtml(addressLine(l))}">`,
        ]
      : []),
    `<meta name="twitter:card" content="summary_large_image">`,
    `<meta name="twitter:title" content="${escapeHtml(title)}">`,
    `<meta name="twitter:description" content="${escapeHtml(desc)}">`,
    ...(ogImage ? [`<meta name="twitter:image" content="${escapeHtml(ogImage)}">`] : []),
    `<script type="application/ld+json">${serializeForScript(jsonLd(page, origin, ogImage))}</script>`,
  ];
  const first = page.kind === 'manual' ? undefined : l.photos[0];
  return tags.join('') + preloadFirstPhoto(first);
}

/** The whole HTML document of a listing page: complete without JavaScript, then hydrated. */
export function renderListingDocument(input: RenderInput): string {
  const store = makeListingStore(input.page);
  const app = renderToString(
    <Provider store={store}>
      <ListingApp page={input.page} />
    </Provider>,
  );
  const { assets } = input;
  return (
    '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
    '<meta name="viewport" content="width=device-width, initial-scale=1, viewport-fit=cover">' +
    '<link rel="icon" href="data:,">' +
    head(input) +
    `<style>${assets.css}</style>` +
    `<script type="module" src="${escapeHtml(assets.script)}" data-app="${escapeHtml(assets.app.join(' '))}"></script>` +
    assets.preload.map((p) => `<link rel="modulepreload" href="${escapeHtml(p)}">`).join('') +
    `</head><body><div id="root">${app}</div>` +
    `<script type="application/json" id="${PAGE_DATA_ID}">${serializeForScript(input.page)}</script>` +
    '</body></html>'
  );
}
