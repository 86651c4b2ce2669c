import { z } from 'zod';
import { safeText } from './text.ts';

// How documents reach a flow by themselves: the flow's trigger (manual, on arrival, on a schedule) and the
// e-mail (IMAP) source's settings. The server keeps the flow's automation state (next run, the source's
// last error and back-off) beside the flow; the web reads it on the flow record.

/** The time zone a daily schedule is read in when none is given: Bahi's teams work on Indian time. */
export const DEFAULT_TIME_ZONE = 'Asia/Kolkata';

/** True when `zone` is an IANA time zone this runtime knows. */
export function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}

/**
 * When a flow runs by itself. `manual`: only when a person presses Run. `arrival`: when its source has
 * something new (a new file in the watched folder, new mail). `every`: every N minutes. `daily`: once a
 * day at HH:MM in the organisation's time zone.
 */
export const FlowTriggerSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('manual') }),
  z.object({ kind: z.literal('arrival') }),
  z.object({
    kind: z.literal('every'),
    minutes: z
      .number()
      .int()
      .min(5, 'Run at most every 5 minutes')
      .max(24 * 60, 'Use a daily schedule for more than a day'),
  }),
  z.object({
    kind: z.literal('daily'),
    time: safeText().regex(/^([01]\d|2[0-3]):[0-5]\d$/, 'Give the time as HH:MM, e.g. 07:30'),
    timeZone: safeText()
      .default(DEFAULT_TIME_ZONE)
      .refine(isTimeZone, { message: 'Unknown time zone; use a name like Asia/Kolkata' }),
  }),
]);
/** When a flow runs by itself. */
export type FlowTrigger = z.infer<typeof FlowTriggerSchema>;

/** What is done to a message once its attachments are taken. */
export const MailAfterActionSchema = z.enum(['read', 'move', 'flag']);

/** Which messages and attachments of the mailbox a flow takes. Empty = no restriction. */
export const MailFiltersSchema = z.object({
  /** Sender addresses or domains (`@vendor.example`) allowed; empty = anyone. */
  senders: z.array(safeText().trim().max(200)).max(100).default([]),
  subjectContains: safeText().trim().max(200).default(''),
  /** Attachment names must contain one of these (case-insensitive); empty = any. */
  nameIncludes: z.array(safeText().trim().max(100)).max(50).default([]),
  /** Attachment names containing one of these are skipped. */
  nameExcludes: z.array(safeText().trim().max(100)).max(50).default([]),
  /** Messages older than this many days are left alone (0 = no limit). */
  maxAgeDays: z.number().int().min(0).max(3650).default(30),
  /** Skip tiny pictures (logos, signatures) and terms-and-conditions files (default on). */
  skipNoise: z.boolean().default(true),
});
/** A mailbox's filters. */
export type MailFilters = z.infer<typeof MailFiltersSchema>;

/**
 * How Bahi signs in to a mailbox: its password (or app password), or OAuth2 (SASL XOAUTH2) with a Google
 * or Microsoft 365 account connected by signing in there.
 */
export const MailAuthSchema = z.enum(['password', 'google', 'microsoft']);
/** How Bahi signs in to a mailbox. */
export type MailAuth = z.infer<typeof MailAuthSchema>;

/** `POST /api/flows/:id/mail-oauth`: the provider to connect the flow's mailbox with. */
export const MailOAuthStartSchema = z.object({ provider: z.enum(['google', 'microsoft']) });
/** The sign-in page to send the user to. */
export const MailOAuthConsentSchema = z.object({ url: z.string() });

/**
 * An e-mail (IMAP) source. `password` is write-only: sent when set or changed, stored encrypted, never
 * sent back (the flow record says `hasPassword` instead); leaving it out on an update keeps the stored one.
 */
export const MailSourceSchema = z.object({
  host: safeText().trim().min(1, 'Give the mail server, e.g. imap.gmail.com').max(255),
  port: z.number().int().min(1).max(65535).default(993),
  /** TLS from the first byte (port 993); false = plain, upgraded with STARTTLS when the server offers it. */
  tls: z.boolean().default(true),
  user: safeText().trim().min(1, 'Give the mailbox user name').max(320),
  /** Password (the default) or OAuth2 with Google / Microsoft 365. */
  auth: MailAuthSchema.default('password'),
  password: safeText().max(1000).optional(),
  /** Set by the server: a password is stored. */
  hasPassword: z.boolean().optional(),
  /** The stored password, encrypted by the server (AES-256-GCM); never accepted from or sent to a browser. */
  passwordEnc: z.string().optional(),
  folder: safeText().trim().min(1).max(255).default('INBOX'),
  filters: MailFiltersSchema.default(MailFiltersSchema.parse({})),
  after: MailAfterActionSchema.default('read'),
  /** Where `move` puts processed messages. */
  moveTo: safeText().trim().max(255).default(''),
});
/** An e-mail source's settings. */
export type MailSource = z.infer<typeof MailSourceSchema>;

/** What became of one item a source offered (an e-mail attachment): the flow page's intake log. */
export const IntakeItemSchema = z.object({
  id: z.string(),
  /** The message's subject and sender, when the item came from e-mail. */
  origin: z.string(),
  name: z.string(),
  status: z.enum(['taken', 'skipped', 'failed']),
  /** Why it was skipped or failed, in plain words; empty when taken. */
  reason: z.string(),
  at: z.string(),
});
/** One line of a flow's intake log. */
export type IntakeItem = z.infer<typeof IntakeItemSchema>;

/** `GET /api/flows/:id/intake`: the flow's automation state and its latest intake log lines. */
export const FlowIntakeSchema = z.object({
  trigger: FlowTriggerSchema,
  /** When the flow next runs by itself (ISO), or null (manual, or waiting for something to arrive). */
  nextRunAt: z.string().nullable(),
  /** The source's last failure in plain words (wrong password, mailbox gone), or null. */
  sourceError: z.string().nullable(),
  /** When a failing source is tried again (ISO), or null. */
  retryAt: z.string().nullable(),
  items: z.array(IntakeItemSchema),
});
/** A flow's automation state and intake log. */
export type FlowIntake = z.infer<typeof FlowIntakeSchema>;
