import crypto from 'node:crypto';

/**
 * Secrets at rest (webhook secrets, CRM API keys): AES-256-GCM under ENCRYPTION_KEY (64 hex chars).
 * Stored as `v1:<iv>:<tag>:<ciphertext>` (base64url), so a key rotation can add v2 beside it.
 */
export interface SecretBox {
  seal(plain: string): string;
  open(sealed: string): string;
}

export function createSecretBox(encryptionKeyHex: string | undefined): SecretBox {
  if (!encryptionKeyHex || !/^[0-9a-f]{64}$/i.test(encryptionKeyHex)) {
    throw new Error('ENCRYPTION_KEY (64 hex characters) is needed to store secrets');
  }
  const key = Buffer.from(encryptionKeyHex, 'hex');
  return {
    seal(plain) {
      const iv = crypto.randomBytes(12);
      const cipher = crypto.createCipheriv('aes-256-gcm', key, iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return ['v1', iv.toString('base64url'), cipher.getAuthTag().toString('base64url'), body.toString('base64url')].join(':');
    },
    open(sealed) {
      const [version, iv, tag, body] = sealed.split(':');
      if (version !== 'v1' || !iv || !tag || body === undefined) throw new Error('Unknown sealed secret format');
      const decipher = crypto.createDecipheriv('aes-256-gcm', key, Buffer.from(iv, 'base64url'));
      decipher.setAuthTag(Buffer.from(tag, 'base64url'));
      return Buffer.concat([decipher.update(Buffer.from(body, 'base64url')), decipher.final()]).toString('utf8');
    },
  };
}
