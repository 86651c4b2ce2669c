import { appPaths } from '@bahi/contracts';

/**
 * In-app path of a flow's sheet view: the contract's `appPaths.flowSheet` (the link the server writes
 * into notifications too), with the tab when it is not the first. It lives under `/parse` as a query
 * because the route guard (`lib/route-guard.ts`) only admits the exact app paths; see the Parse page
 * for how it is read.
 */
export function getSheetViewPath(flowId: string, tab: 'documents' | 'lines' = 'documents'): string {
  const path = appPaths.flowSheet(flowId);
  return tab === 'documents' ? path : `${path}&tab=${tab}`;
}
