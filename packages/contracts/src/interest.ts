import { z } from 'zod';

/** Upcoming modules a user can ask to be notified about ("Get Notified"). */
export const interestModules = ['vendor-management', 'gst-tds-msme', 'working-capital'] as const;

/** An upcoming module. */
export const InterestModuleSchema = z.enum(interestModules);
/** An upcoming module. */
export type InterestModule = z.infer<typeof InterestModuleSchema>;

/** Human names of the upcoming modules. */
export const interestModuleLabels: Record<InterestModule, string> = {
  'vendor-management': 'Vendor Management',
  'gst-tds-msme': 'GST, TDS & MSME Compliance',
  'working-capital': 'Working Capital',
};

/** Body of `POST /api/interest`. */
export const RegisterInterestInputSchema = z.object({ module: InterestModuleSchema });
/** Body of `POST /api/interest`. */
export type RegisterInterestInput = z.infer<typeof RegisterInterestInputSchema>;

/** `GET`/`POST /api/interest`: modules the signed-in user asked about. */
export const InterestListSchema = z.object({ modules: z.array(InterestModuleSchema) });
/** `GET`/`POST /api/interest`. */
export type InterestList = z.infer<typeof InterestListSchema>;
