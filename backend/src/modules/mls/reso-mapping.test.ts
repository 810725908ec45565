import { annualFee, mapResoProperties, mapResoProperty, photoUrls, statusFromReso } from './reso-mapping';

/** A RESO Data Dictionary Property record as a Web API returns it with $expand=Media. */
const closedRecord = {
  '@odata.id': "Property('X1001')",
  ListingKey: 'X1001',
  ListingId: '1001',
  StandardStatus: 'Closed',
  ListPrice: 475000,
  ClosePrice: 462500.5,
  CloseDate: '2026-06-30',
  ListingContractDate: '2026-05-02',
  DaysOnMarket: 21,
  BedroomsTotal: 3,
  BathroomsTotalInteger: 2,
  LivingArea: 1680,
  YearBuilt: 1987,
  LotSizeAcres: 0.25,
  LotSizeSquareFeet: 10890,
  GarageSpaces: 2,
  PropertyType: 'Residential',
  PropertySubType: 'Single Family Residence',
  StreetNumber: '742',
  StreetName: 'Evergreen',
  StreetSuffix: 'Ter',
  City: 'Springfield',
  StateOrProvince: 'il',
  PostalCode: '62704',
  Latitude: 39.781721,
  Longitude: -89.650148,
  PublicRemarks: '  Classic   two-story\nwith a big yard.  ',
  OriginatingSystemName: 'Central Illinois MLS',
  ListOfficeName: 'Prairie Homes Realty',
  ListAgentFullName: 'Marge Bouvier',
  Heating: ['Forced Air', 'Natural Gas'],
  Cooling: 'Central Air,Ceiling Fan(s)',
  Appliances: ['Dishwasher', 'Refrigerator', 'Dishwasher'],
  InteriorFeatures: ['Walk-In Closet(s)'],
  ExteriorFeatures: [],
  FireplaceYN: true,
  ParkingFeatures: ['Attached'],
  AssociationFee: 125,
  AssociationFeeFrequency: 'Quarterly',
  Utilities: ['Public Water', 'Public Sewer'],
  ElementarySchool: 'Springfield Elementary School',
  MiddleOrJuniorSchool: 'Springfield Middle School',
  HighSchool: 'Springfield High School',
  HighSchoolDistrict: 'Springfield District 186',
  Media: [
    { MediaKey: 'm3', MediaCategory: 'Photo', MimeType: 'image/jpeg', Order: 3, MediaURL: 'https://photos.example.com/X1001/3.jpg' },
    { MediaKey: 'm1', MediaCategory: 'Photo', MimeType: 'image/jpeg', Order: 1, MediaURL: 'https://photos.example.com/X1001/1.jpg' },
    { MediaKey: 'pdf', MediaCategory: 'Document', MimeType: 'application/pdf', Order: 0, MediaURL: 'https://photos.example.com/X1001/disclosure.pdf' },
    { MediaKey: 'plan', MediaCategory: 'Floor Plan', MimeType: 'image/png', Order: 2, MediaURL: 'https://photos.example.com/X1001/plan.png' },
    { MediaKey: 'm2', MimeType: 'image/webp', Order: 2, MediaURL: 'https://photos.example.com/X1001/2.webp' },
    { MediaKey: 'bad', MediaCategory: 'Photo', Order: 4, MediaURL: 'javascript:alert(1)' },
  ],
};

describe('mapResoProperty', () => {
  it('maps a closed RESO record field by field', () => {
    const out = mapResoProperty(closedRecord);
    expect(out.kind).toBe('listing');
    if (out.kind !== 'listing') return;
    expect(out.listing).toEqual({
      mlsId: 'X1001',
      address: '742 Evergreen Ter',
      city: 'Springfield',
      state: 'IL',
      postalCode: '62704',
      priceCents: 46250050, // ClosePrice for a sold listing
      bedrooms: 3,
      bathrooms: '2.0',
      squareFeet: 1680,
      status: 'sold',
      imageUrl: 'https://photos.example.com/X1001/1.jpg',
      images: ['https://photos.example.com/X1001/1.jpg', 'https://photos.example.com/X1001/2.webp', 'https://photos.example.com/X1001/3.jpg'],
      description: 'Classic two-story with a big yard.',
      lotSize: '0.25',
      lotSizeSqFt: 10890,
      yearBuilt: 1987,
      garageSpaces: 2,
      propertyType: 'Single Family Residence',
      amenities: {
        heating: ['Forced Air', 'Natural Gas'],
        cooling: ['Central Air', 'Ceiling Fan(s)'],
        appliances: ['Dishwasher', 'Refrigerator'],
        interiorFeatures: ['Walk-In Closet(s)'],
        parkingFeatures: ['Attached'],
        utilities: ['Public Water', 'Public Sewer'],
        fireplace: true,
        associationFee: 125,
        associationFeeFrequency: 'Quarterly',
        associationFeeAnnual: 500,
      },
      elementarySchool: 'Springfield Elementary School',
      middleSchool: 'Springfield Middle School',
      highSchool: 'Springfield High School',
      schoolDistrict: 'Springfield District 186',
      latitude: 39.781721,
      longitude: -89.650148,
      listDate: '2026-05-02',
      soldDate: '2026-06-30',
      daysOnMarket: 21,
      originatingSystemName: 'Central Illinois MLS',
      mlsCompliance: {
        mlsName: 'Central Illinois MLS',
        brokerage: 'Prairie Homes Realty',
        broker: 'Marge Bouvier',
        disclaimer: 'Listing data provided by Central Illinois MLS, courtesy of Prairie Homes Realty. Information is deemed reliable but not guaranteed.',
      },
    });
  });

  it('uses ListPrice for active and coming-soon listings, and for sold ones without a ClosePrice', () => {
    const active = mapResoProperty({ ...closedRecord, StandardStatus: 'Active' });
    expect(active).toMatchObject({ kind: 'listing', listing: { status: 'active', priceCents: 47500000, soldDate: null } });
    for (const s of ['ComingSoon', 'Coming Soon']) {
      expect(mapResoProperty({ ...closedRecord, StandardStatus: s })).toMatchObject({ listing: { status: 'active' } });
    }
    const { ClosePrice: _omit, ...noClose } = closedRecord;
    expect(mapResoProperty(noClose)).toMatchObject({ listing: { status: 'sold', priceCents: 47500000 } });
  });

  it('prefers UnparsedAddress, without the city part some servers append', () => {
    const withUnparsed = { ...closedRecord, UnparsedAddress: '742 Evergreen Terrace, Springfield, IL 62704' };
    expect(mapResoProperty(withUnparsed)).toMatchObject({ listing: { address: '742 Evergreen Terrace' } });
    expect(mapResoProperty({ ...closedRecord, UnparsedAddress: '12 Oak St Unit 4' })).toMatchObject({ listing: { address: '12 Oak St Unit 4' } });
  });

  it('works out bathrooms, lot size and the annual association fee from the other RESO fields', () => {
    const r = { ...closedRecord, BathroomsTotalInteger: undefined, BathroomsFull: 2, BathroomsHalf: 1, LotSizeAcres: undefined, LotSizeSquareFeet: 21780 };
    expect(mapResoProperty(r)).toMatchObject({ listing: { bathrooms: '2.5', lotSize: '0.5', lotSizeSqFt: 21780 } });
    expect(mapResoProperty({ ...closedRecord, LotSizeSquareFeet: undefined, LotSizeAcres: 1 })).toMatchObject({ listing: { lotSizeSqFt: 43560 } });
    expect(annualFee(100, 'Monthly')).toBe(1200);
    expect(annualFee(100, 'Semi-Annually')).toBe(200);
    expect(annualFee(100, 'SemiMonthly')).toBe(2400);
    expect(annualFee(100, 'One Time')).toBeNull();
    expect(annualFee(100, undefined)).toBeNull();
  });

  it('ignores statuses other than active, coming soon and closed', () => {
    for (const s of ['Pending', 'ActiveUnderContract', 'Active Under Contract', 'Expired', 'Withdrawn', 'Canceled', 'Hold']) {
      expect(statusFromReso(s)).toBeNull();
      expect(mapResoProperty({ ...closedRecord, StandardStatus: s }).kind).toBe('ignored');
    }
  });

  it('skips records without a key, address, city, state or price, or with broken types', () => {
    const broken: Array<[string, unknown]> = [
      ['not an object', 'X1001'],
      ['null', null],
      ['array', [closedRecord]],
      ['no key', { ...closedRecord, ListingKey: undefined }],
      ['key of the wrong type', { ...closedRecord, ListingKey: { id: 1 } }],
      ['unsafe key', { ...closedRecord, ListingKey: '../etc/passwd' }],
      ['no address', { ...closedRecord, StreetNumber: undefined, StreetName: undefined, StreetSuffix: undefined }],
      ['address of the wrong type', { ...closedRecord, UnparsedAddress: ['742 Evergreen'] }],
      ['no city', { ...closedRecord, City: '  ' }],
      ['no state', { ...closedRecord, StateOrProvince: null }],
      ['no price', { ...closedRecord, ClosePrice: undefined, ListPrice: undefined }],
      ['price not a number', { ...closedRecord, ClosePrice: 'call agent' }],
      ['zero price', { ...closedRecord, ClosePrice: 0 }],
      ['price too large for decimal(10,2)', { ...closedRecord, ClosePrice: 1e9 }],
      ['no status', { ...closedRecord, StandardStatus: undefined }],
    ];
    for (const [label, record] of broken) {
      expect({ label, kind: mapResoProperty(record).kind }).toEqual({ label, kind: 'skipped' });
    }
  });

  it('turns optional fields of the wrong type or out of range into null instead of dropping the listing', () => {
    const out = mapResoProperty({
      ...closedRecord,
      BedroomsTotal: 'three',
      BathroomsTotalInteger: -1,
      LivingArea: '1,680',
      YearBuilt: 99999,
      Latitude: 123,
      GarageSpaces: '2',
      CloseDate: '2026-02-30',
      Heating: 42,
      Media: 'none',
      PublicRemarks: { text: 'x' },
    });
    expect(out).toMatchObject({
      kind: 'listing',
      listing: {
        bedrooms: null,
        bathrooms: null,
        squareFeet: null,
        yearBuilt: null,
        latitude: null,
        longitude: null,
        garageSpaces: 2,
        soldDate: null,
        images: [],
        imageUrl: null,
        description: null,
      },
    });
    if (out.kind === 'listing') expect(out.listing.amenities).not.toHaveProperty('heating');
  });
});

describe('photoUrls', () => {
  it('accepts paths on our own server only under the demo photo prefix; a real MLS must send http(s) URLs', () => {
    const media = [
      { MediaCategory: 'Photo', Order: 1, MediaURL: '/api/agents/1' },
      { MediaCategory: 'Photo', Order: 2, MediaURL: '/demo-mls/photos/../Member.json' },
      { MediaCategory: 'Photo', Order: 3, MediaURL: '/demo-mls/photos/exterior-01.jpg' },
      { MediaCategory: 'Photo', Order: 4, MediaURL: 'https://media.example.com/a b.jpg' },
      { MediaCategory: 'Photo', Order: 5, MediaURL: 'https://media.example.com/ok.jpg' },
    ];
    expect(photoUrls(media)).toEqual(['https://media.example.com/ok.jpg']);
    expect(photoUrls(media, { localPhotoPrefix: '/demo-mls/photos/' })).toEqual(['/demo-mls/photos/exterior-01.jpg', 'https://media.example.com/ok.jpg']);
  });

  it('keeps only photos, in Order, without duplicates, and caps the count', () => {
    const media = Array.from({ length: 40 }, (_, i) => ({ MediaCategory: 'Photo', Order: 40 - i, MediaURL: `/demo-mls/photos/p${40 - i}.jpg` }));
    const urls = photoUrls([...media, media[0]], { localPhotoPrefix: '/demo-mls/photos/' });
    expect(urls).toHaveLength(25);
    expect(urls[0]).toBe('/demo-mls/photos/p1.jpg');
    expect(urls[24]).toBe('/demo-mls/photos/p25.jpg');
    expect(photoUrls([{ MediaType: 'Jpeg', MediaURL: 'https://x.example/a.jpg' }, { MediaCategory: 'Video', MimeType: 'video/mp4', MediaURL: 'https://x.example/v.mp4' }])).toEqual([
      'https://x.example/a.jpg',
    ]);
  });
});

describe('mapResoProperties', () => {
  it('counts skipped and ignored records and keeps going', () => {
    const batch = mapResoProperties([closedRecord, { ...closedRecord, ListingKey: 'X1002', StandardStatus: 'Pending' }, 'garbage', { ...closedRecord, ListingKey: 'X1003', City: null }]);
    expect(batch.listings.map((l) => l.mlsId)).toEqual(['X1001']);
    expect(batch.ignored).toBe(1);
    expect(batch.skipped).toBe(2);
    expect(batch.problems).toEqual(['(no key): not an object', 'X1003: City missing']);
  });
});
