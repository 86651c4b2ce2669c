/**
 * The document formats Bahi reads, declared once: the engine recognises them by their first bytes,
 * the server accepts files by these extensions, and the web picker and its hint list them.
 */
export const DOCUMENT_FORMATS = {
  pdf: { label: 'PDF', mime: 'application/pdf', extensions: ['.pdf'] },
  png: { label: 'PNG', mime: 'image/png', extensions: ['.png'] },
  jpeg: { label: 'JPEG', mime: 'image/jpeg', extensions: ['.jpg', '.jpeg', '.jfif', '.jpe'] },
  tiff: { label: 'TIFF', mime: 'image/tiff', extensions: ['.tif', '.tiff'] },
  webp: { label: 'WebP', mime: 'image/webp', extensions: ['.webp'] },
  gif: { label: 'GIF', mime: 'image/gif', extensions: ['.gif'] },
} as const;

/** One format the engine reads. */
export type DocumentFormat = keyof typeof DOCUMENT_FORMATS;

/** Every file extension (lower case, with the dot) taken as a document. */
export const DOCUMENT_EXTENSIONS: readonly string[] = Object.values(DOCUMENT_FORMATS).flatMap((f) => [
  ...f.extensions,
]);

/** Extensions an upload accepts: the documents, and .zip archives of them. */
export const UPLOAD_EXTENSIONS: readonly string[] = [...DOCUMENT_EXTENSIONS, '.zip'];

/** "PDF, PNG, JPEG, TIFF, WebP or GIF" (and "… or ZIP" with `withZip`), for messages and hints. */
export function listDocumentFormats(options: { withZip?: boolean } = {}): string {
  const labels: string[] = Object.values(DOCUMENT_FORMATS).map((f) => f.label);
  if (options.withZip) labels.push('ZIP');
  return `${labels.slice(0, -1).join(', ')} or ${labels.at(-1)}`;
}

/** The MIME type to serve a document file as, by its extension (`application/octet-stream` if none). */
export function getDocumentContentType(name: string): string {
  const dot = name.lastIndexOf('.');
  const ext = dot > 0 ? name.slice(dot).toLowerCase() : '';
  const format = Object.values(DOCUMENT_FORMATS).find((f) =>
    (f.extensions as readonly string[]).includes(ext),
  );
  return format?.mime ?? 'application/octet-stream';
}

/** True when a file name's extension is one of the document formats. */
export function isDocumentFileName(name: string): boolean {
  const dot = name.lastIndexOf('.');
  return dot > 0 && DOCUMENT_EXTENSIONS.includes(name.slice(dot).toLowerCase());
}
