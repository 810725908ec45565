import { listingViewSchema } from '@app/contracts';
import { Listing } from './listing.model';
import { presentListing } from './listings.presenter';

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
