import { createHash, randomBytes, randomInt, timingSafeEqual } from 'node:crypto';
import fs from 'node:fs';
import { hash, verify } from '@node-rs/argon2';

/** 256 random bits, base64url: access and refresh tokens, pay links. */
export const newToken = () => randomBytes(32).toString('base64url');
export const sha256 = (s: string) => createHash('sha256').update(s).digest('hex');
export const sixDigitCode = () => String(randomInt(0, 1_000_000)).padStart(6, '0');

export function safeEqual(a: string, b: string): boolean {
  const x = Buffer.from(a);
  const y = Buffer.from(b);
  return x.length === y.length && timingSafeEqual(x, y);
}

/** argon2id (the library's default algorithm), OWASP parameters (19 MiB, 2 iterations). */
/** An unusable password hash: nothing verifies against it (a user not activated yet, or signed in by SSO only). */
export const UNUSABLE_PASSWORD = '!unusable';

export const hashPassword = (pw: string) => hash(pw, { memoryCost: 19456, timeCost: 2, parallelism: 1 });
/** argon2 verifications done by this process (a test counts them: an unknown name must cost one too). */
export const passwordWork = { verifications: 0 };
export const verifyPassword = (hashed: string, pw: string) => {
  passwordWork.verifications++;
  return verify(hashed, pw).catch(() => false);
};

/** The SHA-256 of a file's bytes, hex, streamed (an inbox file's identity: the same file twice is one import). */
export async function fileHash(file: string): Promise<string> {
  const h = createHash('sha256');
  for await (const chunk of fs.createReadStream(file)) h.update(chunk as Buffer);
  return h.digest('hex');
}
