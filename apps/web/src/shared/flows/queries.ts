import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';

/**
 * Query keys of a flow's data, so mutations invalidate exactly what they change. The Parse feature
 * owns these screens; Review refreshes a flow's inbox and sheet after a correction.
 */
export const flowKeys = {
  all: ['flows'] as const,
  list: () => ['flows', 'list'] as const,
  runs: (flowId: string) => ['flows', flowId, 'runs'] as const,
  documents: (flowId: string) => ['flows', flowId, 'documents'] as const,
  uploads: (flowId: string) => ['flows', flowId, 'uploads'] as const,
  sheet: (flowId: string) => ['flows', flowId, 'sheet'] as const,
  outputs: (flowId: string) => ['flows', flowId, 'outputs'] as const,
};

/**
 * Whether the flow's workbook and Google sheet hold its latest rows (`GET /api/flows/:id/outputs`). A change
 * saves at once and a background job rewrites them a moment later: asked again every 1.5 s until they are
 * up to date.
 */
export function useFlowOutputs(flowId: string) {
  return useQuery({
    queryKey: flowKeys.outputs(flowId),
    queryFn: ({ signal }) => callEndpoint(api.flowOutputs, { params: { id: flowId }, signal }),
    refetchInterval: (query) => (query.state.data?.upToDate === false ? 1500 : false),
  });
}

/** The organisation's flows (`GET /api/workflows`, newest first). */
export function useFlows() {
  return useQuery({
    queryKey: flowKeys.list(),
    queryFn: ({ signal }) => callEndpoint(api.listFlows, { signal }),
  });
}

/**
 * Removes a document from its flow (`DELETE /api/documents/:id`; its rows leave the sheets), then
 * refreshes the inbox, the sheet and the dashboard.
 */
export function useRemoveDocument(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: async (documentId: string): Promise<void> => {
      await callEndpoint(api.removeDocument, { params: { id: documentId } });
    },
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: flowKeys.documents(flowId) });
      void queryClient.invalidateQueries({ queryKey: flowKeys.sheet(flowId) });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}
