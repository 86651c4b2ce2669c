import { type Action, describeMissingPermission, roleCan } from '@bahi/contracts';
import type { Context, MiddlewareHandler } from 'hono';
import { matchedRoutes } from 'hono/route';
import { AppError } from '../lib/app-error.ts';
import type { Membership, SessionUser } from '../modules/auth/identity.ts';
import type { AppEnv } from './context.ts';
import { requireMembership, requireUser } from './session.ts';

/**
 * What a route needs: `public` (no session: the sign-in page's options, an invitation's preview),
 * `signed-in` (a session but no organisation: who am I, onboarding, accepting an invitation, one's own
 * sessions), or an {@link Action} the caller's role must hold in the organisation in use
 * (`ROLE_PERMISSIONS`, @bahi/contracts).
 */
export type RouteRule = Action | 'public' | 'signed-in';

/**
 * Every /api route, as `METHOD /path` in the OpenAPI document's spelling, and what it needs. The guard
 * refuses a route missing here, and `permissions.http.test.ts` walks `/api/openapi.json` against this
 * table: a new route must be classified before it can be called.
 */
export const ROUTE_RULES: Record<string, RouteRule> = {
  'GET /api/auth-config': 'public',
  'GET /api/invitations/{token}': 'public',
  'GET /api/vendor-form/{token}': 'public',
  'POST /api/vendor-form/{token}': 'public',
  'POST /api/vendor-form/{token}/documents/{kind}': 'public',
  'POST /api/vendor-form/{token}/invoices': 'public',
  'GET /api/vendor-links': 'read',
  'POST /api/vendor-links': 'vendors.edit',
  'DELETE /api/vendor-links/{id}': 'vendors.edit',
  'POST /api/vendor-links/{id}/email': 'vendors.edit',
  'GET /api/vendor-submissions': 'read',
  'POST /api/vendor-submissions/{id}/approve': 'vendors.edit',
  'POST /api/vendor-submissions/{id}/request-changes': 'vendors.edit',
  'POST /api/vendor-submissions/{id}/reject': 'vendors.edit',
  'GET /api/vendor-documents/{id}': 'download',
  'GET /api/vendor-bank-changes': 'read',
  'POST /api/vendor-bank-changes/{id}/approve': 'vendors.approve_bank_change',
  'POST /api/vendor-bank-changes/{id}/reject': 'vendors.approve_bank_change',
  'GET /api/me': 'signed-in',
  'PUT /api/me/organization': 'signed-in',
  'GET /api/me/sessions': 'signed-in',
  'DELETE /api/me/sessions/{id}': 'signed-in',
  'POST /api/organization': 'signed-in',
  'POST /api/invitations/{token}/accept': 'signed-in',

  'GET /api/organization': 'read',
  'PUT /api/organization': 'settings.manage',
  'GET /api/dashboard': 'read',
  'GET /api/activity': 'read',
  'GET /api/notifications': 'personal',
  'POST /api/notifications/read': 'personal',
  'GET /api/interest': 'personal',
  'POST /api/interest': 'personal',
  'GET /api/integrations': 'read',

  'GET /api/team': 'read',
  'POST /api/team/invitations': 'members.manage',
  'DELETE /api/team/invitations/{id}': 'members.manage',
  'PUT /api/team/members/{userId}': 'members.manage',
  'DELETE /api/team/members/{userId}': 'members.manage',
  'POST /api/team/leave': 'personal',
  'PUT /api/team/approval-limit': 'settings.manage',
  'GET /api/audit': 'audit.read',
  'GET /api/audit.csv': 'audit.read',

  'GET /api/workflows': 'read',
  'POST /api/workflows': 'flows.manage',
  'PUT /api/workflows/{id}': 'flows.manage',
  'DELETE /api/workflows/{id}': 'flows.manage',
  'POST /api/workflow/sheets/create': 'flows.manage',
  'POST /api/workflow/process-folder': 'flows.run',
  'POST /api/process-url': 'flows.run',
  'POST /api/flows/{id}/runs': 'flows.run',
  'GET /api/flows/{id}/runs': 'read',
  'POST /api/documents/{id}/reprocess': 'flows.run',
  'POST /api/documents/{id}/reprocess-file': 'flows.run',
  'POST /api/documents/{id}/retry': 'flows.run',
  'GET /api/runs/{id}': 'read',
  'GET /api/runs/{id}/events': 'read',
  'POST /api/flows/{id}/uploads': 'flows.run',
  'GET /api/flows/{id}/uploads': 'read',
  'GET /api/flows/{id}/intake': 'read',
  // Connecting a flow's mailbox changes how the flow reads its source, as editing the flow does.
  'POST /api/flows/{id}/mail-oauth': 'flows.manage',
  // Not in the OpenAPI document (the provider redirects the browser here); the signed state names the flow.
  'GET /api/mail-oauth/callback': 'flows.manage',
  'GET /api/flows/{id}/sheet': 'read',
  'GET /api/flows/{id}/outputs': 'read',
  'GET /api/flows/{id}/sheet.xlsx': 'download',
  'GET /api/flows/{id}/sheet.csv': 'download',

  'GET /api/review': 'read',
  'GET /api/documents/{id}/review': 'read',
  'GET /api/documents/{id}/pages/{page}': 'read',
  'GET /api/documents/{id}': 'read',
  'GET /api/flows/{id}/documents': 'read',
  'GET /api/documents/{id}/file': 'download',
  'PATCH /api/documents/{id}': 'documents.correct',
  'POST /api/documents/{id}/approve': 'documents.approve',
  'DELETE /api/documents/{id}': 'documents.remove',
  'POST /api/documents/{id}/forget': 'rules.change',

  'GET /api/reconcile': 'read',
  'GET /api/reconcile.xlsx': 'download',
  'PUT /api/reconcile/tolerances': 'settings.manage',
  'POST /api/reconcile/invoices/{id}/override': 'reconcile.override',
  // Whether a flow's invoices need a purchase order is a payment policy, like the tolerances.
  'PUT /api/reconcile/flows/{id}/no-po': 'settings.manage',
  'GET /api/gst': 'read',
  'GET /api/gst.xlsx': 'download',
  'GET /api/gst/ims.xlsx': 'download',
  'POST /api/gst/2b': 'flows.run',
  // Linking, unlinking or accepting a difference decides a claim of input tax credit, as approving does.
  'POST /api/gst/decisions': 'documents.approve',
  // The 2B amount tolerance decides what counts as matched, like the reconcile tolerances.
  'GET /api/gst/settings': 'read',
  'PUT /api/gst/settings': 'settings.manage',
  'GET /api/tds': 'read',
  'GET /api/tds/invoices/{id}': 'read',
  'GET /api/tds/settings': 'read',
  'PUT /api/tds/settings': 'settings.manage',
  'GET /api/books/tally': 'read',
  'PUT /api/books/tally': 'integrations.manage',
  'POST /api/books/tally/test': 'integrations.manage',
  'GET /api/books/tally/mapping': 'read',
  'PUT /api/books/tally/mapping': 'integrations.manage',
  'POST /api/books/tally/party-ledgers': 'integrations.manage',
  'POST /api/books/tally/post': 'books.post',
  'GET /api/books/pushes': 'read',
  'POST /api/books/pushes/{id}/cancel': 'books.post',
  'GET /api/books/tally.xml': 'download',
  'GET /api/books/zoho': 'read',
  'PUT /api/books/zoho': 'integrations.manage',
  'POST /api/books/zoho/test': 'integrations.manage',
  'GET /api/books/zoho/mapping': 'read',
  'PUT /api/books/zoho/mapping': 'integrations.manage',
  'POST /api/books/zoho/post': 'books.post',
  'POST /api/books/zoho/pushes/{id}/void': 'books.post',
  'GET /api/msme': 'read',
  'PUT /api/msme/registrations': 'vendors.edit',
  'POST /api/msme/payments': 'vendors.edit',
  'DELETE /api/msme/payments/{id}': 'vendors.edit',
  'POST /api/msme/payments/import': 'vendors.edit',
  'POST /api/msme/objections': 'vendors.edit',
  'PUT /api/msme/objections/{id}': 'vendors.edit',
  'GET /api/msme/settings': 'read',
  'POST /api/msme/bank-rates': 'settings.manage',
  'DELETE /api/msme/bank-rates/{id}': 'settings.manage',
  'GET /api/msme/form1.xlsx': 'download',
  'GET /api/msme/43bh.xlsx': 'download',
  'GET /api/vendors': 'read',
  'PATCH /api/vendors/{id}': 'vendors.edit',

  'GET /api/oauth/url': 'integrations.manage',
  // Not in the OpenAPI document (Google redirects the popup here), classified all the same.
  'GET /api/oauth/callback': 'integrations.manage',
  'GET /api/google/status': 'read',
  'POST /api/google/refresh': 'integrations.manage',
  'POST /api/google/disconnect': 'integrations.manage',
  'POST /api/google/folder': 'integrations.manage',
  'POST /api/google/vendor-sheet': 'integrations.manage',
};

/**
 * The caller, when their role in the organisation in use may take `action`; else `forbidden` with a
 * message naming the role and who may. Handlers call it for a finer check than their route's rule.
 */
export function requirePermission(
  c: Context<AppEnv>,
  action: Action,
): { user: SessionUser; membership: Membership } {
  const caller = requireMembership(c);
  if (!roleCan(caller.membership.role, action))
    throw new AppError('forbidden', describeMissingPermission(caller.membership.role, action));
  return caller;
}

/** `/api/documents/:id` → `/api/documents/{id}` (the OpenAPI spelling the table uses). */
function toOpenApiPath(path: string): string {
  return path.replace(/:([A-Za-z0-9_]+)(\{[^}]*\})?/g, '{$1}');
}

/** The `METHOD /path` of the endpoint that will answer this request, or null when none will (a 404). */
export function matchedRouteKey(c: Context<AppEnv>): string | null {
  // Middleware is registered for method ALL; the first method-bound route is the one Hono runs.
  const endpoint = matchedRoutes(c).find((r) => r.method !== 'ALL' && r.path.startsWith('/api/'));
  if (!endpoint) return null;
  return `${endpoint.method} ${toOpenApiPath(endpoint.path)}`;
}

/**
 * The guard in front of every /api route (after the session is loaded): looks the matched route up in
 * {@link ROUTE_RULES} and refuses a caller whose role lacks its action. A route missing from the table is
 * refused for everyone, so forgetting to classify one fails closed.
 */
export function createPermissionGuard(): MiddlewareHandler<AppEnv> {
  return async (c, next) => {
    const key = matchedRouteKey(c);
    if (key === null || key.startsWith('GET /api/auth/') || key.startsWith('POST /api/auth/')) return next();
    const rule = ROUTE_RULES[key];
    if (rule === undefined)
      throw new AppError('forbidden', `No permission rule is declared for ${key}; it is refused`);
    if (rule === 'signed-in') requireUser(c);
    else if (rule !== 'public') requirePermission(c, rule);
    await next();
  };
}
