import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import {
  INVALID_ID_MESSAGE,
  emailField,
  idParam,
  idSchema,
  imageRefSchema,
  optionalImageRefSchema,
  isHttpUrl,
  isHttpsUrl,
  isPriceString,
  mlsIdParam,
  optionalEmailField,
  optionalText,
  requiredText,
  stateCodeField,
} from './common.js';

const messageOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error)._root;
};

describe('ids', () => {
  it('idParam coerces digit strings and passes numbers', () => {
    expect(idParam.parse('12')).toBe(12);
    expect(idParam.parse(7)).toBe(7);
    expect(idParam.parse('2147483647')).toBe(2147483647);
  });
  it.each(['abc', '1.5', '0x10', '1e3', '', ' 12', '0', '-1', '2147483648', 0, -3, 1.5, null, undefined, {}])(
    'idParam rejects %p',
    (v) => expect(messageOf(idParam, v)).toBe(INVALID_ID_MESSAGE),
  );
  it('idSchema takes numbers only', () => {
    expect(idSchema.parse(3)).toBe(3);
    expect(messageOf(idSchema, '3')).toBe(INVALID_ID_MESSAGE);
  });
  it('mlsIdParam takes MLS keys and manual ids', () => {
    expect(mlsIdParam.parse('MANUAL-1712345678901')).toBe('MANUAL-1712345678901');
    expect(mlsIdParam.parse(' A11223 ')).toBe('A11223');
    expect(mlsIdParam.safeParse('../etc').success).toBe(false);
    expect(mlsIdParam.safeParse('').success).toBe(false);
  });
});

describe('text helpers', () => {
  const name = requiredText('Name is required', 5);
  it('requiredText trims and uses one message for missing and blank', () => {
    expect(name.parse('  Ann ')).toBe('Ann');
    expect(messageOf(name, '   ')).toBe('Name is required');
    expect(messageOf(name, undefined)).toBe('Name is required');
    expect(messageOf(name, 42)).toBe('Name is required');
    expect(messageOf(name, 'abcdef')).toBe('Must be at most 5 characters');
  });
  it('optionalText maps "" to null and keeps undefined', () => {
    const t = optionalText(10);
    expect(t.parse('')).toBeNull();
    expect(t.parse('  ')).toBeNull();
    expect(t.parse(null)).toBeNull();
    expect(t.parse(undefined)).toBeUndefined();
    expect(t.parse(' x ')).toBe('x');
  });
  it('stateCodeField normalises case and accepts only the 50 codes', () => {
    const s = stateCodeField();
    expect(s.parse(' fl ')).toBe('FL');
    expect(messageOf(s, '')).toBe('State is required');
    expect(messageOf(s, 'DC')).toBe('Please select a valid US state');
    expect(messageOf(s, 'Florida')).toBe('Please select a valid US state');
  });
});

describe('emails', () => {
  it('trims and lower-cases a valid email', () => {
    expect(emailField().parse('  Jane.Doe@Example.COM ')).toBe('jane.doe@example.com');
  });
  it.each(['', 'jane', 'jane@', '@example.com', 'jane@example', 'a b@example.com'])('rejects %p', (v) =>
    expect(messageOf(emailField(), v)).toBe('Please enter a valid email address'),
  );
  it('optional email: "" → null, bad → message', () => {
    const e = optionalEmailField();
    expect(e.parse('')).toBeNull();
    expect(e.parse(undefined)).toBeUndefined();
    expect(e.parse('A@B.co')).toBe('a@b.co');
    expect(messageOf(e, 'nope')).toBe('Please enter a valid email address');
  });
});

describe('urls and images', () => {
  it('distinguishes http(s) and https', () => {
    expect(isHttpUrl('http://example.com/x')).toBe(true);
    expect(isHttpUrl('https://example.com')).toBe(true);
    expect(isHttpUrl('javascript:alert(1)')).toBe(false);
    expect(isHttpUrl('ftp://example.com/file')).toBe(false);
    expect(isHttpUrl('example.com')).toBe(false);
    expect(isHttpUrl('https://exa mple.com')).toBe(false);
    expect(isHttpsUrl('https://hooks.zapier.com/hooks/catch/1/abc')).toBe(true);
    expect(isHttpsUrl('http://hooks.zapier.com/hooks/catch/1/abc')).toBe(false);
  });
  it('accepts uploaded paths and http(s) image URLs only', () => {
    const upload = '/objects/uploads/0f8fad5b-d9cb-469f-a165-70867728950e';
    expect(imageRefSchema.parse(upload)).toBe(upload);
    expect(imageRefSchema.parse('/demo-mls/photos/exterior-01.jpg')).toBe('/demo-mls/photos/exterior-01.jpg');
    expect(imageRefSchema.parse('https://photos.example.com/1.jpg')).toBe('https://photos.example.com/1.jpg');
    for (const bad of ['//evil.example.com/x.jpg', 'javascript:alert(1)', 'data:image/png;base64,AAAA', 'img.jpg', '']) {
      expect(imageRefSchema.safeParse(bad).success).toBe(false);
    }
  });
  it('refuses any path that is not a plain uploaded object or demo photo (L9)', () => {
    for (const bad of [
      '/objects/uploads/../../api/admin/agents',
      `/objects/uploads/0f8fad5b-d9cb-469f-a165-70867728950e/../../../api/auth/me`,
      '/objects/uploads/%2e%2e/%2e%2e/api/auth/me',
      '/objects/uploads/0f8fad5b-d9cb-469f-a165-70867728950e?w=640',
      '/objects/uploads/abc',
      '/objects/uploads/',
      '/api/agents/1',
      '/demo-mls/photos/../../api/auth/me',
      '/demo-mls/photos/..',
      '/objects/uploads\\..\\api',
    ]) {
      expect(imageRefSchema.safeParse(bad).success).toBe(false);
      expect(optionalImageRefSchema.safeParse(bad).success).toBe(false);
    }
  });
});

describe('isPriceString', () => {
  it.each(['1', '450000', '450000.5', '450000.50', '99999999.99', '0.01'])('accepts %p', (v) =>
    expect(isPriceString(v)).toBe(true),
  );
  it.each(['0', '0.00', '-5', '450000.505', '100000000', '1e5', '4,500', '', '007', ' 5'])('rejects %p', (v) =>
    expect(isPriceString(v)).toBe(false),
  );
});

describe('text refuses control characters and broken Unicode', () => {
  it('requiredText, optionalText and textSchema', async () => {
    const { requiredText, optionalText, textSchema, CONTROL_CHARACTERS_MESSAGE } = await import('./common.js');
    for (const schema of [requiredText('Name is required', 50), optionalText(50), textSchema(50)]) {
      for (const bad of ['a\u0000b', 'bell\u0007', 'esc\u001b[0m', 'del\u007f', 'lone \ud800 high', 'lone \udc00 low']) {
        const r = schema.safeParse(bad);
        expect(r.success).toBe(false);
        expect(r.error?.issues[0]?.message).toBe(CONTROL_CHARACTERS_MESSAGE);
      }
      expect(schema.parse('line one\nline two\ttab')).toBe('line one\nline two\ttab');
      expect(schema.parse('emoji 🏡 ok')).toBe('emoji 🏡 ok');
    }
  });
});
