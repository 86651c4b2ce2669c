import { hkdfSync } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { BooksUnreachableError } from '../../adapters/books/books-connector.ts';
import { createZohoBooksConnector, type ZohoRegion } from '../../adapters/books/zoho-books.ts';
import type { Env } from '../../config/env.ts';
import { resolveAuthSecret } from '../../config/secret.ts';
import type { Db } from '../../db/client.ts';
import { getDocumentFile } from '../documents/documents.service.ts';
import { decryptToken, encryptToken } from '../google/token-crypto.ts';
import type { BooksConnectionRow } from './books.repo.ts';

// A Zoho Books connection as stored: `host` holds the data centre (`in`, `com`, …), `company` Zoho's
// organisation id, and `secret_enc` the OAuth client id, secret and refresh token — AES-256-GCM under a key
// of its own derived from the server secret, bound to the organisation (as the Google tokens and mailbox
// passwords are), so a copied row does not open elsewhere.

/** Zoho's API and accounts servers, when not the data centre's own (a test's stand-in). */
export interface ZohoUrls {
  api: string;
  accounts: string;
}

/** What `secret_enc` holds. */
export interface ZohoSecrets {
  clientId: string;
  clientSecret: string;
  refreshToken: string;
}

const keys = new WeakMap<Env, Promise<Buffer>>();

function secretKey(env: Env): Promise<Buffer> {
  let key = keys.get(env);
  if (!key) {
    key = resolveAuthSecret(env).then((s) =>
      Buffer.from(hkdfSync('sha256', s, 'bahi', 'books-secrets/v1', 32)),
    );
    keys.set(env, key);
  }
  return key;
}

/** Seals the OAuth client and refresh token for the organisation's row. */
export async function sealZohoSecrets(
  env: Env,
  organizationId: string,
  secrets: ZohoSecrets,
): Promise<string> {
  return encryptToken(await secretKey(env), JSON.stringify(secrets), organizationId);
}

/** The stored secrets, or null when there are none or they no longer open (the server secret changed). */
export async function openZohoSecrets(env: Env, row: BooksConnectionRow): Promise<ZohoSecrets | null> {
  if (!row.secretEnc) return null;
  try {
    return JSON.parse(decryptToken(await secretKey(env), row.secretEnc, row.organizationId)) as ZohoSecrets;
  } catch {
    return null;
  }
}

/** Access tokens of this process, by connection: an hour each, so pushes do not buy one apiece. */
const tokenCache = new Map<string, { token: string; expiresAt: number }>();

/** The real Zoho Books client of a saved connection. */
export async function zohoConnectorOf(
  ctx: { env?: Env | undefined; zohoUrls?: ZohoUrls | undefined },
  connection: BooksConnectionRow,
) {
  const secrets = ctx.env ? await openZohoSecrets(ctx.env, connection) : null;
  if (!secrets?.clientSecret || !secrets.refreshToken)
    throw new BooksUnreachableError(
      'The Zoho Books client secret and refresh token are not stored (or the server secret changed): enter them again on the Integrations page',
    );
  return createZohoBooksConnector({
    organizationId: connection.company,
    region: connection.host as ZohoRegion,
    ...secrets,
    tokenCache,
    ...((ctx.zohoUrls ?? ctx.env?.zohoUrls) ? { urls: ctx.zohoUrls ?? ctx.env?.zohoUrls } : {}),
  });
}

const ATTACHABLE = new Set(['application/pdf', 'image/png', 'image/jpeg']);

/** A document's file (the PDF, or a scan's image), or null when it is no longer available. */
export async function documentPdf(db: Db, env: Env, organizationId: string, documentId: string) {
  const file = await getDocumentFile(db, {
    env,
    membership: { organizationId, role: 'viewer' },
    id: documentId,
  }).catch(() => null);
  if (!file || !ATTACHABLE.has(file.contentType)) return null;
  return {
    fileName: file.fileName,
    contentType: file.contentType,
    bytes: new Uint8Array(await readFile(file.path)),
  };
}
