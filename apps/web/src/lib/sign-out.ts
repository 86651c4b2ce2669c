import { authClient } from './auth-client.ts';

let signingOut = false;

/**
 * True from the moment sign-out starts until the page reloads. The route guard shows a spinner
 * meanwhile: otherwise it would see "signed out" first and redirect to /signup, and that client-side
 * navigation would race the full load of /login below.
 */
export function isSigningOut(): boolean {
  return signingOut;
}

/**
 * Signs out and lands on `/login` with a full page load, which also drops every cached query so
 * nothing of the previous user survives in memory.
 */
export async function signOutAndLeave(): Promise<void> {
  signingOut = true;
  try {
    // Stay in Bahi: without disableRedirect an SSO user would be sent on to the identity provider's logout page.
    await authClient.signOut({ disableRedirect: true });
  } finally {
    window.location.replace('/login');
  }
}
