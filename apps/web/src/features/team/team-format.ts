/** A failed action's message, or the fallback when it carries none. */
export const errorText = (error: unknown, fallback: string) =>
  error instanceof Error ? error.message : fallback;
/** "3 Aug 2025". */
export const formatDate = (iso: string) =>
  new Date(iso).toLocaleDateString('en-IN', { day: 'numeric', month: 'short', year: 'numeric' });
