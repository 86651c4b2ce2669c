import { defineEndpoints, defineFileEndpoints, IdParamsSchema, OkSchema } from '@bahi/contracts';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createLogger } from '../lib/logger.ts';
import { createErrorHandler } from './error-handler.ts';
import { fileRouteFor, routeFor, toRouterPath } from './route-for.ts';
import { createRouter } from './router.ts';

const NoteSchema = z.object({ text: z.string().min(1) });
const NoteQuerySchema = z.object({ page: z.coerce.number().int().min(1).default(1) });
const PairParamsSchema = z.object({ flowId: z.string(), noteId: z.string() });

const api = defineEndpoints({
  notes: { method: 'GET', path: '/api/notes', query: NoteQuerySchema, response: OkSchema },
  addNote: { method: 'POST', path: '/api/flows/:id/notes', body: NoteSchema, response: NoteSchema },
  pairNote: { method: 'DELETE', path: '/api/flows/:flowId/notes/:noteId', response: OkSchema },
});
const files = defineFileEndpoints({
  notesCsv: { method: 'GET', path: '/api/flows/:id/notes.csv', file: 'csv' },
  noteFile: { method: 'GET', path: '/api/notes/:id/file', file: 'document' },
});

describe('toRouterPath', () => {
  it('drops the /api mount and writes params the OpenAPI way', () => {
    expect(toRouterPath('/api/flows/:id/sheet.xlsx')).toBe('/flows/{id}/sheet.xlsx');
    expect(toRouterPath('/api/documents/:id/pages/:page')).toBe('/documents/{id}/pages/{page}');
    expect(() => toRouterPath('/healthz')).toThrow(/not under \/api/);
  });
});

describe('routeFor', () => {
  it("takes method, path, query, body and answer from the endpoint's declaration", () => {
    const list = routeFor(api.notes, { tags: ['Notes'], summary: 'Notes', errors: ['unauthenticated'] });
    expect(list.method).toBe('get');
    expect(list.path).toBe('/notes');
    expect(list.request).toEqual({ query: NoteQuerySchema });
    expect(list.responses[200].content['application/json'].schema).toBe(OkSchema);
    expect(Object.keys(list.responses)).toEqual(['200', '401']);

    const add = routeFor(api.addNote, {
      tags: ['Notes'],
      summary: 'Add',
      body: { description: 'The note', required: true },
      status: 201,
      errors: ['not_found', 'validation'],
    });
    expect(add.request.params).toBe(IdParamsSchema);
    expect(add.request.body).toMatchObject({ description: 'The note', required: true });
    expect(add.request.body.content['application/json'].schema).toBe(NoteSchema);
    expect(Object.keys(add.responses).sort()).toEqual(['201', '400', '404']);
  });

  it('wants a params schema naming exactly the path params other than a lone :id', () => {
    expect(() =>
      routeFor(api.pairNote, {
        tags: [],
        summary: '',
        params: z.object({ flowId: z.string() }) as unknown as typeof PairParamsSchema,
      }),
    ).toThrow(/pairNote: the params schema must name the path's params \(flowId, noteId\)/);
    expect(routeFor(api.pairNote, { tags: [], summary: '', params: PairParamsSchema }).request.params).toBe(
      PairParamsSchema,
    );
  });

  it('serves the declared shapes: the body is validated and the answer typed', async () => {
    const router = createRouter().openapi(
      routeFor(api.addNote, {
        tags: [],
        summary: '',
        body: { required: true },
        status: 201,
        errors: ['validation'],
      }),
      (c) => c.json({ text: `${c.req.valid('param').id}: ${c.req.valid('json').text}` }, 201),
    );
    router.onError(createErrorHandler(createLogger('silent')));
    const post = (body: unknown) =>
      router.request('/flows/f1/notes', {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
    const ok = await post({ text: 'Sahyadri Pumps paid' });
    expect(ok.status).toBe(201);
    expect(await ok.json()).toEqual({ text: 'f1: Sahyadri Pumps paid' });
    expect((await post({ text: '' })).status).toBe(400);
  });
});

describe('fileRouteFor', () => {
  it("answers with the file kind's media type, or the one given", () => {
    const csv = fileRouteFor(files.notesCsv, { tags: [], summary: '', errors: ['not_found'] });
    expect(Object.keys(csv.responses[200].content)).toEqual(['text/csv']);
    expect(csv.responses[200].description).toBe('CSV');
    expect(csv.request).toEqual({ params: IdParamsSchema });
    const file = fileRouteFor(files.noteFile, { tags: [], summary: '', media: 'image/png' });
    expect(Object.keys(file.responses[200].content)).toEqual(['image/png']);
    expect(() => fileRouteFor(files.noteFile, { tags: [], summary: '' })).toThrow(
      /noteFile: say the media type/,
    );
  });
});
