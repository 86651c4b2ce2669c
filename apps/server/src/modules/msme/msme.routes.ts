import {
  IdParamsSchema,
  Msme43bhQuerySchema,
  MsmeBankRateInputSchema,
  MsmeForm1QuerySchema,
  MsmeImportInputSchema,
  MsmeImportResultSchema,
  MsmeObjectionInputSchema,
  MsmeObjectionResolveSchema,
  MsmeObjectionSchema,
  MsmePaymentInputSchema,
  MsmePaymentRecordedSchema,
  MsmeRegistrationInputSchema,
  MsmeRegistrationSchema,
  MsmeSettingsSchema,
  MsmeViewQuerySchema,
  MsmeViewSchema,
  OkSchema,
} from '@bahi/contracts';
import { createRoute, z } from '@hono/zod-openapi';
import type { AppDeps } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { sendWorkbook } from '../gst/gst.routes.ts';
import { addObjection, getMsmeView, resolveObjection, saveRegistration } from './msme.service.ts';
import { addBankRate, getMsmeSettings, removeBankRate } from './msme-bank-rates.ts';
import { export43bh, exportForm1 } from './msme-export.ts';
import { importPayments, recordPayment, removePayment } from './msme-payments.ts';

const tags = ['MSME'];
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

const viewRoute = createRoute({
  method: 'get',
  path: '/msme',
  tags,
  summary:
    "MSME suppliers' invoices with their 45-day clocks, what to pay this week, overdue totals and interest",
  request: { query: MsmeViewQuerySchema },
  responses: { 200: jsonContent(MsmeViewSchema), ...describeErrors('unauthenticated', 'validation') },
});

const registrationRoute = createRoute({
  method: 'put',
  path: '/msme/registrations',
  tags,
  summary: "Set a vendor's Udyam category, activity and written agreement for a financial year",
  request: { body: jsonContent(MsmeRegistrationInputSchema) },
  responses: {
    200: jsonContent(MsmeRegistrationSchema),
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

const paymentRoute = createRoute({
  method: 'post',
  path: '/msme/payments',
  tags,
  summary: 'Record a payment to a supplier (to one invoice, or to its oldest due invoices)',
  request: { body: jsonContent(MsmePaymentInputSchema) },
  responses: {
    201: jsonContent(MsmePaymentRecordedSchema, 'Recorded'),
    ...describeErrors('unauthenticated', 'not_found', 'conflict', 'validation'),
  },
});

const deletePaymentRoute = createRoute({
  method: 'delete',
  path: '/msme/payments/{id}',
  tags,
  summary: 'Remove a payment recorded by mistake',
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(OkSchema, 'Removed'), ...describeErrors('unauthenticated', 'not_found') },
});

const importRoute = createRoute({
  method: 'post',
  path: '/msme/payments/import',
  tags,
  summary: 'Import payments from a bank statement CSV (all rows or none; each bad row named)',
  request: { body: jsonContent(MsmeImportInputSchema) },
  responses: { 200: jsonContent(MsmeImportResultSchema), ...describeErrors('unauthenticated', 'validation') },
});

const objectionRoute = createRoute({
  method: 'post',
  path: '/msme/objections',
  tags,
  summary: "Record a written rejection of an invoice's goods or services",
  request: { body: jsonContent(MsmeObjectionInputSchema) },
  responses: {
    201: jsonContent(MsmeObjectionSchema),
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

const resolveRoute = createRoute({
  method: 'put',
  path: '/msme/objections/{id}',
  tags,
  summary: 'Mark a written objection resolved on a date (the acceptance date moves to it)',
  request: { params: IdParamsSchema, body: jsonContent(MsmeObjectionResolveSchema) },
  responses: {
    200: jsonContent(MsmeObjectionSchema),
    ...describeErrors('unauthenticated', 'not_found', 'validation'),
  },
});

const getSettingsRoute = createRoute({
  method: 'get',
  path: '/msme/settings',
  tags,
  summary: 'The bank rates the MSME interest estimate runs on, each from the day it took effect',
  responses: { 200: jsonContent(MsmeSettingsSchema), ...describeErrors('unauthenticated') },
});

const addBankRateRoute = createRoute({
  method: 'post',
  path: '/msme/bank-rates',
  tags,
  summary: 'Record a bank rate notified by the Reserve Bank from the day it took effect',
  request: { body: jsonContent(MsmeBankRateInputSchema) },
  responses: { 200: jsonContent(MsmeSettingsSchema), ...describeErrors('unauthenticated', 'validation') },
});

const removeBankRateRoute = createRoute({
  method: 'delete',
  path: '/msme/bank-rates/{id}',
  tags,
  summary: 'Remove a mistaken bank rate',
  request: { params: IdParamsSchema },
  responses: { 200: jsonContent(MsmeSettingsSchema), ...describeErrors('unauthenticated', 'not_found') },
});

const form1Route = createRoute({
  method: 'get',
  path: '/msme/form1.xlsx',
  tags,
  summary: 'Download MSME Form-1 for a half-year',
  request: { query: MsmeForm1QuerySchema },
  responses: {
    200: { description: 'The workbook', content: { [XLSX]: { schema: z.string() } } },
    ...describeErrors('unauthenticated', 'validation'),
  },
});

const s43bhRoute = createRoute({
  method: 'get',
  path: '/msme/43bh.xlsx',
  tags,
  summary: 'Download the year-end section 43B(h) list of a financial year',
  request: { query: Msme43bhQuerySchema },
  responses: {
    200: { description: 'The workbook', content: { [XLSX]: { schema: z.string() } } },
    ...describeErrors('unauthenticated', 'validation'),
  },
});

/** MSME payment compliance. */
export function createMsmeRoutes({ db, env }: AppDeps) {
  return createRouter()
    .openapi(viewRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getMsmeView(db, membership, c.req.valid('query').asOf), 200);
    })
    .openapi(registrationRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await saveRegistration(db, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(paymentRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const row = await recordPayment(db, { user, membership, input: c.req.valid('json') });
      return c.json({ id: row.id }, 201);
    })
    .openapi(importRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await importPayments(db, { user, membership, csv: c.req.valid('json').csv }), 200);
    })
    .openapi(deletePaymentRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      await removePayment(db, { user, membership, id: c.req.valid('param').id });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(objectionRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await addObjection(db, { user, membership, input: c.req.valid('json') }), 201);
    })
    .openapi(resolveRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      const { id } = c.req.valid('param');
      const { resolvedOn } = c.req.valid('json');
      return c.json(await resolveObjection(db, { user, membership, id, resolvedOn }), 200);
    })
    .openapi(getSettingsRoute, async (c) => {
      const { membership } = requireMembership(c);
      return c.json(await getMsmeSettings(db, membership), 200);
    })
    .openapi(addBankRateRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await addBankRate(db, { user, membership, input: c.req.valid('json') }), 200);
    })
    .openapi(removeBankRateRoute, async (c) => {
      const { user, membership } = requireMembership(c);
      return c.json(await removeBankRate(db, { user, membership, id: c.req.valid('param').id }), 200);
    })
    .openapi(form1Route, async (c) => {
      const { membership } = requireMembership(c);
      const { financialYear, half } = c.req.valid('query');
      return (await sendWorkbook(await exportForm1(db, { env, membership, financialYear, half }))) as never;
    })
    .openapi(s43bhRoute, async (c) => {
      const { membership } = requireMembership(c);
      const { financialYear } = c.req.valid('query');
      return (await sendWorkbook(await export43bh(db, { env, membership, financialYear }))) as never;
    });
}
