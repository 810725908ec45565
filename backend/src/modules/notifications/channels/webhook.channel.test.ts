import { Webhook } from 'standardwebhooks';
import { signedHeaders, webhookBody, webhookSignature, webhookSigner } from './webhook.channel';

/** The signature is node:crypto's HMAC; receivers verify with the Standard Webhooks libraries, so it must match them byte for byte. */
describe('webhook signature', () => {
  const now = new Date('2026-11-24T15:00:00.000Z');
  const body = webhookBody({ type: 'lead.created', timestamp: '2026-11-24T14:59:59.000Z', data: { lead: { id: 41, name: 'José Ñúñez 🏠' } } });
  const id = 'msg_2KWPBgLlAfxdpx2AI54pPJ85f4W';

  it.each([
    ['a whsec_ secret (base64 key)', `whsec_${Buffer.from('a signing key of 24 bytes').toString('base64')}`],
    ['a typed secret (its UTF-8 bytes)', 'my s3cret – with ünïcode'],
  ])('%s: the same signature as standardwebhooks, and it verifies', (_name, secret) => {
    expect(webhookSignature(secret, id, body, now)).toBe(webhookSigner(secret).sign(id, now, body));
    const headers = signedHeaders(secret, id, body, new Date());
    expect(webhookSigner(secret).verify(body, headers)).toMatchObject({ type: 'lead.created', data: { lead: { id: 41 } } });
  });

  it('a whsec_ secret that is not base64 fails as the library fails', () => {
    expect(() => webhookSigner('whsec_abc')).toThrow();
    expect(() => webhookSignature('whsec_abc', id, body, now)).toThrow();
  });

  it('a signature under another secret does not verify', () => {
    const headers = signedHeaders(`whsec_${Buffer.from('one secret').toString('base64')}`, id, body, new Date());
    expect(() => new Webhook(`whsec_${Buffer.from('another secret').toString('base64')}`).verify(body, headers)).toThrow();
  });
});
