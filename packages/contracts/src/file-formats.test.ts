import { describe, expect, it } from 'vitest';
import {
  DOCUMENT_EXTENSIONS,
  getDocumentContentType,
  isDocumentFileName,
  listDocumentFormats,
  UPLOAD_EXTENSIONS,
} from './file-formats.ts';

describe('document formats, declared once', () => {
  it('takes every spelling of the formats the engine reads, and zips for uploads', () => {
    expect(DOCUMENT_EXTENSIONS).toEqual(
      expect.arrayContaining(['.pdf', '.jpg', '.jpeg', '.jfif', '.tif', '.tiff', '.webp', '.gif', '.png']),
    );
    expect(DOCUMENT_EXTENSIONS).not.toContain('.zip');
    expect(UPLOAD_EXTENSIONS).toContain('.zip');
    expect(isDocumentFileName('Scan 0001.JFIF')).toBe(true);
    expect(isDocumentFileName('ledger.csv')).toBe(false);
    expect(isDocumentFileName('.pdf')).toBe(false);
  });

  it('lists them in words and serves them with their MIME type', () => {
    expect(listDocumentFormats()).toBe('PDF, PNG, JPEG, TIFF, WebP or GIF');
    expect(listDocumentFormats({ withZip: true })).toBe('PDF, PNG, JPEG, TIFF, WebP, GIF or ZIP');
    expect(getDocumentContentType('photo.jfif')).toBe('image/jpeg');
    expect(getDocumentContentType('x.gif')).toBe('image/gif');
    expect(getDocumentContentType('notes')).toBe('application/octet-stream');
  });
});
