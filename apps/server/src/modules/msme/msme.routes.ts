import { endpoints, fileEndpoints } from '@bahi/contracts';
import type { AppDeps } from '../../http/context.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { sendWorkbook } from '../gst/gst.routes.ts';
import { addObjection, getMsmeView, resolveObjection, saveRegistration } from './msme.service.ts';
import { addBankRate, getMsmeSettings, removeBankRate } from './msme-bank-rates.ts';
import { export43bh, exportForm1 } from './msme-export.ts';
import { importPayments, recordPayment, removePayment } from './msme-payments.ts';

const tags = ['MSME'];

const viewRoute = routeFor(endpoints.msme, {
  tags,
  summary:
    "MSME suppliers' invoices with their 45-day clocks, what to pay this week, overdue totals and interest",
  errors: ['unauthenticated', 'validation'],
});

const registrationRoute = routeFor(endpoints.saveMsmeRegistration, {
  tags,
  summary: "Set a vendor's Udyam category, activity and written agreement for a financial year",
  errors: ['unauthenticated', 'not_found', 'validation'],
});

const paymentRoute = routeFor(endpoints.recordMsmePayment, {
  tags,
  summary: 'Record a payment to a supplier (to one invoice, or to its oldest due invoices)',
  status: 201,
  answer: 'Recorded',
  errors: ['unauthenticated', 'not_found', 'conflict', 'validation'],
});

const deletePaymentRoute = routeFor(endpoints.removeMsmePayment, {
  tags,
  summary: 'Remove a payment recorded by mistake',
  answer: 'Removed',
  errors: ['unauthenticated', 'not_found'],
});

const importRoute = routeFor(endpoints.importMsmePayments, {
  tags,
  summary: 'Import payments from a bank statement CSV (all rows or none; each bad row named)',
  errors: ['unauthenticated', 'validation'],
});

const objectionRoute = routeFor(endpoints.addMsmeObjection, {
  tags,
  summary: "Record a written rejection of an invoice's goods or services",
  status: 201,
  errors: ['unauthenticated', 'not_found', 'validation'],
});

const resolveRoute = routeFor(endpoints.resolveMsmeObjection, {
  tags,
  summary: 'Mark a written objection resolved on a date (the acceptance date moves to it)',
  errors: ['unauthenticated', 'not_found', 'validation'],
});

const getSettingsRoute = routeFor(endpoints.msmeSettings, {
  tags,
  summary: 'The bank rates the MSME interest estimate runs on, each from the day it took effect',
  errors: ['unauthenticated'],
});

const addBankRateRoute = routeFor(endpoints.addMsmeBankRate, {
  tags,
  summary: 'Record a bank rate notified by the Reserve Bank from the day it took effect',
  errors: ['unauthenticated', 'validation'],
});

const removeBankRateRoute = routeFor(endpoints.removeMsmeBankRate, {
  tags,
  summary: 'Remove a mistaken bank rate',
  errors: ['unauthenticated', 'not_found'],
});

const form1Route = fileRouteFor(fileEndpoints.msmeForm1Xlsx, {
  tags,
  summary: 'Download MSME Form-1 for a half-year',
  errors: ['unauthenticated', 'validation'],
});

const s43bhRoute = fileRouteFor(fileEndpoints.msme43bhXlsx, {
  tags,
  summary: 'Download the year-end section 43B(h) list of a financial year',
  errors: ['unauthenticated', 'validation'],
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
