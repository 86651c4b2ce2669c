import { flowMessages } from '@bahi/contracts';
import { AppError } from '../../lib/app-error.ts';

/** A parsed Google Drive link. */
export interface DriveLink {
  kind: 'folder' | 'file';
  id: string;
}

const ID_RE = /^[A-Za-z0-9_-]{10,}$/;

/**
 * Parses a Google Drive link by the product's rule: a folder link carries `folders/{id}`; a file link
 * carries `file/d/{id}` or an `id` query parameter. Anything else is the product's "Invalid Google Drive
 * URL" validation error.
 */
export function parseDriveLink(url: string): DriveLink {
  const invalid = () =>
    new AppError('validation', flowMessages.invalidDriveUrl, { url: flowMessages.invalidDriveUrl });
  let parsed: URL;
  try {
    parsed = new URL(url.trim());
  } catch {
    throw invalid();
  }
  const host = parsed.hostname.toLowerCase();
  if (parsed.protocol !== 'https:' || !(host === 'drive.google.com' || host === 'docs.google.com'))
    throw invalid();
  const folder = parsed.pathname.match(/\/folders\/([^/?#]+)/);
  if (folder?.[1] && ID_RE.test(folder[1])) return { kind: 'folder', id: folder[1] };
  const file = parsed.pathname.match(/\/file\/d\/([^/?#]+)/);
  if (file?.[1] && ID_RE.test(file[1])) return { kind: 'file', id: file[1] };
  const id = parsed.searchParams.get('id');
  if (id && ID_RE.test(id)) return { kind: 'file', id };
  throw invalid();
}
