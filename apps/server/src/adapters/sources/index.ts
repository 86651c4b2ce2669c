// The source registry: which kinds of source exist (`io.input.kind`). It sits below the modules and
// imports none: the composition root (src/io-wiring.ts) installs the adapters that need organisation
// services (Drive, mail), which live in their modules; those that need none are installed here.
//
// How to add a source kind:
// 1. Add the kind to `FlowInputSchema.kind` in @bahi/contracts (a closed enum: the API and the OpenAPI
//    document accept it from there; `SOURCES` below then fails to type-check until it has an entry). The
//    web's flow form (apps/web/src/features/parse/flow-form.ts) offers the kinds it knows.
// 2. Write its adapter, an object implementing `SourceAdapter` (source.ts), in its own file: `validate` (on
//    save), `checkRunnable` (before a run is queued), `open` (the listing a run scans; give each file's
//    `sha256` when the source knows it, so the scan does not read the file to hash it), `locate` and
//    `servedFrom` (a document's bytes, for extraction and the document view), `folderName`. Adapters that
//    need no organisation services live beside their listing code here (upload.ts, local-folder.ts); one
//    that does lives in its module (Drive: modules/google/drive-source.ts).
// 3. Add its entry to `SOURCES` below, or, for one in a module, where src/io-wiring.ts installs them.
// Nothing else changes: flows.service (save), runs.service (start), the run processor (scan, extraction),
// documents.service (the file view) and the legacy module (ad-hoc flows) reach sources only through
// `sourceFor` and `locateDocumentFile`, and never test a kind. `registry.test.ts` runs an in-memory source
// through those services.

import { AppError } from '../../lib/app-error.ts';
import { localSource } from './local-folder.ts';
import type { SourceAdapter, SourceContext, SourceDocument, SourceKind } from './source.ts';
import { uploadSource } from './upload.ts';

/** The source kinds whose adapters live in a module: the composition root installs them. */
type ModuleSourceKind = Exclude<SourceKind, 'upload' | 'local'>;

/** Every source kind and its adapter (tests may replace an entry, and put it back). */
export const SOURCES = { upload: uploadSource, local: localSource } as Record<SourceKind, SourceAdapter>;

/** Installs the adapters that live in modules (the composition root does, once, before serving). */
export function installSources(adapters: Record<ModuleSourceKind, SourceAdapter>): void {
  Object.assign(SOURCES, adapters);
}

/**
 * The adapter of a source kind: a flow's `io.input.kind`, or a document's `source_kind` (free text in the
 * database, so an unknown one is refused rather than guessed).
 */
export function sourceFor(kind: string): SourceAdapter {
  if (!Object.hasOwn(SOURCES, kind)) throw new AppError('internal', `Unknown source kind "${kind}"`);
  return SOURCES[kind as SourceKind];
}

/**
 * Where a stored document's bytes are on this machine: the one answer extraction and the document view
 * share (see `SourceAdapter.locate`).
 */
export function locateDocumentFile(
  ctx: SourceContext,
  doc: SourceDocument & { sourceKind: string },
): Promise<string> {
  return sourceFor(doc.sourceKind).locate(ctx, doc);
}
