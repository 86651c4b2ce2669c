import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { extname } from 'node:path';
import { DOCUMENT_EXTENSIONS, type FlowInput, listDocumentFormats } from '@bahi/contracts';
import type { Env } from '../../config/env.ts';
import type { Db } from '../../db/client.ts';

/** One file a source offers as a document. */
export interface SourceFile {
  /** Stable id within the flow's source (relative path, upload name, Drive file id). */
  sourceId: string;
  /** File name shown to users. */
  name: string;
  /** Absolute path of the bytes on this machine. */
  path: string;
  size: number;
  modifiedAt: Date | null;
  /**
   * sha256 of the bytes when the source already knows it (an upload is stored under its hash, a Drive file
   * is hashed as it downloads), so the scan does not read the file again to hash it.
   */
  sha256?: string;
}

/** A file the source had that is not taken as a document, and why (shown to the user). */
export interface SkippedFile {
  name: string;
  reason: string;
}

/** One listing entry: a document candidate or a skipped file. */
export type SourceEntry = { file: SourceFile } | { skipped: SkippedFile };

/** The kinds of source a flow can read (`io.input.kind`, a closed enum of the contracts). */
export type SourceKind = FlowInput['kind'];

/**
 * Where a flow reads documents from. `list` streams entries so a folder of thousands of files never sits in
 * memory at once; implementations hide the service (local disk, uploads, Google Drive).
 */
export interface DocumentSource {
  /** Recorded on every document it lists (`documents.source_kind`), which is how its bytes are found later. */
  readonly kind: SourceKind;
  list(): AsyncIterable<SourceEntry>;
}

/** What a source adapter may use of the server. */
export interface SourceContext {
  db: Db;
  env: Env;
}

/** A stored document, as much of it as says where its bytes came from. */
export interface SourceDocument {
  organizationId: string;
  flowId: string;
  /** The id the source gave the file (upload name, relative path, Drive file id). */
  sourceId: string;
  /** Where the scan found the bytes (possibly another machine's path). */
  sourcePath: string | null;
  /** sha256 of the bytes the document was read from. */
  contentHash: string;
}

/**
 * One kind of source (`io.input.kind`): everything the services need to know about it. The registry
 * (`./index.ts`) maps each kind to its adapter; services ask the registry and never test a kind themselves.
 * Failures are `AppError`s with the codes the API answers (validation, google_auth_required, not_found...).
 */
export interface SourceAdapter {
  /**
   * Checks a flow's input when the flow is saved and returns it as stored (`input.url` arrives trimmed).
   * `previous` is the input the flow had, when it is an update.
   */
  validate(
    ctx: SourceContext,
    request: { organizationId: string; input: FlowInput; previous?: FlowInput | undefined },
  ): Promise<FlowInput>;
  /**
   * Checks, before a run is queued, that the run could read the source now (so the user hears at once).
   * `flowId` is absent for an ad-hoc source that belongs to no saved flow yet.
   */
  checkRunnable(
    ctx: SourceContext,
    source: { organizationId: string; flowId?: string; input: FlowInput },
  ): Promise<void>;
  /** Opens the listing one run's scan reads. */
  open(
    ctx: SourceContext,
    source: { organizationId: string; flowId: string; input: FlowInput },
  ): Promise<DocumentSource>;
  /**
   * The one answer to "where are this document's bytes?", for extraction and for the document view: a path
   * on this machine, fetched again when the scan's copy is gone or was another machine's. Reads the bytes
   * only when it has to fetch them.
   */
  locate(ctx: SourceContext, doc: SourceDocument): Promise<string>;
  /**
   * The folders a located file of this kind may be served from today (the document view re-checks the
   * path against them, so a root the operator removed, or a file swapped for a symlink, is not served).
   */
  servedFrom(ctx: SourceContext, doc: SourceDocument): Promise<string[]>;
  /** The name shown for a folder given only by its path or link (a flow made ad hoc from it). */
  folderName(url: string): string;
  /**
   * For flows that run on arrival: a fingerprint of what the source holds now (null when it holds no
   * document), cheap enough to take every minute; a run starts when it changes. Absent = the kind cannot be
   * watched. Throws (an AppError in plain words) when the source cannot be read: the flow backs off.
   */
  watch?(
    ctx: SourceContext,
    source: { organizationId: string; flowId: string; input: FlowInput },
  ): Promise<string | null>;
}

/**
 * A listing's fingerprint: the files it offers (id, size, modification time, hash when known), or null
 * when it offers none. Skipped files do not count: a new unreadable file starts no run.
 */
export async function fingerprintListing(source: DocumentSource): Promise<string | null> {
  const lines: string[] = [];
  for await (const entry of source.list()) {
    if (!('file' in entry)) continue;
    const { sourceId, size, modifiedAt, sha256 } = entry.file;
    lines.push(`${sourceId}\u0000${size}\u0000${modifiedAt?.getTime() ?? ''}\u0000${sha256 ?? ''}`);
  }
  if (lines.length === 0) return null;
  return hashBytes(new TextEncoder().encode(lines.sort().join('\n')));
}

/** File extensions the extraction engine reads (PDF and the image formats), as the contracts declare them. */
export const SUPPORTED_EXTENSIONS: ReadonlySet<string> = new Set(DOCUMENT_EXTENSIONS);

/** Why a file is not a document candidate, or null when it is one. */
export function explainUnsupportedFile(name: string, size: number, maxBytes: number): string | null {
  const ext = extname(name).toLowerCase();
  if (!SUPPORTED_EXTENSIONS.has(ext)) {
    return `Not a supported document type (${ext || 'no extension'}); use ${listDocumentFormats()}`;
  }
  if (size === 0) return 'The file is empty';
  if (size > maxBytes) return `The file is larger than the ${formatMegabytes(maxBytes)} limit`;
  return null;
}

/** `25 MB` style size for messages. */
export function formatMegabytes(bytes: number): string {
  return `${Math.round((bytes / (1024 * 1024)) * 10) / 10} MB`;
}

/** sha256 of a file, streamed so large files never load whole. */
export async function hashFile(path: string): Promise<string> {
  const hash = createHash('sha256');
  for await (const chunk of createReadStream(path)) hash.update(chunk as Buffer);
  return hash.digest('hex');
}

/** sha256 of bytes in memory. */
export function hashBytes(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}
