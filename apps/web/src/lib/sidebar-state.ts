/** localStorage key remembering whether the sidebar is collapsed. */
export const SIDEBAR_STORAGE_KEY = 'bahi.sidebar.collapsed';

/** Minimal storage surface, so tests can pass a Map-backed fake and private mode can throw. */
export interface KeyValueStorage {
  getItem(key: string): string | null;
  setItem(key: string, value: string): void;
}

/** Reads the remembered collapsed state; expanded when nothing (or something unreadable) is stored. */
export function readSidebarCollapsed(storage: KeyValueStorage | undefined): boolean {
  try {
    return storage?.getItem(SIDEBAR_STORAGE_KEY) === '1';
  } catch {
    return false;
  }
}

/** Remembers the collapsed state; ignores storage failures (quota, private mode). */
export function writeSidebarCollapsed(storage: KeyValueStorage | undefined, collapsed: boolean): void {
  try {
    storage?.setItem(SIDEBAR_STORAGE_KEY, collapsed ? '1' : '0');
  } catch {
    // Not remembering the sidebar is harmless.
  }
}
