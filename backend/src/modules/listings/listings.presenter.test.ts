import { agentCampaignListingSchema, leadDeliveryListingSchema, listingCoreSchema, listingSummarySchema, listingViewSchema, publicListingSchema } from '@app/contracts';
import { Listing } from './listing.model';
import { presentLeadDeliveryListing, presentListing, presentListingCard, presentListingCore, presentListingSummary } from './listings.presenter';
import { presentPublicListing } from './public-listing';

// What pg hands back: numeric columns as strings, date columns as local-midnight Dates.
const sparse = {
  id: 3, agentId: 7, mlsId: 'manual-3', address: '12 Palm Ave', city: 'Tampa', state: 'FL', postalCode: null,
  priceCents: '45000000', bedrooms: null, bathrooms: null, squareFeet: null, status: 'active', imageUrl: null, images: [],
  description: null, lotSize: null, lotSizeSqFt: null, yearBuilt: null, garageSpaces: null, propertyType: null, amenities: {},
  elementarySchool: null, middleSchool: null, highSchool: null, schoolDistrict: null, latitude: null, longitude: null,
  listDate: null, soldDate: null, daysOnMarket: null, zillowUrl: null, originatingSystemName: null, mlsCompliance: {},
  createdAt: new Date('2026-11-20T10:00:00Z'), updatedAt: new Date('2026-11-20T10:00:00Z'),
};

describe('presentListing → the ListingView contract', () => {
  it('a manual listing with only the required fields parses', () => {
    const view = presentListing(Listing.fromJson(sparse, { skipValidation: true }));
    expect(listingViewSchema.strict().parse(view)).toEqual(view);
    expect(view.price).toBe('450000');
  });

  it('an MLS listing with every field filled parses', () => {
    const view = presentListing(
      Listing.fromJson(
        { ...sparse, mlsId: 'T3456789', postalCode: '33602', priceCents: 45000050, bedrooms: 3, bathrooms: '2.50', squareFeet: 1850,
          status: 'sold', imageUrl: 'https://photos.example.com/1.jpg', images: ['https://photos.example.com/1.jpg'],
          description: 'Bright corner lot.', lotSize: '0.25 Acres', lotSizeSqFt: 10890, yearBuilt: 1998, garageSpaces: 2,
          propertyType: 'Residential', amenities: { pool: true }, elementarySchool: 'Gorrie', middleSchool: 'Wilson',
          highSchool: 'Plant', schoolDistrict: 'Hillsborough', latitude: '27.9506', longitude: '-82.4572',
          listDate: new Date(2026, 9, 1), soldDate: '2026-11-01', daysOnMarket: 31, zillowUrl: 'https://www.zillow.com/x',
          originatingSystemName: 'Stellar MLS', mlsCompliance: { mlsName: 'Stellar MLS', brokerage: 'Gulf Realty', disclaimer: 'Deemed reliable.' } },
        { skipValidation: true },
      ),
    );
    expect(listingViewSchema.strict().parse(view)).toEqual(view);
    expect(view).toMatchObject({ price: '450000.50', bathrooms: '2.5', latitude: 27.9506, listDate: '2026-10-01', soldDate: '2026-11-01' });
  });
});

describe('presentListingCore feeds every listing presenter', () => {
  const full = Listing.fromJson(
    { ...sparse, postalCode: '33602', priceCents: 45000050, bedrooms: 3, bathrooms: '2.50', squareFeet: 1850, imageUrl: null,
      images: ['https://photos.example.com/1.jpg', 'https://photos.example.com/2.jpg'], description: 'Bright corner lot.',
      amenities: { heating: ['Central'], associationFeeAnnual: 1200.4 } },
    { skipValidation: true },
  );

  it('each answer matches its contract exactly and carries the core unchanged', () => {
    const core = listingCoreSchema.strict().parse(presentListingCore(full));
    expect(core).toMatchObject({ id: 3, price: '450000.50', bathrooms: '2.5', images: ['https://photos.example.com/1.jpg', 'https://photos.example.com/2.jpg'] });
    const summary = listingSummarySchema.strict().parse(presentListingSummary(full));
    const view = listingViewSchema.strict().parse(presentListing(full));
    const page = publicListingSchema.strict().parse(presentPublicListing(full));
    for (const whole of [summary, view, page]) expect(whole).toMatchObject(core);
    // The loader's JSON keeps its key order: id, agentId, then the core.
    expect(Object.keys(presentListingSummary(full)).slice(0, 3)).toEqual(['id', 'agentId', 'mlsId']);
    expect(page).toMatchObject({ photos: ['https://photos.example.com/1.jpg', 'https://photos.example.com/2.jpg'], heating: ['Central'], hoaFee: 1200 });
  });

  it('the lead delivery and the Property card pick from the core (the card falls back to the first photo)', () => {
    const core = presentListingCore(full);
    const lead = presentLeadDeliveryListing(full);
    expect(leadDeliveryListingSchema.omit({ url: true }).strict().parse(lead)).toEqual(lead);
    expect(lead).toEqual({ id: 3, mlsId: 'manual-3', address: '12 Palm Ave', city: 'Tampa', state: 'FL', postalCode: '33602', price: core.price, bedrooms: 3, bathrooms: '2.5', squareFeet: 1850, imageUrl: null });
    const card = agentCampaignListingSchema.strict().parse(presentListingCard(full));
    expect(card).toMatchObject({ id: 3, price: core.price, bathrooms: '2.5', imageUrl: 'https://photos.example.com/1.jpg' });
  });
});
