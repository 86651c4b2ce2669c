import { z } from 'zod';
import { safeText } from './text.ts';

/**
 * Posting approved purchase invoices into the books (Tally Prime today): the connection, the ledger
 * mapping, and each document's push record. The voucher itself is built by `@bahi/compliance`.
 */

/** A ledger of the company, as Tally lists it. */
export const BooksLedgerSchema = z.object({
  name: z.string(),
  parent: z.string().nullable(),
  gstin: z.string().nullable(),
});
/** A ledger of the company. */
export type BooksLedger = z.infer<typeof BooksLedgerSchema>;

/** `PUT /api/books/tally`: where Tally's XML server listens and which company to post into. */
export const TallyConnectionInputSchema = z.object({
  host: safeText()
    .trim()
    .min(1, 'Enter the address of the computer running Tally (localhost if it is this one)')
    .max(253)
    .regex(/^[A-Za-z0-9.:[\]-]+$/, 'Enter a host name or IP address, without http:// or a path'),
  port: z.coerce
    .number()
    .int('Enter a whole port number')
    .min(1, 'Ports run from 1 to 65535')
    .max(65535, 'Ports run from 1 to 65535')
    .default(9000),
  company: safeText().trim().min(1, 'Enter the company name exactly as Tally shows it').max(200),
  /** Post each invoice to Tally as soon as it is approved. */
  autoPost: z.boolean().default(false),
});
/** The Tally connection as saved. */
export type TallyConnectionInput = z.infer<typeof TallyConnectionInputSchema>;

/** What a push record says, in words the review queue shows. */
export const BOOKS_PUSH_LABELS = [
  'Queued',
  'Posting',
  'Posted',
  'Altered',
  'Cancelled',
  'Failed',
  'Changed since posted',
] as const;
/** A push record's label. */
export type BooksPushLabel = (typeof BOOKS_PUSH_LABELS)[number];

/** One document's push record. */
export const BooksPushSchema = z.object({
  documentId: z.uuid(),
  /** Where it is posted: Tally, or Zoho Books. */
  kind: z.enum(['tally', 'zoho']),
  fileName: z.string(),
  label: z.enum(BOOKS_PUSH_LABELS),
  /** Workflow state: waiting, being sent, finished, or refused/failed (a person retries). */
  state: z.enum(['queued', 'sending', 'done', 'failed']),
  /** What stands in Tally after the last successful push. */
  outcome: z.enum(['created', 'altered', 'cancelled']).nullable(),
  /** `post` or `cancel`: what was last asked. */
  desired: z.enum(['post', 'cancel']),
  remoteId: z.string().nullable(),
  voucherId: z.string().nullable(),
  /** sha256 of the XML last accepted by Tally. */
  sentHash: z.string().nullable(),
  sentAt: z.string().nullable(),
  requestedBy: z.string().nullable(),
  /** Tally's refusal in its own words (LINEERROR), or why Bahi could not send. */
  error: z.string().nullable(),
  counters: z.record(z.string(), z.number()),
  /** The document was removed after posting: its voucher should be cancelled once a person confirms. */
  removed: z.boolean(),
  updatedAt: z.string(),
});
/** One document's push record. */
export type BooksPush = z.infer<typeof BooksPushSchema>;

/** `GET /api/books/tally`. */
export const TallyConnectionSchema = z.object({
  configured: z.boolean(),
  host: z.string(),
  port: z.number(),
  company: z.string(),
  autoPost: z.boolean(),
  lastTest: z.object({ ok: z.boolean(), message: z.string(), at: z.string() }).nullable(),
  ledgerCount: z.number(),
  /** The most recent push, whatever its outcome. */
  lastPush: BooksPushSchema.nullable(),
  counts: z.object({ posted: z.number(), failed: z.number(), queued: z.number() }),
});
/** The Tally connection's state. */
export type TallyConnection = z.infer<typeof TallyConnectionSchema>;

/** `POST /api/books/tally/test`. */
export const TallyTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  ledgers: z.array(BooksLedgerSchema),
});
/** The answer of "Test connection". */
export type TallyTestResult = z.infer<typeof TallyTestResultSchema>;

const ledgerName = safeText().trim().min(1).max(200);
const byKey = z.record(safeText().max(20), ledgerName);

/** Which Tally ledger each part of a purchase voucher goes to. */
export const LedgerMappingSchema = z.object({
  /** Party ledger by supplier GSTIN. */
  parties: z.record(safeText().max(20), ledgerName).default({}),
  /** Purchase ledger by total GST rate (`"18"`). */
  purchase: byKey.default({}),
  igst: byKey.default({}),
  /** By head rate (`"9"` for 18 %). */
  cgst: byKey.default({}),
  sgst: byKey.default({}),
  cess: ledgerName.nullable().default(null),
  roundOff: ledgerName.nullable().default(null),
  /** TDS payable ledger by section (`"194J(b)"`). */
  tdsPayable: byKey.default({}),
});
/** The ledger mapping. */
export type LedgerMapping = z.infer<typeof LedgerMappingSchema>;

/** A supplier of the approved invoices and its party ledger. */
export const PartyMappingRowSchema = z.object({
  gstin: z.string().nullable(),
  vendorName: z.string(),
  state: z.string().nullable(),
  mapped: z.string().nullable(),
  suggested: z.string().nullable(),
  suggestedBy: z.enum(['gstin', 'name']).nullable(),
  /** The mapped (or suggested) ledger exists in Tally's list. */
  exists: z.boolean(),
});
/** A supplier row of the mapping screen. */
export type PartyMappingRow = z.infer<typeof PartyMappingRowSchema>;

/** `GET /api/books/tally/mapping`. */
export const LedgerMappingViewSchema = z.object({
  mapping: LedgerMappingSchema,
  ledgers: z.array(BooksLedgerSchema),
  /** GST rates to map (those of the invoices, and the usual slabs). */
  rates: z.array(z.string()),
  tdsSections: z.array(z.string()),
  parties: z.array(PartyMappingRowSchema),
});
/** The mapping screen. */
export type LedgerMappingView = z.infer<typeof LedgerMappingViewSchema>;

/** `POST /api/books/tally/party-ledgers`: the suppliers a person confirmed, with the ledger name to create. */
export const CreatePartyLedgersInputSchema = z.object({
  parties: z
    .array(z.object({ gstin: safeText().max(20).nullable(), name: ledgerName }))
    .min(1, 'Choose at least one supplier')
    .max(500),
});
/** Party ledgers to create. */
export type CreatePartyLedgersInput = z.infer<typeof CreatePartyLedgersInputSchema>;

/** What creating party ledgers did. */
export const CreatePartyLedgersResultSchema = z.object({
  created: z.array(z.string()),
  errors: z.array(z.string()),
});
/** What creating party ledgers did. */
export type CreatePartyLedgersResult = z.infer<typeof CreatePartyLedgersResultSchema>;

/** `POST /api/books/tally/post`: approved invoices to post (or post again after a correction or failure). */
export const PostToBooksInputSchema = z.object({
  documentIds: z.array(z.uuid()).min(1, 'Choose at least one invoice').max(500),
});
/** A batch to post. */
export type PostToBooksInput = z.infer<typeof PostToBooksInputSchema>;

/** What a batch did: queued documents and those left out, with the reason. */
export const PostToBooksResultSchema = z.object({
  queued: z.number(),
  skipped: z.array(z.object({ documentId: z.string(), fileName: z.string(), reason: z.string() })),
});
/** What a batch did. */
export type PostToBooksResult = z.infer<typeof PostToBooksResultSchema>;

/** `GET /api/books/pushes?ids=`: push records of the documents named (comma-separated), or the latest 200. */
export const BooksPushQuerySchema = z.object({ ids: z.string().max(40_000).optional() });

/** `GET /api/books/pushes`. */
export const BooksPushListSchema = z.object({ items: z.array(BooksPushSchema) });
/** Push records. */
export type BooksPushList = z.infer<typeof BooksPushListSchema>;

/** `GET /api/books/tally.xml`: the import file for chosen invoices, or every approved invoice of a month. */
export const TallyXmlQuerySchema = z.object({
  ids: z.string().max(40_000).optional(),
  period: z
    .string()
    .regex(/^\d{4}-(0[1-9]|1[0-2])$/, 'Choose a month as YYYY-MM')
    .optional(),
});

/** Zoho's data centres (the domain the organisation's Zoho account lives on). */
export const ZOHO_REGIONS = ['in', 'com', 'eu', 'com.au', 'jp', 'ca', 'sa'] as const;

/** `PUT /api/books/zoho`: the organisation in Zoho Books and the OAuth client that reaches it. */
export const ZohoConnectionInputSchema = z.object({
  organizationId: safeText()
    .trim()
    .regex(
      /^\d{5,20}$/,
      'Enter the organisation ID as Zoho Books shows it (Settings › Organisation Profile): digits only',
    ),
  region: z.enum(ZOHO_REGIONS, { message: 'Choose the data centre your Zoho account is on' }),
  clientId: safeText()
    .trim()
    .min(1, 'Enter the client ID of your Zoho API client (api-console.zoho)')
    .max(200),
  /** Left empty to keep the stored secret. */
  clientSecret: safeText().trim().max(500).optional(),
  /** Left empty to keep the stored refresh token. */
  refreshToken: safeText().trim().max(1000).optional(),
  autoPost: z.boolean().default(false),
});
/** The Zoho Books connection as saved. */
export type ZohoConnectionInput = z.infer<typeof ZohoConnectionInputSchema>;

/** `GET /api/books/zoho` (secrets are never sent back: only whether they are stored). */
export const ZohoConnectionSchema = z.object({
  configured: z.boolean(),
  organizationId: z.string(),
  region: z.enum(ZOHO_REGIONS),
  clientId: z.string(),
  hasSecrets: z.boolean(),
  autoPost: z.boolean(),
  lastTest: z.object({ ok: z.boolean(), message: z.string(), at: z.string() }).nullable(),
  lastPush: BooksPushSchema.nullable(),
  counts: z.object({ posted: z.number(), failed: z.number(), queued: z.number() }),
});
/** The Zoho Books connection's state. */
export type ZohoConnection = z.infer<typeof ZohoConnectionSchema>;

/** An account of the chart of accounts, as Zoho lists it. */
export const ZohoAccountSchema = z.object({ id: z.string(), name: z.string(), type: z.string() });
/** A tax or tax group (`kind` `group`, `igst`, `cgst`, …) of the organisation. */
export const ZohoTaxSchema = z.object({
  id: z.string(),
  name: z.string(),
  percentage: z.number(),
  kind: z.string(),
});

/** `POST /api/books/zoho/test`: the organisation's accounts, taxes and vendors. */
export const ZohoTestResultSchema = z.object({
  ok: z.boolean(),
  message: z.string(),
  accounts: z.array(ZohoAccountSchema),
  taxes: z.array(ZohoTaxSchema),
  vendors: z.array(BooksLedgerSchema),
});
/** The answer of Zoho's "Test connection". */
export type ZohoTestResult = z.infer<typeof ZohoTestResultSchema>;

const zohoId = safeText().trim().min(1).max(40);
const byRate = z.record(safeText().max(6), zohoId);

/** Which Zoho account and tax each GST rate of a bill goes to (Zoho works the tax out from its tax). */
export const ZohoMappingSchema = z.object({
  /** Purchase account id by total GST rate (`"18"`). */
  purchase: byRate.default({}),
  /** Tax (group) id for a supplier in the buyer's state (CGST + SGST), by rate. */
  intraTax: byRate.default({}),
  /** IGST tax id for a supplier in another state, by rate. */
  interTax: byRate.default({}),
});
/** The Zoho Books mapping. */
export type ZohoMapping = z.infer<typeof ZohoMappingSchema>;

/** `GET /api/books/zoho/mapping`: the mapping, what Zoho lists, the rates to map and suggestions. */
export const ZohoMappingViewSchema = z.object({
  mapping: ZohoMappingSchema,
  accounts: z.array(ZohoAccountSchema),
  taxes: z.array(ZohoTaxSchema),
  rates: z.array(z.string()),
  suggested: ZohoMappingSchema,
});
/** The Zoho mapping screen. */
export type ZohoMappingView = z.infer<typeof ZohoMappingViewSchema>;
