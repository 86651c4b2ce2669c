import {
  CreateSheetInputSchema,
  CreateWorkflowInputSchema,
  type FlowInput,
  FlowInputSchema,
  type FlowOutput,
  FlowOutputSchema,
} from '@bahi/contracts';
import { z } from 'zod';
import { AutomationFormShape, emptyAutomation } from './flow-automation.ts';

/** Where a flow reads its documents: browser uploads, a server folder, or a Google Drive link. */
export type SourceKind = FlowInput['kind'];

/** Where a flow writes rows: an .xlsx workbook Bahi keeps, or a Google spreadsheet. */
export type OutputKind = FlowOutput['kind'];

/**
 * What the create/edit side sheet edits, with the flow contract's rules (name, one type, the kinds);
 * `toFlowBody` turns it into the `/api/workflows` body. The server checks the location itself
 * (allowed folders, the Drive link rule) and its messages are shown under the location box.
 */
export const FlowFormSchema = z
  .object({
    name: CreateWorkflowInputSchema.shape.name,
    types: CreateWorkflowInputSchema.shape.types,
    sourceKind: FlowInputSchema.shape.kind,
    /** Folder path (local) or link (drive); unused for uploads, whose inbox is the flow itself. */
    sourceLocation: z.string(),
    /** The sheet's name is asked for: it names the workbook or the Google spreadsheet. */
    sheetName: CreateSheetInputSchema.shape.sheetName.unwrap().min(1),
    outputKind: FlowOutputSchema.shape.kind,
    /** Google Drive folder links: read the files of its sub-folders too. */
    includeSubfolders: z.boolean(),
    /** When it runs by itself, and an e-mail source's mailbox (flow-automation.ts). */
    ...AutomationFormShape,
  })
  .refine(
    (values) =>
      values.sourceKind === 'upload' ||
      values.sourceKind === 'email' ||
      values.sourceLocation.trim().length > 0,
    { path: ['sourceLocation'] },
  )
  .refine((values) => values.sourceKind !== 'email' || values.mailHost.trim().length > 0, {
    path: ['mailHost'],
    message: 'Give the mail server, e.g. imap.gmail.com',
  })
  .refine((values) => values.sourceKind !== 'email' || values.mailUser.trim().length > 0, {
    path: ['mailUser'],
    message: 'Give the mailbox user name (usually the e-mail address)',
  });

/** What the create/edit side sheet edits. */
export type FlowFormValues = z.input<typeof FlowFormSchema>;

/** Labels of the source choices, in the order the form offers them. */
export const SOURCE_KIND_LABELS: Record<SourceKind, string> = {
  upload: 'Upload files',
  local: 'Local folder path',
  drive: 'Google Drive link',
  email: 'E-mail inbox',
};

/** Labels of the output choices, in the order the form offers them. */
export const OUTPUT_KIND_LABELS: Record<OutputKind, string> = {
  xlsx: 'Bahi workbook (.xlsx)',
  sheets: 'Google Sheets',
};

/** A fresh form: uploads and a Bahi workbook are the default because they need no server set-up. */
export function createEmptyForm(): FlowFormValues {
  return {
    name: '',
    types: [],
    sourceKind: 'upload',
    sourceLocation: '',
    sheetName: '',
    outputKind: 'xlsx',
    includeSubfolders: false,
    ...emptyAutomation(),
  };
}

/**
 * Whether Save / Update may be pressed: the form is complete by `FlowFormSchema` — a name, exactly one
 * type, an input (uploads need nothing more; a folder or link must be typed) and an output sheet name —
 * and not saving. A value that is only too long still lets Save be pressed, so its message appears
 * under its field (the schema checks again on Save) rather than leaving the button mysteriously off.
 */
export function canSubmitFlow(values: FlowFormValues, saving: boolean): boolean {
  if (saving) return false;
  const checked = FlowFormSchema.safeParse(values);
  return (
    checked.success ||
    checked.error.issues.every((issue) => issue.code === 'too_big' && issue.path[0] !== 'types')
  );
}

/**
 * Maps the server's field errors onto the form's fields. The server validates the input location
 * (path confinement, Drive link rule) and reports it under `io.input.url` or similar paths; the form
 * shows those under the location box.
 */
export function mapServerFieldErrors(
  fields: Record<string, string>,
): Partial<Record<keyof FlowFormValues, string>> {
  const mapped: Partial<Record<keyof FlowFormValues, string>> = {};
  for (const [path, message] of Object.entries(fields)) {
    const key = path.toLowerCase();
    if (key === 'name') mapped.name ??= message;
    else if (key.startsWith('types') || key === 'type') mapped.types ??= message;
    else if (key.includes('password')) mapped.mailPassword ??= message;
    else if (key.startsWith('trigger.time')) mapped.dailyTime ??= message;
    else if (key.startsWith('trigger')) mapped.everyMinutes ??= message;
    else if (key.includes('moveto')) mapped.mailMoveTo ??= message;
    else if (key.includes('mail.user')) mapped.mailUser ??= message;
    else if (key.includes('mail')) mapped.mailHost ??= message;
    else if (key.includes('output') || key.includes('sheet')) mapped.sheetName ??= message;
    else if (key.includes('input') || key.includes('url') || key.includes('folder') || key.includes('path')) {
      mapped.sourceLocation ??= message;
    }
  }
  return mapped;
}

/** Best-guess source kind of a location the user pasted (a Drive URL vs. an absolute path). */
export function guessSourceKind(location: string): SourceKind | null {
  const value = location.trim();
  if (/^https?:\/\/(drive|docs)\.google\.com\//i.test(value)) return 'drive';
  if (value.startsWith('/') || /^[a-z]:\\/i.test(value)) return 'local';
  return null;
}

/**
 * Whether a location is a Google Drive folder link (`…/folders/<id>`, the server's rule): only those have
 * sub-folders to include. File links and anything else do not.
 */
export function isDriveFolderLink(location: string): boolean {
  let url: URL;
  try {
    url = new URL(location.trim());
  } catch {
    return false;
  }
  const host = url.hostname.toLowerCase();
  if (url.protocol !== 'https:' || !(host === 'drive.google.com' || host === 'docs.google.com')) return false;
  return /\/folders\/[A-Za-z0-9_-]{10,}/.test(url.pathname);
}

/** Whether the form offers "Include sub-folders": a Drive input with a folder link. */
export function offersSubfolders(values: Pick<FlowFormValues, 'sourceKind' | 'sourceLocation'>): boolean {
  return values.sourceKind === 'drive' && isDriveFolderLink(values.sourceLocation);
}

/** The parts of `GET /api/google/status` the form's Google step looks at. */
export interface GoogleGateStatus {
  configured: boolean;
  connected: boolean;
  missingScopes: string[];
}

/**
 * Whether saving these values needs the organisation's Google connection: a Google Sheets output, or a
 * Drive input with a Drive-looking link (anything else is left to the server, whose message about a bad
 * link is more useful than an authorisation prompt).
 */
export function needsGoogle(values: FlowFormValues): boolean {
  if (values.outputKind === 'sheets') return true;
  return values.sourceKind === 'drive' && guessSourceKind(values.sourceLocation) === 'drive';
}

/**
 * What Save does before talking to the flows API: `authorize` opens the Google authorisation dialog
 * (Google is configured but not connected, or the grant lacks scopes); `proceed` saves. Unknown status
 * (still loading, failed) and an unconfigured server proceed: the server has the last word and answers
 * `google_auth_required` when it must.
 */
export function decideGoogleStep(
  values: FlowFormValues,
  status: GoogleGateStatus | undefined,
): 'proceed' | 'authorize' {
  if (!needsGoogle(values) || !status?.configured) return 'proceed';
  return status.connected && status.missingScopes.length === 0 ? 'proceed' : 'authorize';
}

/**
 * Whether a saved flow still needs its Google spreadsheet created (`POST /api/workflow/sheets/create`):
 * its output is Google Sheets and no spreadsheet id is stored yet.
 */
export function needsSheetCreation(flow: { io: { output: { kind: OutputKind; sheetId: string } } }): boolean {
  return flow.io.output.kind === 'sheets' && flow.io.output.sheetId.trim() === '';
}
