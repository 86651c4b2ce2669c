/**
 * In-app path of a flow's sheet view, `/flows/<flow id>/sheet`, with the tab when it is not the first
 * (`?tab=lines`). Its own route, so a reload or a shared link opens the same view. Links the server
 * writes (`appPaths.flowSheet`, `/parse?sheet=<id>`) and the older `/flows/<id>` still open it: the
 * route guard and the Parse page send them here.
 */
export function getSheetViewPath(flowId: string, tab: 'documents' | 'lines' = 'documents'): string {
  const path = `/flows/${encodeURIComponent(flowId)}/sheet`;
  return tab === 'documents' ? path : `${path}?tab=${tab}`;
}

/** A flow's sheet view: `/flows/<flow id>/sheet` (see `getSheetViewPath`). */
export const SHEET_PATH = /^\/flows\/([^/]+)\/sheet$/;

/**
 * Where `/parse?sheet=<id>` (the form of `appPaths.flowSheet`, in notifications and mailbox sign-in
 * returns) now lives: the sheet route, keeping the tab and any other marker (`mailOAuth`); null when
 * the query names no sheet.
 */
export function sheetPathFromParseQuery(query: URLSearchParams): string | null {
  const flowId = query.get('sheet');
  if (!flowId) return null;
  const path = getSheetViewPath(flowId, query.get('tab') === 'lines' ? 'lines' : 'documents');
  const rest = new URLSearchParams(query);
  rest.delete('sheet');
  rest.delete('tab');
  if (rest.size === 0) return path;
  return `${path}${path.includes('?') ? '&' : '?'}${rest.toString()}`;
}
