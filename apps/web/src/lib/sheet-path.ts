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
