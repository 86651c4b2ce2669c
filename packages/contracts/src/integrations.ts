import { z } from 'zod';

/** State of the Google (Drive + Sheets) integration for the organisation. */
export const GoogleIntegrationSchema = z.object({
  /** GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET are set on the server. */
  configured: z.boolean(),
  connected: z.boolean(),
  email: z.string().nullable(),
  scopes: z.array(z.string()),
  /** Human explanation of the state (e.g. how to configure it). */
  note: z.string(),
});
/** State of the Google integration. */
export type GoogleIntegration = z.infer<typeof GoogleIntegrationSchema>;

/** `GET /api/integrations`. */
export const IntegrationsSchema = z.object({ google: GoogleIntegrationSchema });
/** `GET /api/integrations`. */
export type Integrations = z.infer<typeof IntegrationsSchema>;
