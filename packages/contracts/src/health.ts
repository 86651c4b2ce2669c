import { z } from 'zod';

/** `GET /healthz`. */
export const HealthSchema = z.object({ ok: z.literal(true) });
/** `GET /healthz`. */
export type Health = z.infer<typeof HealthSchema>;
