import { useEffect } from 'react';

/** Browser tab title for a page: "Profile · Bahi", or just "Bahi" without a page name. */
export function formatDocumentTitle(page?: string): string {
  return page ? `${page} · Bahi` : 'Bahi';
}

/** Sets the tab title while the calling page is shown, so history and tabs name each screen. */
export function useDocumentTitle(page?: string): void {
  useEffect(() => {
    document.title = formatDocumentTitle(page);
  }, [page]);
}
