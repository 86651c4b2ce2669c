import { authClient } from '@/features/auth/auth-client.ts';

/**
 * Signs out and lands on `/login` with a full page load, which also drops every cached query so
 * nothing of the previous user survives in memory.
 */
export async function signOutAndLeave(): Promise<void> {
  try {
    await authClient.signOut();
  } finally {
    window.location.assign('/login');
  }
}
