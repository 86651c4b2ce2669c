import type { AuthProvider } from '@bahi/contracts';

/** Button text for a provider: Google gets a mode-specific label, others "Continue with <name>". */
export function getProviderLabel(provider: AuthProvider, mode: 'signin' | 'signup'): string {
  if (provider.id === 'google') return mode === 'signup' ? 'Sign up with Google' : 'Continue with Google';
  return `Continue with ${provider.name}`;
}
