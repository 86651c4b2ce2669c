import { pgTable, text, timestamp, uuid } from 'drizzle-orm/pg-core';
import { users } from './auth.ts';
import { organizations } from './organizations.ts';

/**
 * An organisation's Google (Drive + Sheets) connection. One per organisation: flows of the organisation
 * read and write with it. Tokens are stored encrypted (AES-256-GCM, `token-crypto.ts`); the refresh token
 * is the long-lived secret, so it never sits in the database in clear text.
 */
export const googleConnections = pgTable('google_connections', {
  organizationId: uuid('organization_id')
    .primaryKey()
    .references(() => organizations.id, { onDelete: 'cascade' }),
  connectedByUserId: text('connected_by_user_id').references(() => users.id, { onDelete: 'set null' }),
  email: text('email'),
  /** Space-separated scopes Google granted (incremental consent adds to them). */
  scopes: text('scopes').notNull().default(''),
  refreshTokenEnc: text('refresh_token_enc'),
  accessTokenEnc: text('access_token_enc'),
  accessTokenExpiresAt: timestamp('access_token_expires_at', { withTimezone: true }),
  /** Parent Drive folder chosen on the Integrations page (id + name), if any. */
  parentFolderId: text('parent_folder_id'),
  parentFolderName: text('parent_folder_name'),
  /** Vendor master spreadsheet chosen on the Integrations page (id + name), if any. */
  vendorSheetId: text('vendor_sheet_id'),
  vendorSheetName: text('vendor_sheet_name'),
  createdAt: timestamp('created_at', { withTimezone: true }).notNull().defaultNow(),
  updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
});
