import type { InvoiceMatch, Reconciliation } from '@bahi/contracts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/** `GET /api/reconcile`: the organisation's invoices and purchase orders, matched. */
export function getReconciliation(signal?: AbortSignal): Promise<Reconciliation> {
  return callEndpoint(api.reconciliation, { signal });
}

/** `POST /api/reconcile/invoices/:id/override`: clear an invoice's exceptions with a written reason. */
export function overrideInvoice(invoiceId: string, reason: string): Promise<InvoiceMatch> {
  return callEndpoint(api.overrideInvoice, { params: { id: invoiceId }, body: { reason } });
}
