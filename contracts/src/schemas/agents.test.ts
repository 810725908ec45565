import { z } from 'zod';
import { fieldErrors } from '../errors.js';
import {
  AGENT_FORM_DEFAULTS,
  AGENT_FORM_MISSING_TOAST,
  accountSetupFormSchema,
  accountSetupPayloadSchema,
  agentCreateSchema,
  agentFormSchema,
  agentUpdateSchema,
  brandingUpdateSchema,
  mlsLoadSchema,
  mlsSearchSchema,
  profileEditSchema,
} from './agents.js';

const errorsOf = (schema: z.ZodType, input: unknown) => {
  const r = schema.safeParse(input);
  if (r.success) throw new Error(`expected ${JSON.stringify(input)} to be rejected`);
  return fieldErrors(r.error);
};

describe('agent form and MLS search', () => {
  it('requires name and state with the spec messages', () => {
    expect(errorsOf(agentFormSchema, AGENT_FORM_DEFAULTS)).toEqual({
      name: 'Name is required',
      state: 'State is required',
    });
    expect(errorsOf(mlsSearchSchema, {})).toEqual({ name: 'Name is required', state: 'State is required' });
    expect(errorsOf(agentFormSchema, { name: '   ', state: 'FL' })).toEqual({ name: 'Name is required' });
  });
  it('accepts a name and a state code', () => {
    expect(agentFormSchema.parse({ name: ' Jane Doe ', state: 'fl' })).toEqual({ name: 'Jane Doe', state: 'FL' });
  });
  it('exports the missing-fields toast', () => {
    expect(AGENT_FORM_MISSING_TOAST).toEqual({
      title: 'Required Fields Missing',
      description: 'Please enter your name and state before proceeding.',
    });
  });
});

describe('MLS load', () => {
  it('takes agentId and mlsId, numbers and digit strings alike', () => {
    expect(mlsLoadSchema.parse({ agentId: '5', mlsId: 'A123' })).toEqual({ agentId: 5, mlsId: 'A123' });
    expect(mlsLoadSchema.parse({ agentId: 5, mlsId: 5 })).toEqual({ agentId: 5, mlsId: '5' });
  });
  it('rejects a missing mlsId and a bad agentId', () => {
    expect(errorsOf(mlsLoadSchema, { agentId: 'abc', mlsId: ' ' })).toEqual({
      agentId: 'Must be a positive whole number',
      mlsId: 'MLS ID is required',
    });
  });
});

describe('agent create payload', () => {
  it('accepts a found agent', () => {
    expect(
      agentCreateSchema.parse({
        name: 'Jane Doe',
        state: 'FL',
        email: 'Jane@Example.com',
        mlsId: 'M123',
        brokerage: null,
        phone: null,
      }),
    ).toEqual({ name: 'Jane Doe', state: 'FL', email: 'jane@example.com', mlsId: 'M123', brokerage: null, phone: null });
  });
  it('accepts manual entry without mlsId, with nulls from the wizard', () => {
    const v = agentCreateSchema.parse({ name: 'Jane', state: 'TX', manualEntry: true, email: null, phone: null, brokerage: null });
    expect(v).toMatchObject({ name: 'Jane', state: 'TX', manualEntry: true, email: null });
    expect(v.mlsId).toBeUndefined();
  });
  it('needs an mlsId unless it is manual entry', () => {
    expect(errorsOf(agentCreateSchema, { name: 'Jane', state: 'TX' })).toEqual({ mlsId: 'MLS ID is required' });
    expect(errorsOf(agentCreateSchema, { name: 'Jane', state: 'TX', manualEntry: false, mlsId: '' })).toEqual({
      mlsId: 'MLS ID is required',
    });
  });
  it('validates name, state, email and phone', () => {
    expect(errorsOf(agentCreateSchema, { name: '', state: 'XX', email: 'bad', phone: 'call me', manualEntry: true })).toEqual({
      name: 'Name is required',
      state: 'Please select a valid US state',
      email: 'Please enter a valid email address',
      phone: 'Please enter a valid phone number',
    });
  });
});

describe('branding update', () => {
  it('accepts every field optional and maps "" to null', () => {
    expect(brandingUpdateSchema.parse({})).toEqual({});
    expect(
      brandingUpdateSchema.parse({
        name: 'Jane',
        email: '',
        phone: '305-555-1234',
        brokerage: ' Acme Realty ',
        profileImageUrl: '/objects/uploads/00000000-0000-4000-8000-000000007031',
        logoUrl: '',
      }),
    ).toEqual({
      name: 'Jane',
      email: null,
      phone: '305-555-1234',
      brokerage: 'Acme Realty',
      profileImageUrl: '/objects/uploads/00000000-0000-4000-8000-000000007031',
      logoUrl: null,
    });
  });
  it('rejects a bad email, a blank name and script URLs; drops unknown keys', () => {
    expect(errorsOf(brandingUpdateSchema, { email: 'jane@', name: ' ', logoUrl: 'javascript:alert(1)' })).toEqual({
      email: 'Please enter a valid email address',
      name: 'Name is required',
      logoUrl: 'Image must be an http(s) URL or an uploaded /objects/ path',
    });
    expect(brandingUpdateSchema.parse({ name: 'Jane', password: 'secret1', isAdmin: true })).toEqual({ name: 'Jane' });
  });
});

describe('account setup', () => {
  const good = { email: 'jane@example.com', password: 'secret1', confirmPassword: 'secret1' };
  it('accepts matching passwords', () => {
    expect(accountSetupFormSchema.parse(good)).toEqual(good);
  });
  it('uses the spec messages', () => {
    expect(errorsOf(accountSetupFormSchema, { email: 'nope', password: '12345', confirmPassword: '12345' })).toEqual({
      email: 'Please enter a valid email address',
      password: 'Password must be at least 6 characters',
    });
    expect(errorsOf(accountSetupFormSchema, { ...good, confirmPassword: 'secret2' })).toEqual({
      confirmPassword: "Passwords don't match",
    });
  });
  it('reports a mismatch together with an invalid email', () => {
    expect(errorsOf(accountSetupFormSchema, { email: 'x', password: 'secret1', confirmPassword: 'other12' })).toEqual({
      email: 'Please enter a valid email address',
      confirmPassword: "Passwords don't match",
    });
  });
  it('server payload is the email and an optional password, not trimmed', () => {
    expect(accountSetupPayloadSchema.parse({ email: ' Jane@Example.com', password: ' pass word ' })).toEqual({
      email: 'jane@example.com',
      password: ' pass word ',
    });
    expect(accountSetupPayloadSchema.parse({ email: 'jane@example.com' })).toEqual({ email: 'jane@example.com' });
    expect(errorsOf(accountSetupPayloadSchema, { email: 'jane@example.com', password: 'short' })).toEqual({
      password: 'Password must be at least 6 characters',
    });
  });
  it('the form leaves the password optional: empty both is fine, a typed one is checked and confirmed', () => {
    expect(accountSetupFormSchema.parse({ email: 'jane@example.com', password: '', confirmPassword: '' })).toEqual({
      email: 'jane@example.com',
      password: '',
      confirmPassword: '',
    });
    expect(errorsOf(accountSetupFormSchema, { email: 'jane@example.com', password: '', confirmPassword: 'secret1' })).toEqual({
      confirmPassword: "Passwords don't match",
    });
  });
  it('agentUpdateSchema needs an email with a password', () => {
    expect(agentUpdateSchema.parse({ email: 'a@b.co', password: 'secret1' })).toEqual({ email: 'a@b.co', password: 'secret1' });
    expect(errorsOf(agentUpdateSchema, { password: 'secret1' })).toEqual({ email: 'Please enter a valid email address' });
    expect(errorsOf(agentUpdateSchema, { email: 'a@b.co', password: 'short' })).toEqual({
      password: 'Password must be at least 6 characters',
    });
  });
});

describe('profile edit', () => {
  it('requires name and a valid email', () => {
    expect(errorsOf(profileEditSchema, { name: '', email: 'x' })).toEqual({
      name: 'Name is required',
      email: 'Valid email is required',
    });
  });
  it('keeps phone, brokerage and mlsId optional', () => {
    expect(profileEditSchema.parse({ name: 'Jane', email: 'jane@example.com', phone: '', brokerage: 'Acme' })).toEqual({
      name: 'Jane',
      email: 'jane@example.com',
      phone: null,
      brokerage: 'Acme',
    });
  });
});
