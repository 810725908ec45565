import { leadSubmissionSchema } from './schemas/leads.js';
import { LEAD_CONSENT_TEXTS, leadInterest, manualListingImages, placeholderLabel, wrapIndex } from './public-listing.js';

describe('public listing rules', () => {
  it('wraps the gallery index both ways', () => {
    expect(wrapIndex(6, 6)).toBe(0);
    expect(wrapIndex(-1, 6)).toBe(5);
    expect(wrapIndex(3, 6)).toBe(3);
    expect(wrapIndex(0, 0)).toBe(0);
  });

  it('labels the image placeholder by status', () => {
    expect(placeholderLabel('sold')).toBe('just sold');
    expect(placeholderLabel('active')).toBe('just listed');
    expect(placeholderLabel(null)).toBe('just listed');
  });

  it('names the interest of a lead', () => {
    expect(leadInterest({ interestedInTour: true, interestedInSimilar: true })).toBe('Tour, Similar homes');
    expect(leadInterest({ interestedInTour: false, interestedInSimilar: true })).toBe('Similar homes');
    expect(leadInterest({ interestedInTour: false, interestedInSimilar: false })).toBe('General');
  });

  it('prefers, for a manual listing page, listing images, then the campaign image, then the listing imageUrl', () => {
    expect(manualListingImages({ images: ['/a', '/b'], imageUrl: '/c' }, { imageUrl: '/d' })).toEqual(['/a', '/b']);
    expect(manualListingImages({ images: [], imageUrl: '/c' }, { imageUrl: '/d' })).toEqual(['/d']);
    expect(manualListingImages({ images: [], imageUrl: '/c' }, null)).toEqual(['/c']);
    expect(manualListingImages({ images: [], imageUrl: null }, { imageUrl: null })).toEqual([]);
  });

  it('says what the TCPA notice must say', () => {
    for (const text of Object.values(LEAD_CONSENT_TEXTS)) {
      expect(text).toMatch(/autodialer/);
      expect(text).toMatch(/not a condition of purchase/);
      expect(text).toMatch(/Message and data rates may apply/);
    }
  });
});

describe('leadSubmissionSchema', () => {
  const base = { name: 'Jo', email: 'JO@example.com', formToken: 'abc.def', idempotencyKey: 'k'.repeat(22) };

  it('applies the lead defaults and normalises', () => {
    expect(leadSubmissionSchema.parse(base)).toEqual({
      name: 'Jo',
      email: 'jo@example.com',
      message: '',
      interestedInTour: false,
      interestedInSimilar: false,
      formToken: 'abc.def',
      idempotencyKey: 'k'.repeat(22),
      consentVersion: null,
      pageUrl: null,
      proof: null,
    });
  });

  it("takes a proof of work as the challenge's token and a short solution of digits and lower-case letters", () => {
    const proof = { token: 'mwy8r2km.12.feV25JRstPkOGdyH2PrPJQ.sig', solution: '0000a9z' };
    expect(leadSubmissionSchema.parse({ ...base, proof }).proof).toEqual(proof);
    for (const bad of [{ token: proof.token, solution: 'NOT-OK' }, { token: proof.token, solution: '1'.repeat(17) }, { token: 'x'.repeat(201), solution: '1' }, 'a string']) {
      const r = leadSubmissionSchema.safeParse({ ...base, proof: bad });
      expect(r.success).toBe(false);
      expect(r.error!.issues[0].message).toBe('Invalid proof of work');
    }
  });

  it('refuses an unknown consent version, a page URL that is not http(s), a short idempotency key', () => {
    const r = leadSubmissionSchema.safeParse({ ...base, consentVersion: 'v0', pageUrl: 'javascript:alert(1)', idempotencyKey: 'short' });
    expect(r.success).toBe(false);
    const paths = r.error!.issues.map((i) => i.path.join('.'));
    expect(paths).toEqual(expect.arrayContaining(['consentVersion', 'pageUrl', 'idempotencyKey']));
  });
});
