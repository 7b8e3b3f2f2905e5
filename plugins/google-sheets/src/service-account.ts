/*
 * The owner's settings for Google Sheets, read and checked (docs/integrations.md, "Google Sheets"): the
 * service account's JSON key, as Google Cloud's console downloads it, and the spreadsheet's address.
 */

/** The parts of a service account key the plugin uses. */
export interface ServiceAccountKey {
  client_email: string;
  private_key: string;
  /** Where the key's tokens are asked for: Google's token endpoint for every real key. */
  token_uri: string;
}

export const GOOGLE_TOKEN_URL = 'https://oauth2.googleapis.com/token';

/** The key from the JSON text the owner pasted, or a sentence saying what is wrong with it. */
export function parseServiceAccountKey(text: string): ServiceAccountKey | string {
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return 'Paste the whole JSON key file of the service account (it starts with "{")';
  }
  const k = (json && typeof json === 'object' ? json : {}) as Record<string, unknown>;
  if (k.type !== 'service_account') return 'This is not a service account key: its "type" is not "service_account"';
  if (typeof k.client_email !== 'string' || !k.client_email.includes('@')) return 'The key has no "client_email"';
  if (typeof k.private_key !== 'string' || !k.private_key.includes('PRIVATE KEY')) return 'The key has no "private_key"';
  const tokenUri = k.token_uri === undefined ? GOOGLE_TOKEN_URL : k.token_uri;
  if (typeof tokenUri !== 'string' || !/^https?:\/\/[^/]/.test(tokenUri)) return 'The key\'s "token_uri" is not an http(s) address';
  return { client_email: k.client_email, private_key: k.private_key, token_uri: tokenUri };
}

/**
 * The spreadsheet's id from its address (`https://docs.google.com/spreadsheets/d/<id>/edit#gid=0`) or the
 * id itself; null when it is neither.
 */
export function spreadsheetIdOf(input: string): string | null {
  const s = input.trim();
  const fromUrl = /\/spreadsheets\/d\/([A-Za-z0-9_-]{10,})/.exec(s);
  if (fromUrl) return fromUrl[1]!;
  return /^[A-Za-z0-9_-]{10,}$/.test(s) ? s : null;
}

/**
 * A range in A1 notation on the chosen sheet (tab), quoted as the API wants (`'Q3 answers'!A1`); without a
 * sheet name, the range is on the spreadsheet's first visible sheet.
 */
export function rangeOn(sheet: string, cells: string): string {
  const name = sheet.trim();
  return name ? `'${name.replaceAll("'", "''")}'!${cells}` : cells;
}
