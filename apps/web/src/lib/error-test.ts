/**
 * Whether `/__error-test` is enabled: always in dev builds, and in production only when
 * `localStorage.bahiErrorTest === '1'` (set by the browser tests before loading the page).
 */
export function isErrorTestEnabled(
  isDev: boolean,
  storage: { getItem(key: string): string | null } | undefined,
): boolean {
  if (isDev) return true;
  try {
    return storage?.getItem('bahiErrorTest') === '1';
  } catch {
    return false;
  }
}
