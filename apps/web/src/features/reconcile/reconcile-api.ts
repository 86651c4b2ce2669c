import type { InvoiceMatch, Reconciliation } from '@bahi/contracts';
import { getJson, postJson } from '@/lib/api.ts';

/** `GET /api/reconcile`: the organisation's invoices and purchase orders, matched. */
export function getReconciliation(signal?: AbortSignal): Promise<Reconciliation> {
  return getJson<Reconciliation>('/api/reconcile', signal);
}

/** `POST /api/reconcile/invoices/:id/override`: clear an invoice's exceptions with a written reason. */
export function overrideInvoice(invoiceId: string, reason: string): Promise<InvoiceMatch> {
  return postJson<InvoiceMatch>(`/api/reconcile/invoices/${encodeURIComponent(invoiceId)}/override`, {
    reason,
  });
}
