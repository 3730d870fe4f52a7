import { StatementRefused } from './errors';
import { STATEMENT_MAX_BYTES } from './types';

/**
 * The file's bytes as text: at most STATEMENT_MAX_BYTES, strict UTF-8 (ASCII included; a UTF-8
 * byte-order mark dropped). UTF-16, Latin-1 bytes or anything else that is not UTF-8 is refused:
 * the bank's export is asked for again in UTF-8 rather than guessed at.
 */
export function decodeStatement(buf: Uint8Array): string {
  if (buf.byteLength > STATEMENT_MAX_BYTES) throw new StatementRefused('bankFileTooLarge', { max: `${STATEMENT_MAX_BYTES / 1024 / 1024} MiB` });
  if ((buf[0] === 0xff && buf[1] === 0xfe) || (buf[0] === 0xfe && buf[1] === 0xff)) throw new StatementRefused('bankFileEncoding', { encoding: 'UTF-16' });
  let text: string;
  try {
    text = new TextDecoder('utf-8', { fatal: true, ignoreBOM: false }).decode(buf);
  } catch {
    throw new StatementRefused('bankFileEncoding', { encoding: 'not UTF-8' });
  }
  if (text.includes('\u0000')) throw new StatementRefused('bankFileEncoding', { encoding: 'NUL bytes' });
  return text;
}
