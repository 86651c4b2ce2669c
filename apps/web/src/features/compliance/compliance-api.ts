import type {
  GstDecisionInput,
  GstReconciliation,
  GstRow,
  Gstr2bUploadResult,
  GstSettings,
  TdsView,
} from '@bahi/contracts';
import { requestApiForm } from '@/lib/api.ts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/** `GET /api/gst?period=&gstin=`: a return period's GSTR-2B of one buyer GSTIN matched against the register. */
export function getGst(
  where: { period?: string | undefined; gstin?: string | undefined },
  signal?: AbortSignal,
): Promise<GstReconciliation> {
  return callEndpoint(api.gst, { query: where, signal });
}

/** `PUT /api/gst/settings`: the GSTR-2B amount tolerance. */
export function setGstSettings(body: GstSettings): Promise<GstSettings> {
  return callEndpoint(api.setGstSettings, { body });
}

/** `POST /api/gst/2b`: upload a GSTR-2B JSON (multipart field `file`). */
export async function uploadGstr2b(file: File): Promise<Gstr2bUploadResult> {
  const form = new FormData();
  form.append('file', file, file.name);
  const answer = api.uploadGstr2b.response.safeParse(await requestApiForm(api.uploadGstr2b.path, form));
  if (!answer.success) throw new Error('The server gave an answer this page does not understand; reload it');
  return answer.data;
}

/** `POST /api/gst/decisions`: link, unlink or accept with a written reason. */
export function decideGst(body: GstDecisionInput): Promise<GstRow> {
  return callEndpoint(api.decideGst, { body });
}

/** `GET /api/tds?month=`: a month's invoices with TDS and the summary by section. */
export function getTds(month: string | undefined, signal?: AbortSignal): Promise<TdsView> {
  return callEndpoint(api.tds, { query: { month }, signal });
}

/** `PUT /api/tds/settings`. */
export function setTurnoverAbove10cr(turnoverAbove10cr: boolean) {
  return callEndpoint(api.setTdsSettings, { body: { turnoverAbove10cr } });
}
