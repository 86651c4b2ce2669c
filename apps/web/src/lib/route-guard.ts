import { getSheetViewPath, SHEET_PATH } from './sheet-path.ts';

/** Paths a signed-out visitor may open. */
export const PUBLIC_PATHS = ['/login', '/signup', '/terms-and-conditions', '/privacy-policy'] as const;

/** Legal pages stay readable whatever the auth state. */
const LEGAL_PATHS = ['/terms-and-conditions', '/privacy-policy'];

/** Paths of the signed-in app (inside the shell). */
export const APP_PATHS = [
  '/',
  '/parse',
  '/review',
  '/reconcile',
  '/gst',
  '/msme',
  '/profile',
  '/integrations',
  '/team',
  '/audit',
  '/vendor-management',
  '/compliance',
  '/working-capital',
] as const;

/** The review screen of one document: `/flows/<flow id>/documents/<document id>`. */
const DOCUMENT_PATH = /^\/flows\/[^/]+\/documents\/[^/]+$/;

/** An invitation link: `/invite/<token>`, open to anyone holding it, signed in or not. */
export const INVITE_PATH = /^\/invite\/[A-Za-z0-9_-]{20,100}$/;

/** A vendor onboarding form: `/vendor-form/<token>`, open to anyone holding the link, with no account. */
export const VENDOR_FORM_PATH = /^\/vendor-form\/[A-Za-z0-9_-]{20,100}$/;

/** Where an invitation link opened while signed out is remembered across sign-up / sign-in. */
export const PENDING_INVITE_KEY = 'bahi.pendingInvite';

/** Route that throws on purpose so the error page can be tested. */
export const ERROR_TEST_PATH = '/__error-test';

/** What the guard knows about the visitor. `hasOrganization` is undefined while it is still loading. */
export interface GuardState {
  pathname: string;
  session: 'loading' | 'signed-out' | 'signed-in';
  hasOrganization?: boolean;
  /** Whether `/__error-test` is enabled (dev build or `localStorage.bahiErrorTest === '1'`). */
  errorTestEnabled?: boolean;
  /** The path of an invitation opened before signing in, to return to once signed in. */
  pendingInvite?: string | null;
}

/** The guard's verdict: show a spinner, redirect, or render the matched route. */
export type GuardDecision = { kind: 'loading' } | { kind: 'redirect'; to: string } | { kind: 'render' };

/** Strips a trailing slash so `/profile/` and `/profile` are treated alike. */
function normalizePath(pathname: string): string {
  if (pathname.length > 1 && pathname.endsWith('/')) return pathname.replace(/\/+$/, '') || '/';
  return pathname;
}

/**
 * Decides where a visitor may go. Signed out: only the public pages, everything else → `/signup`.
 * Signed in: `/login` and `/signup` → `/`; no organisation yet → `/onboarding` first; unknown paths → `/`.
 */
export function decideRoute(state: GuardState): GuardDecision {
  const path = normalizePath(state.pathname);
  // The error-test route renders for anyone when enabled: it exists only to exercise the error page.
  if (state.errorTestEnabled && path === ERROR_TEST_PATH) return { kind: 'render' };
  if (state.session === 'loading') return { kind: 'loading' };
  // An invitation shows what it offers to anyone, and lets a signed-in person (with or without an
  // organisation) accept it.
  if (INVITE_PATH.test(path)) return { kind: 'render' };
  // A vendor's form renders for anyone, signed in or not, organisation or not.
  if (VENDOR_FORM_PATH.test(path)) return { kind: 'render' };

  if (state.session === 'signed-out') {
    return (PUBLIC_PATHS as readonly string[]).includes(path)
      ? { kind: 'render' }
      : { kind: 'redirect', to: '/signup' };
  }

  if (LEGAL_PATHS.includes(path)) return { kind: 'render' };
  // Signed up or in from an invitation: back to it before onboarding or the app.
  if (state.pendingInvite && INVITE_PATH.test(state.pendingInvite))
    return { kind: 'redirect', to: state.pendingInvite };
  if (state.hasOrganization === undefined) return { kind: 'loading' };

  if (!state.hasOrganization) {
    return path === '/onboarding' ? { kind: 'render' } : { kind: 'redirect', to: '/onboarding' };
  }
  if (path === '/login' || path === '/signup' || path === '/onboarding') return { kind: 'redirect', to: '/' };
  if ((APP_PATHS as readonly string[]).includes(path)) {
    return path === state.pathname ? { kind: 'render' } : { kind: 'redirect', to: path };
  }
  // A document's review screen (`appPaths.document`).
  if (DOCUMENT_PATH.test(path))
    return path === state.pathname ? { kind: 'render' } : { kind: 'redirect', to: path };
  // A flow's sheet view (`getSheetViewPath`).
  if (SHEET_PATH.test(path))
    return path === state.pathname ? { kind: 'render' } : { kind: 'redirect', to: path };
  // Links stored before in-app paths were shared (`/flows/<id>`) open the flow's sheet.
  const legacyFlow = /^\/flows\/([^/]+)$/.exec(path);
  if (legacyFlow) return { kind: 'redirect', to: getSheetViewPath(decodeURIComponent(legacyFlow[1]!)) };
  return { kind: 'redirect', to: '/' };
}
