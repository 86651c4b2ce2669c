import {
  type DocumentReview,
  type ExtractionDocumentType,
  getExtractionProfile,
  toExtractionDocumentType,
} from '@bahi/contracts';
import { type ExtractionResult, forgetField, issuerRole, partyKey } from '@bahi/engine';
import { locateDocumentFile } from '../../adapters/sources/index.ts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { TaskExecutor } from '../../jobs/worker-pool.ts';
import { AppError, createValidationError } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import { recordAudit } from '../audit/audit.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { getDocumentReview } from '../documents/document-review.service.ts';
import { findDocument, listDocumentEvents } from '../documents/documents.repo.ts';
import { requireDocument } from '../documents/documents.service.ts';
import { findFlowById } from '../flows/flows.repo.ts';
import { getFlowType } from '../flows/flows.service.ts';
import {
  clearLearnedFrom,
  findIssuerMemory,
  listIssuerMemories,
  replaceIssuerMemory,
} from './memory.repo.ts';

/** How many times a change of an issuer's memory is redone when its row changed under it. */
const MEMORY_WRITE_ATTEMPTS = 3;

/**
 * Memory from corrections, per organisation: a person's correction of a document teaches Bahi how its
 * issuer's paper reads (the engine's `learnFromCorrection`, run in the worker pool by the
 * `issuer-memory-learn` job); that issuer's next documents are read with it (the run's extraction
 * recalls it); a person may forget a learned field from the review screen.
 */

/** The engine's type of a stored reading: its own, else its flow's. */
async function documentTypeOf(
  db: Db,
  result: ExtractionResult,
  flowId: string,
): Promise<ExtractionDocumentType> {
  if (result.documentType) return result.documentType;
  const flow = await findFlowById(db, flowId);
  return toExtractionDocumentType(flow ? getFlowType(flow) : 'INVOICE');
}

/** What the learning job needs besides the database. */
export interface LearnContext {
  db: Db;
  env: Env;
  executor: TaskExecutor;
}

/**
 * The `issuer-memory-learn` job: learn from the corrections people made to a document. It reads the
 * document as it is now (its corrected values, and the fields of its latest correction as the ones
 * taught), so running it twice stores the same lesson. A document that is gone, being read again,
 * or whose corrections do not name its issuer teaches nothing. Returns the memory saved, or null.
 */
export async function learnFromDocumentCorrection(
  ctx: LearnContext,
  { organizationId, documentId }: { organizationId: string; documentId: string },
) {
  const row = await findDocument(ctx.db, organizationId, documentId);
  if (!row || (row.status !== 'done' && row.status !== 'needs_review')) return null;
  const result = row.extraction as ExtractionResult | null;
  if (!result || result.error) return null;
  const type = await documentTypeOf(ctx.db, result, row.flowId);
  const headerFields = new Set(getExtractionProfile(type).headerFields.map((f) => f.name));
  const corrections = (
    await listDocumentEvents(ctx.db, { organizationId, documentId, kind: 'corrected' })
  ).filter((e) => e.field && headerFields.has(e.field));
  if (corrections.length === 0) return null;
  const corrected = new Set(corrections.map((e) => e.field!));
  // Taught: the fields of the latest correction (one save, one timestamp), the ones that may bring back a
  // field a person had Bahi forget. An older correction of this document does not undo a later "forget".
  const lastAt = corrections.at(-1)!.createdAt.getTime();
  const taught = [
    ...new Set(corrections.filter((e) => e.createdAt.getTime() === lastAt).map((e) => e.field!)),
  ];
  const role = issuerRole(type);
  const key = partyKey(result.fields[`${role}Gstin`], result.fields[`${role}Name`]);
  if (!key) return null;
  // Where the engine read the fields nobody corrected (a tie-breaker between places a value reads
  // back from); a corrected field's box marks where the wrong value was, so it is left out.
  const provenance: Record<string, { page: number; bbox: [number, number, number, number] }> = {};
  for (const [field, p] of Object.entries(result.provenance ?? {}))
    if (!corrected.has(field)) provenance[field] = { page: p.page, bbox: p.bbox };
  const path = await locateDocumentFile(ctx, row);
  for (let attempt = 1; ; attempt++) {
    const known = await findIssuerMemory(ctx.db, { organizationId, type, keys: [key] });
    const memory = await ctx.executor.learn({
      path,
      type,
      fields: result.fields,
      known,
      provenance,
      taught,
      // Lines only when a person corrected them: the engine's own lines teach nothing.
      ...(corrected.has('lineItems') || [...corrected].some((f) => f.startsWith('lineItems'))
        ? { lineItems: result.lineItems.map(({ provenance: _p, ...values }) => values) }
        : {}),
      // The lesson is dated by the correction, not by when the job ran: a second run stores the same.
      learnedAt: new Date(lastAt).toISOString(),
      timeoutMs: ctx.env.flows.extractTimeoutMs,
      // One document of a batch teaches from its own pages, not its neighbours' (other issuers' paper).
      ...(row.pageFrom !== null && row.pageTo !== null ? { pages: [row.pageFrom, row.pageTo] } : {}),
    });
    if (!memory) return null;
    // Saved only over the memory it was learned from: a lesson or a "forget" saved meanwhile is kept, and
    // this one is learned again on top of it.
    if (await replaceIssuerMemory(ctx.db, organizationId, { memory, known })) return memory;
    if (attempt >= MEMORY_WRITE_ATTEMPTS)
      throw new AppError('conflict', 'The issuer memory kept changing while learning from this correction');
  }
}

/**
 * `POST /api/documents/:id/forget`: forget what was learned about this document's issuer for `field`
 * (its recipe or constant, under every key the issuer is known by), so the issuer's next documents are
 * read by the rules alone until a person corrects that field again; this document's value stays, no
 * longer marked as learned. Returns the document as the review screen shows it.
 */
export async function forgetLearnedField(
  ctx: { db: Db; env: Env },
  { user, membership, id, field }: { user: SessionUser; membership: Membership; id: string; field: string },
): Promise<DocumentReview> {
  const { db, env } = ctx;
  const row = await requireDocument(db, membership, id);
  const result = row.extraction as ExtractionResult | null;
  if (!result || result.error) throw new AppError('conflict', 'Nothing was read from this document');
  const type = await documentTypeOf(db, result, row.flowId);
  if (!getExtractionProfile(type).headerFields.some((f) => f.name === field))
    throw createValidationError({ field: `${field} is not a field of this document` });
  const role = issuerRole(type);
  // The issuer as read now and as the engine first read it (a person may have corrected its GSTIN).
  const readings = [result.fields, (row.extracted as ExtractionResult | null)?.fields ?? {}];
  const keys = [
    ...new Set(
      readings.flatMap((f) => [partyKey(f[`${role}Gstin`], null), partyKey(null, f[`${role}Name`])]),
    ),
  ].filter((k): k is string => k !== null);
  for (let attempt = 1; ; attempt++) {
    const memories = await listIssuerMemories(db, { organizationId: membership.organizationId, type, keys });
    let clean = true;
    for (const memory of memories) {
      const forgotten = forgetField(memory, field);
      const saved = await replaceIssuerMemory(db, membership.organizationId, {
        memory: forgotten,
        known: memory,
      });
      clean = clean && saved;
    }
    if (clean) break;
    // A lesson was saved meanwhile: forget the field in it too.
    if (attempt >= MEMORY_WRITE_ATTEMPTS)
      throw new AppError('conflict', 'Try again: this vendor was just taught');
  }
  await clearLearnedFrom(db, { organizationId: membership.organizationId, documentId: row.id, field });
  const issuer =
    typeof result.fields[`${role}Name`] === 'string'
      ? (result.fields[`${role}Name`] as string)
      : 'this issuer';
  const label = getExtractionProfile(type).headerFields.find((f) => f.name === field)?.label ?? field;
  await recordActivity(db, {
    organizationId: membership.organizationId,
    kind: 'memory.forgotten',
    message: `${user.name} had Bahi forget how ${issuer} prints "${label}"`,
    userId: user.id,
  });
  await recordAudit(db, {
    organizationId: membership.organizationId,
    kind: 'rules.forget',
    actor: user,
    documentId: row.id,
    summary: `${user.name} had Bahi forget how ${issuer} prints "${label}"`,
    details: { field },
  });
  return getDocumentReview(db, { env, membership, id: row.id });
}
