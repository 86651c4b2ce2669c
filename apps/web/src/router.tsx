import { createBrowserRouter, type RouteObject } from 'react-router';
import { AuthGate } from '@/features/auth/auth-gate.tsx';
import { LoginPage } from '@/features/auth/login-page.tsx';
import { SignupPage } from '@/features/auth/signup-page.tsx';
import { CompliancePage, VendorManagementPage, WorkingCapitalPage } from '@/features/coming-soon/pages.tsx';
import { HomePage } from '@/features/home/home-page.tsx';
import { IntegrationsPage } from '@/features/integrations/integrations-page.tsx';
import { PrivacyPage } from '@/features/legal/privacy-page.tsx';
import { TermsPage } from '@/features/legal/terms-page.tsx';
import { OnboardingPage } from '@/features/onboarding/onboarding-page.tsx';
import { ParsePage } from '@/features/parse/parse-page.tsx';
import { ProfilePage } from '@/features/profile/profile-page.tsx';
import { AppShell } from '@/features/shell/app-shell.tsx';
import { ErrorPage, ErrorTestPage } from '@/features/shell/error-page.tsx';
import { isErrorTestEnabled } from '@/lib/error-test.ts';
import { ERROR_TEST_PATH } from '@/lib/route-guard.ts';

/** Route table. `AuthGate` (root) decides who may see what; see `lib/route-guard.ts`. */
export function createRoutes(errorTestEnabled: boolean): RouteObject[] {
  return [
    {
      path: '/',
      element: <AuthGate />,
      errorElement: <ErrorPage />,
      children: [
        { path: 'login', element: <LoginPage /> },
        { path: 'signup', element: <SignupPage /> },
        { path: 'terms-and-conditions', element: <TermsPage /> },
        { path: 'privacy-policy', element: <PrivacyPage /> },
        { path: 'onboarding', element: <OnboardingPage /> },
        ...(errorTestEnabled ? [{ path: ERROR_TEST_PATH.slice(1), element: <ErrorTestPage /> }] : []),
        {
          element: <AppShell />,
          children: [
            { index: true, element: <HomePage /> },
            { path: 'parse', element: <ParsePage /> },
            { path: 'profile', element: <ProfilePage /> },
            { path: 'integrations', element: <IntegrationsPage /> },
            { path: 'vendor-management', element: <VendorManagementPage /> },
            { path: 'compliance', element: <CompliancePage /> },
            { path: 'working-capital', element: <WorkingCapitalPage /> },
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
