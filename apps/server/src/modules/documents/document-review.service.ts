import {
  type ApproveDocument,
  approvalNoteMessage,
  type DocumentCorrection,
  type DocumentEvent,
  type DocumentReview,
  type ExtractionDocumentType,
  findFieldSpec,
  getExtractionProfile,
  listHoldingReasons,
  listReasonsNeedingNote,
  readFieldInput,
  toExtractionDocumentType,
  toLineCellKey,
} from '@bahi/contracts';
import { type ExtractionResult, type FieldValue, recheckResult } from '@bahi/engine';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';
import type { JobSender } from '../../jobs/registry.ts';
import { AppError, createValidationError } from '../../lib/app-error.ts';
import { recordActivity } from '../activity/activity.service.ts';
import type { Membership, SessionUser } from '../auth/identity.ts';
import { postOnApproval } from '../books/books.service.ts';
import { type OutputsContext, refreshFlowOutputs } from '../flows/flow-outputs.ts';
import { type FlowRow, findFlowById } from '../flows/flows.repo.ts';
import { getFlowType } from '../flows/flows.service.ts';
import { requireApprovalAllowed } from '../maker-checker/maker-checker.ts';
import { listGstins } from '../organizations/organizations.repo.ts';
import { learnVendorFromDocument } from '../vendors/vendors.service.ts';
import { collectLatestCorrections, listCorrectedFields } from './document-corrections.ts';
import { buildDocumentOutcome } from './document-outcome.ts';
import { listDocumentPages } from './document-pages.ts';
import {
  type DocumentEventRow,
  type DocumentRow,
  findDocument,
  findNeighbourDocuments,
  listDocumentEvents,
  type ReviewedDocument,
  saveDocumentReview,
} from './documents.repo.ts';
import { requireDocument, toFlowDocument } from './documents.service.ts';

/**
 * Reviewing one document: what the review screen shows, a person's corrections and approval. Every
 * change is kept in the document's trail (who, when, old value, new value) and reaches the flow's
 * workbook and Google sheet a moment later, written by the flow's outputs job (flows/flow-outputs.ts).
 */

/** What a review change needs besides the database. */
export type ReviewContext = OutputsContext & {
  env: Env;
  /**
   * Enqueues learning from a correction and the rewrite of the flow's outputs; without it (tests without a
   * queue) nothing is learned and the outputs wait for their next download or run.
   */
  jobs?: JobSender | undefined;
};

function toEvent(row: DocumentEventRow): DocumentEvent {
  return {
    id: row.id,
    kind: row.kind as DocumentEvent['kind'],
    field: row.field,
    oldValue: (row.oldValue ?? null) as DocumentEvent['oldValue'],
    newValue: (row.newValue ?? null) as DocumentEvent['newValue'],
    userName: row.userName,
    at: row.createdAt.toISOString(),
  };
}

/** `GET /api/documents/:id/review`: the document, its pages, its trail and its neighbours. */
export async function getDocumentReview(
  db: Db,
  { env, membership, id }: { env: Env; membership: Membership; id: string },
): Promise<DocumentReview> {
  const row = await requireDocument(db, membership, id);
  const [flow, events, neighbours, pages, duplicateOf] = await Promise.all([
    findFlowById(db, row.flowId),
    listDocumentEvents(db, { organizationId: membership.organizationId, documentId: row.id }),
    findNeighbourDocuments(db, row),
    listDocumentPages(db, { env, membership, id: row.id }).then(
      ({ pages, note }) => ({ list: pages, error: note }),
      (error: unknown) => {
        if (error instanceof AppError) return { list: [], error: error.message };
        throw error;
      },
    ),
    // Once a person said it is not a duplicate, it is not asked again (a later correction keeps that).
    describeOriginal(
      db,
      membership.organizationId,
      row.duplicateDecision === 'not_duplicate' ? null : row.duplicateOf,
    ),
  ]);
  return {
    document: {
      ...toFlowDocument(row),
      extraction: (row.extraction as Record<string, unknown> | null) ?? null,
    },
    flowName: flow?.name ?? '',
    pages: pages.list,
    pagesError: pages.error,
    corrected: listCorrectedFields(
      (row.extraction as ExtractionResult | null) ?? null,
      collectLatestCorrections(events),
    ),
    approvedAt: row.approvedAt?.toISOString() ?? null,
    approvedBy: row.approvedBy,
    events: events.map(toEvent),
    duplicateOf,
    ...neighbours,
  };
}

/** The document a possible duplicate copies, named for the review screen (null when it is gone). */
async function describeOriginal(
  db: Db,
  organizationId: string,
  id: string | null,
): Promise<DocumentReview['duplicateOf']> {
  if (!id) return null;
  const original = await findDocument(db, organizationId, id);
  if (!original) return null;
  const flow = await findFlowById(db, original.flowId);
  return {
    id: original.id,
    flowId: original.flowId,
    fileName: original.fileName,
    flowName: flow?.name ?? '',
  };
}

/** The document type a document's fields are read against: the engine's, else its flow's. */
function typeOf(result: ExtractionResult, flow: FlowRow | undefined): ExtractionDocumentType {
  return result.documentType ?? toExtractionDocumentType(flow ? getFlowType(flow) : 'INVOICE');
}

const sameValue = (a: unknown, b: unknown) => (a ?? null) === (b ?? null);

/**
 * Apply typed values to a reading: each value read by its field's kind (a value that does not read is
 * a validation error naming the field), unchanged values skipped. Returns the new fields and lines and
 * the trail entries, or null when nothing changes.
 */
export function applyCorrection(
  result: ExtractionResult,
  type: ExtractionDocumentType,
  input: DocumentCorrection,
): {
  fields: Record<string, FieldValue>;
  lineItems: ExtractionResult['lineItems'];
  confidence: Record<string, number>;
  changes: Array<{ field: string; oldValue: FieldValue; newValue: FieldValue }>;
} | null {
  const problems: Record<string, string> = {};
  const fields = { ...result.fields };
  const confidence = { ...result.confidence };
  const lineItems = result.lineItems.map((line) => ({ ...line }));
  const changes: Array<{ field: string; oldValue: FieldValue; newValue: FieldValue }> = [];
  const profile = getExtractionProfile(type);
  for (const [name, typed] of Object.entries(input.fields)) {
    const spec = findFieldSpec(type, name);
    if (!spec || !profile.headerFields.some((f) => f.name === name)) {
      problems[`fields.${name}`] = `${name} is not a field of this document`;
      continue;
    }
    const reading = readFieldInput(spec.kind, typed);
    if (!reading.ok) {
      problems[`fields.${name}`] = `${spec.label}: ${reading.message}`;
      continue;
    }
    if (sameValue(fields[name], reading.value)) continue;
    changes.push({ field: name, oldValue: fields[name] ?? null, newValue: reading.value });
    fields[name] = reading.value;
    // A person's value is as sure as a value gets: it no longer asks for a look.
    confidence[name] = 1;
  }
  for (const cell of input.lines) {
    const key = toLineCellKey(cell.line, cell.field);
    const spec = profile.lineFields.find((f) => f.name === cell.field);
    const line = lineItems[cell.line - 1];
    if (!spec || !line) {
      problems[key] = spec ? `This document has no line ${cell.line}` : `${cell.field} is not a line field`;
      continue;
    }
    const reading = readFieldInput(spec.kind, cell.value);
    if (!reading.ok) {
      problems[key] = `Line ${cell.line}, ${spec.label}: ${reading.message}`;
      continue;
    }
    const old = line[cell.field] as FieldValue | undefined;
    if (sameValue(old, reading.value)) continue;
    changes.push({ field: key, oldValue: old ?? null, newValue: reading.value });
    line[cell.field] = reading.value;
  }
  const lines = changeLineRows(lineItems, profile.lineFields, input, problems);
  changes.push(...lines.changes);
  if (Object.keys(problems).length > 0) throw createValidationError(problems);
  return changes.length > 0 ? { fields, lineItems: lines.lineItems, confidence, changes } : null;
}

/**
 * Deletes and adds line rows as a person asked: rows that are not items (a total, a banner) go, an item the
 * engine missed gets an empty row to type into. Each is one trail entry (`lineItems.3`, the row's words).
 */
function changeLineRows(
  lineItems: ExtractionResult['lineItems'],
  lineFields: ReadonlyArray<{ name: string }>,
  input: DocumentCorrection,
  problems: Record<string, string>,
): {
  lineItems: ExtractionResult['lineItems'];
  changes: Array<{ field: string; oldValue: FieldValue; newValue: FieldValue }>;
} {
  const changes: Array<{ field: string; oldValue: FieldValue; newValue: FieldValue }> = [];
  const doomed = new Set(input.deleteLines ?? []);
  for (const n of doomed) {
    const line = lineItems[n - 1];
    if (!line) {
      problems[`deleteLines.${n}`] = `This document has no line ${n}`;
      continue;
    }
    const words = typeof line.description === 'string' ? line.description : `line ${n}`;
    changes.push({ field: `lineItems.${n}`, oldValue: words, newValue: null });
  }
  const kept = lineItems.filter((_, i) => !doomed.has(i + 1));
  for (let i = 0; i < (input.addLines ?? 0); i++) {
    const empty = Object.fromEntries(
      lineFields.map((f) => [f.name, null]),
    ) as ExtractionResult['lineItems'][number];
    kept.push(empty);
    changes.push({ field: `lineItems.${kept.length}`, oldValue: null, newValue: 'added' });
  }
  return { lineItems: kept, changes };
}

/** The document's lines as the sheet stores them (provenance stays in the extraction). */
function toLineRows(lineItems: ExtractionResult['lineItems']): Array<Record<string, unknown>> {
  return lineItems.map(({ provenance: _provenance, ...values }) => values as Record<string, unknown>);
}

/** A document a person may review: read, and not being read again. */
function requireReviewable(row: DocumentRow): void {
  if (row.status === 'pending' || row.status === 'processing')
    throw new AppError('run_in_progress', 'This document is being read; review it when the run ends');
  if (row.status !== 'done' && row.status !== 'needs_review')
    throw new AppError(
      'conflict',
      row.status === 'removed'
        ? 'This document was removed from its flow'
        : 'Nothing was read from this document; retry it instead',
    );
}

/**
 * `PATCH /api/documents/:id`: correct header fields and line cells. Checks run again on the corrected
 * values, the review verdict follows them, an earlier approval lapses (the values changed), and the
 * trail keeps each change. Nothing changes for values equal to the current ones.
 */
export async function correctDocument(
  ctx: ReviewContext,
  {
    user,
    membership,
    id,
    input,
  }: { user: SessionUser; membership: Membership; id: string; input: DocumentCorrection },
): Promise<DocumentReview> {
  const row = await requireDocument(ctx.db, membership, id);
  requireReviewable(row);
  const flow = await findFlowById(ctx.db, row.flowId);
  // A corrected buyer GSTIN is checked against the organisation's, as a run checks it.
  const organizationGstins = (await listGstins(ctx.db, membership.organizationId)).map((g) => g.gstin);
  let changed = 0;
  let fieldsChanged = false;
  const saved = await saveDocumentReview(ctx.db, {
    organizationId: membership.organizationId,
    documentId: row.id,
    review: (current) => {
      const result = current.extraction as ExtractionResult;
      const extracted = (current.extracted as ExtractionResult | null) ?? result;
      const type = typeOf(result, flow);
      const applied = applyCorrection(result, type, input);
      if (!applied) return null;
      changed = applied.changes.length;
      fieldsChanged = applied.changes.some((c) => !c.field.startsWith('lineItems.'));
      const next: ExtractionResult = {
        ...result,
        fields: applied.fields,
        provenance: withoutLessons(result.provenance, applied.changes),
        lineItems: applied.lineItems,
        confidence: applied.confidence,
        checks: recheckResult(extracted, applied.fields, applied.lineItems),
      };
      const outcome = buildDocumentOutcome(next, {
        duplicateOf: current.duplicateOf,
        duplicateDecision: current.duplicateDecision,
        organizationGstins,
      });
      return {
        extraction: next,
        extracted,
        status: outcome.status as ReviewedDocument['status'],
        failedChecks: outcome.failedChecks,
        reviewFlag: outcome.reviewFlag ?? 'review',
        approvedAt: null,
        approvedBy: null,
        lines: applied.changes.some((c) => c.field.startsWith('lineItems.'))
          ? toLineRows(applied.lineItems)
          : null,
        events: applied.changes.map((c) => ({
          kind: 'corrected',
          field: c.field,
          oldValue: c.oldValue,
          newValue: c.newValue,
          userId: user.id,
          userName: user.name,
        })),
        audit: {
          kind: 'document.corrected',
          actorId: user.id,
          actorName: user.name,
          summary: `${user.name} changed ${describeChanges(type, applied.changes)} on ${row.fileName}`,
          details: {
            fileName: row.fileName,
            changes: applied.changes.map((c) => ({ field: c.field, from: c.oldValue, to: c.newValue })),
          },
        },
      };
    },
  });
  if (!saved)
    throw new AppError('run_in_progress', 'This document is being read; review it when the run ends');
  if (changed > 0) {
    await recordActivity(ctx.db, {
      organizationId: membership.organizationId,
      kind: 'document.corrected',
      message: `${user.name} corrected ${changed === 1 ? 'a value' : `${changed} values`} of ${row.fileName}`,
      userId: user.id,
    });
    await refreshFlowOutputs(ctx, membership.organizationId, row.flowId);
    // A person's header correction teaches Bahi how this issuer's paper reads (learned in the worker pool:
    // reading a scan again takes OCR). Best effort: a correction is saved even when the queue is down.
    if (fieldsChanged)
      await ctx.jobs
        ?.send(
          'issuer-memory-learn',
          { organizationId: membership.organizationId, documentId: row.id },
          { singletonKey: row.id },
        )
        .catch((error: unknown) =>
          ctx.logger?.warn(
            { err: error, documentId: row.id },
            'could not enqueue learning from a correction',
          ),
        );
  }
  return getDocumentReview(ctx.db, { env: ctx.env, membership, id: row.id });
}

/**
 * The provenance of a reading after a person changed some of its values: a value a person typed was not
 * learned from anyone, so its "learned from" mark goes (the box stays: it still shows where it is printed).
 */
function withoutLessons(
  provenance: ExtractionResult['provenance'],
  changes: ReadonlyArray<{ field: string }>,
): ExtractionResult['provenance'] {
  const next = { ...provenance };
  for (const { field } of changes) {
    const p = next[field];
    if (p?.learnedFrom === undefined) continue;
    const { learnedFrom: _learnedFrom, ...rest } = p;
    next[field] = rest;
  }
  return next;
}

/** Corrections as the audit trail says them: "Total from 248693 to 250000; line 2 Rate from 10 to 11". */
function describeChanges(
  type: ExtractionDocumentType,
  changes: ReadonlyArray<{ field: string; oldValue: unknown; newValue: unknown }>,
): string {
  const shown = changes.slice(0, 5).map((c) => {
    const line = /^lineItems\.(\d+)\.(.+)$/.exec(c.field);
    const label = findFieldSpec(type, line ? line[2]! : c.field)?.label ?? c.field;
    const value = (v: unknown) => (v === null || v === undefined || v === '' ? 'empty' : String(v));
    return `${line ? `line ${line[1]} ${label}` : label} from ${value(c.oldValue)} to ${value(c.newValue)}`;
  });
  const more = changes.length > 5 ? ` and ${changes.length - 5} more` : '';
  return `${shown.join('; ')}${more}`;
}

/** The state a review leaves a document in when it changes nothing. */
function unchanged(row: DocumentRow): ReviewedDocument {
  return {
    extraction: row.extraction,
    extracted: row.extracted,
    status: row.status as ReviewedDocument['status'],
    failedChecks: row.failedChecks,
    reviewFlag: row.reviewFlag ?? 'review',
    approvedAt: row.approvedAt,
    approvedBy: row.approvedBy,
    lines: null,
    events: [],
  };
}

/**
 * `POST /api/documents/:id/approve`: a person vouches for the document's values as they stand. It
 * leaves the review queue and its rows read "Approved"; the reasons it was flagged stay in the
 * checks column and the trail. Approving over a failed check needs a note saying why (kept in the trail);
 * approving a possible duplicate says it is not one. The vendor master learns the document's vendor, with
 * the person's corrections. Approving an approved document changes nothing.
 */
export async function approveDocument(
  ctx: ReviewContext,
  {
    user,
    membership,
    id,
    input = {},
  }: { user: SessionUser; membership: Membership; id: string; input?: ApproveDocument },
): Promise<DocumentReview> {
  const row = await requireDocument(ctx.db, membership, id);
  requireReviewable(row);
  const reading = row.extraction as ExtractionResult;
  // Maker-checker: above the approval limit, an approver who did not correct the amounts.
  await requireApprovalAllowed(ctx.db, {
    user,
    membership,
    documentId: row.id,
    type: typeOf(reading, await findFlowById(ctx.db, row.flowId)),
    total: reading.fields.total,
  });
  let approved = false;
  const note = input.note?.trim() ?? '';
  const saved = await saveDocumentReview(ctx.db, {
    organizationId: membership.organizationId,
    documentId: row.id,
    review: (current) => {
      if (current.approvedAt) return null;
      // Checked on the row as it is now: a correction saved meanwhile may have failed a check.
      if (listReasonsNeedingNote(listHoldingReasons(current.failedChecks)).length > 0 && note.length < 10)
        throw createValidationError({ note: approvalNoteMessage });
      approved = true;
      return {
        ...unchanged(current),
        status: 'done',
        reviewFlag: 'approved',
        approvedAt: new Date(),
        approvedBy: user.name,
        ...(current.duplicateOf ? { duplicateDecision: 'not_duplicate' as const } : {}),
        events: [
          {
            kind: 'approved',
            field: null,
            oldValue: null,
            newValue: note || null,
            userId: user.id,
            userName: user.name,
          },
        ],
        audit: {
          kind: 'document.approved',
          actorId: user.id,
          actorName: user.name,
          summary: `${user.name} approved ${row.fileName}`,
          details: { fileName: row.fileName, total: reading.fields.total ?? null, role: membership.role },
        },
      };
    },
  });
  if (!saved)
    throw new AppError('run_in_progress', 'This document is being read; review it when the run ends');
  if (approved) {
    await learnVendorFromDocument(ctx.db, {
      organizationId: membership.organizationId,
      extraction: saved.extraction as ExtractionResult,
      corrected: listCorrectedFields(
        saved.extraction as ExtractionResult,
        collectLatestCorrections(
          await listDocumentEvents(ctx.db, { organizationId: membership.organizationId, documentId: row.id }),
        ),
      ),
    });
    await recordActivity(ctx.db, {
      organizationId: membership.organizationId,
      kind: 'document.approved',
      message: note
        ? `${user.name} approved ${row.fileName}: ${note}`
        : `${user.name} approved ${row.fileName}`,
      userId: user.id,
    });
    await refreshFlowOutputs(ctx, membership.organizationId, row.flowId);
    // Posted to Tally by itself when the organisation asks for it; the approval stands whatever happens.
    await postOnApproval(ctx, {
      organizationId: membership.organizationId,
      documentId: row.id,
      userName: user.name,
    }).catch((error: unknown) =>
      ctx.logger?.warn({ err: error, documentId: row.id }, 'could not queue the posting to Tally'),
    );
  }
  return getDocumentReview(ctx.db, { env: ctx.env, membership, id: row.id });
}
