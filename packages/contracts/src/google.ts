import { z } from 'zod';
import { safeText } from './text.ts';

/**
 * The Google connection as the Integrations page and the flow form see it, and the answers of the
 * `/api/google/*` and `/api/oauth/*` routes. `GoogleIntegrationSchema` (integrations.ts) is the short
 * form `/api/integrations` lists; this is the card's full state with the folder and sheet set-up.
 */

/** A Drive folder or spreadsheet the organisation chose on the Integrations page. */
export const GoogleLinkedItemSchema = z.object({ id: z.string(), name: z.string(), url: z.string() });
/** A Drive folder or spreadsheet the organisation chose. */
export type GoogleLinkedItem = z.infer<typeof GoogleLinkedItemSchema>;

/** `GET /api/google/status` (also the answer of `POST /api/google/refresh` and `/disconnect`). */
export const GoogleStatusSchema = z.object({
  /** GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set on the server. */
  configured: z.boolean(),
  connected: z.boolean(),
  email: z.string().nullable(),
  scopes: z.array(z.string()),
  /** Scopes Bahi needs that the grant lacks; reconnecting asks for them. */
  missingScopes: z.array(z.string()),
  /** Human explanation of the state (e.g. how to configure it). */
  note: z.string(),
  parentFolder: GoogleLinkedItemSchema.nullable(),
  vendorSheet: GoogleLinkedItemSchema.nullable(),
});
/** `GET /api/google/status`. */
export type GoogleStatus = z.infer<typeof GoogleStatusSchema>;

/** Body of `POST /api/google/folder` and `/api/google/vendor-sheet`: a link to use, or nothing to create one. */
export const GoogleSetupInputSchema = z.object({
  url: safeText().max(2000).optional(),
  name: safeText().max(200).optional(),
});
/** Body of `POST /api/google/folder` and `/api/google/vendor-sheet`. */
export type GoogleSetupInput = z.infer<typeof GoogleSetupInputSchema>;

/** Answer of `POST /api/google/folder` and `/api/google/vendor-sheet`: the item, and whether Bahi created it. */
export const GoogleSetupItemSchema = GoogleLinkedItemSchema.extend({ created: z.boolean() });
/** Answer of `POST /api/google/folder` and `/api/google/vendor-sheet`. */
export type GoogleSetupItem = z.infer<typeof GoogleSetupItemSchema>;

/** `GET /api/oauth/url`: Google's consent URL, to open in a 600×600 popup. */
export const GoogleConsentUrlSchema = z.object({ url: z.string() });
/** `GET /api/oauth/url`. */
export type GoogleConsentUrl = z.infer<typeof GoogleConsentUrlSchema>;

/** Message the OAuth callback page (`/api/oauth/callback`) posts to its opener when the consent ends. */
export const OAuthCompleteMessageSchema = z.object({
  type: z.literal('oauth-complete'),
  success: z.boolean(),
  /** Why it failed, in words; absent reads as none. */
  error: z.string().nullable().default(null),
});
/** Message the OAuth callback page posts to its opener. */
export type OAuthCompleteMessage = z.infer<typeof OAuthCompleteMessageSchema>;
