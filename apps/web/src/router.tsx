import { createBrowserRouter, type RouteObject } from 'react-router';
import { FullPageSpinner } from '@/components/spinner.tsx';
import { AuthGate } from '@/features/auth/auth-gate.tsx';
import { LoginPage } from '@/features/auth/login-page.tsx';
import { SignupPage } from '@/features/auth/signup-page.tsx';
import { HomePage } from '@/features/home/home-page.tsx';
import { AppShell } from '@/features/shell/app-shell.tsx';
import { ErrorPage, ErrorTestPage } from '@/features/shell/error-page.tsx';
import { isErrorTestEnabled } from '@/lib/error-test.ts';
import { ERROR_TEST_PATH } from '@/lib/route-guard.ts';

/*
 * The first screens a visitor sees (sign-in, shell, home) are in the main bundle; every other page
 * is a lazy route so its code (and the Parse feature's, which is large) loads only when opened.
 *
 * This file is the composition root of the web app: the one place that puts features together
 * (pages into the shell, the vendor master into the Vendor Management page). Features themselves
 * never import one another (a Biome rule in biome.json; see docs/ARCHITECTURE.md, Web).
 */

/** The pages outside the shell that anyone may open: terms, privacy, an invitation, the vendor form. */
function publicPageRoutes(): RouteObject[] {
  return [
    {
      path: 'terms-and-conditions',
      lazy: async () => ({ Component: (await import('@/features/legal/terms-page.tsx')).TermsPage }),
    },
    {
      path: 'privacy-policy',
      lazy: async () => ({ Component: (await import('@/features/legal/privacy-page.tsx')).PrivacyPage }),
    },
    {
      path: 'invite/:token',
      lazy: async () => ({ Component: (await import('@/features/team/invite-page.tsx')).InvitePage }),
    },
    {
      // The public vendor form: no account, no shell (the link's token is the only credential).
      path: 'vendor-form/:token',
      lazy: async () => ({
        Component: (await import('@/features/vendor-form/vendor-form-page.tsx')).VendorFormPage,
      }),
    },
  ];
}

/** The documents' pages: Parse (flows), reconciliation, the review queue, a flow's sheet, one document. */
function documentRoutes(): RouteObject[] {
  return [
    {
      path: 'parse',
      lazy: async () => ({ Component: (await import('@/features/parse/parse-page.tsx')).ParsePage }),
    },
    {
      path: 'reconcile',
      lazy: async () => ({
        Component: (await import('@/features/reconcile/reconcile-page.tsx')).ReconcilePage,
      }),
    },
    {
      path: 'review',
      lazy: async () => ({
        Component: (await import('@/features/review/review-queue-page.tsx')).ReviewQueuePage,
      }),
    },
    {
      path: 'flows/:flowId/sheet',
      lazy: async () => ({ Component: (await import('@/features/parse/sheet-page.tsx')).SheetPage }),
    },
    {
      path: 'flows/:flowId/documents/:documentId',
      lazy: async () => ({
        Component: (await import('@/features/review/document-page.tsx')).DocumentPage,
      }),
    },
  ];
}

/** The organisation's pages: profile, team, audit trail and integrations. */
function organisationRoutes(): RouteObject[] {
  return [
    {
      path: 'profile',
      lazy: async () => ({
        Component: (await import('@/features/profile/profile-page.tsx')).ProfilePage,
      }),
    },
    {
      path: 'team',
      lazy: async () => ({ Component: (await import('@/features/team/team-page.tsx')).TeamPage }),
    },
    {
      path: 'audit',
      lazy: async () => ({ Component: (await import('@/features/team/audit-page.tsx')).AuditPage }),
    },
    {
      path: 'integrations',
      lazy: async () => ({
        Component: (await import('@/features/integrations/integrations-page.tsx')).IntegrationsPage,
      }),
    },
  ];
}

/** The modules around the documents: vendors, GST, MSME, and the previews of what is planned. */
function moduleRoutes(): RouteObject[] {
  return [
    {
      path: 'vendor-management',
      // Two features on one page: the Vendor Management preview frames the working vendor master.
      lazy: async () => {
        const [{ VendorManagementPage }, { VendorMaster }, { OnboardingPanel }] = await Promise.all([
          import('@/features/coming-soon/pages.tsx'),
          import('@/features/vendors/vendor-master.tsx'),
          import('@/features/vendors/onboarding-panel.tsx'),
        ]);
        return {
          element: (
            <VendorManagementPage>
              <OnboardingPanel />
              <VendorMaster />
            </VendorManagementPage>
          ),
        };
      },
    },
    {
      path: 'gst',
      lazy: async () => ({
        Component: (await import('@/features/compliance/gst-page.tsx')).GstPage,
      }),
    },
    {
      path: 'msme',
      lazy: async () => ({
        Component: (await import('@/features/msme/msme-page.tsx')).MsmePage,
      }),
    },
    {
      path: 'compliance',
      lazy: async () => ({
        Component: (await import('@/features/coming-soon/pages.tsx')).CompliancePage,
      }),
    },
    {
      path: 'working-capital',
      lazy: async () => ({
        Component: (await import('@/features/coming-soon/pages.tsx')).WorkingCapitalPage,
      }),
    },
  ];
}

/** Route table. `AuthGate` (root) decides who may see what; see `lib/route-guard.ts`. */
export function createRoutes(errorTestEnabled: boolean): RouteObject[] {
  return [
    {
      path: '/',
      element: <AuthGate />,
      errorElement: <ErrorPage />,
      hydrateFallbackElement: <FullPageSpinner />,
      children: [
        { path: 'login', element: <LoginPage /> },
        { path: 'signup', element: <SignupPage /> },
        ...publicPageRoutes(),
        {
          path: 'onboarding',
          lazy: async () => ({
            Component: (await import('@/features/onboarding/onboarding-page.tsx')).OnboardingPage,
          }),
        },
        ...(errorTestEnabled ? [{ path: ERROR_TEST_PATH.slice(1), element: <ErrorTestPage /> }] : []),
        {
          element: <AppShell />,
          children: [
            { index: true, element: <HomePage /> },
            ...documentRoutes(),
            ...organisationRoutes(),
            ...moduleRoutes(),
          ],
        },
        // Unknown paths: the guard redirects them, so this only renders for a split second.
        { path: '*', element: null },
      ],
    },
  ];
}

/** The app's browser router. */
export function createAppRouter() {
  return createBrowserRouter(createRoutes(isErrorTestEnabled(import.meta.env.DEV, window.localStorage)));
}
