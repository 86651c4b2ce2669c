/**
 * In-app path of a flow's sheet view. It lives under `/parse` as a query because the route guard
 * (`lib/route-guard.ts`) only admits the exact app paths; see the Parse page for how it is read.
 */
export function getSheetViewPath(flowId: string, tab: 'documents' | 'lines' = 'documents'): string {
  const query = new URLSearchParams({ sheet: flowId });
  if (tab !== 'documents') query.set('tab', tab);
  return `/parse?${query}`;
}
