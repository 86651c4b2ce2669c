import type { InvoiceMatch, ReconcilePage } from '@bahi/contracts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

const reconcileKeys = ['view', 'vendor', 'q', 'page'] as const;

/** `GET /api/reconcile`: counts and totals of the whole match, and the page of invoices `params` asks for. */
export function getReconciliation(params: URLSearchParams, signal?: AbortSignal): Promise<ReconcilePage> {
  const query: Partial<Record<(typeof reconcileKeys)[number], string>> = {};
  for (const key of reconcileKeys) {
    const value = params.get(key)?.trim();
    if (value) query[key] = value;
  }
  return callEndpoint(api.reconciliation, { query, signal });
}

/** `POST /api/reconcile/invoices/:id/override`: clear an invoice's exceptions with a written reason. */
export function overrideInvoice(invoiceId: string, reason: string): Promise<InvoiceMatch> {
  return callEndpoint(api.overrideInvoice, { params: { id: invoiceId }, body: { reason } });
}

/** `PUT /api/reconcile/flows/:id/no-po`: a flow whose invoices need no purchase order, or do again. */
export function setFlowNoPo(flowId: string, noPoNeeded: boolean): Promise<{ noPoNeeded: boolean }> {
  return callEndpoint(api.setFlowNoPo, { params: { id: flowId }, body: { noPoNeeded } });
}
