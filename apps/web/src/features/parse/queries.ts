import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { flowKeys } from '@/shared/flows/queries.ts';
import type { FlowFormValues } from './flow-form.ts';
import {
  createFlow,
  deleteFlow,
  type Flow,
  getFlowIntake,
  listFlowDocuments,
  listFlowRuns,
  listFlowUploads,
  redoDocument,
  startRun,
  updateFlow,
} from './flows-api.ts';

/** A flow's run history (also tells a freshly opened page which run is still going). */
export function useFlowRuns(flowId: string) {
  return useQuery({
    queryKey: flowKeys.runs(flowId),
    queryFn: ({ signal }) => listFlowRuns(flowId, signal),
    // Whether a run is going decides the card: asked of the server each time the page opens, never cached.
    refetchOnMount: 'always',
  });
}

/** A flow's intake log (what its source offered: taken, skipped and why), refreshed while open. */
export function useFlowIntake(flowId: string, enabled = true) {
  return useQuery({
    queryKey: [...flowKeys.runs(flowId), 'intake'],
    queryFn: ({ signal }) => getFlowIntake(flowId, signal),
    enabled,
    refetchInterval: 15_000,
  });
}

/** A flow's inbox documents; `enabled` lets closed panels skip the request, `live` polls during a run. */
export function useFlowDocuments(flowId: string, enabled = true, live = false) {
  return useQuery({
    queryKey: flowKeys.documents(flowId),
    queryFn: ({ signal }) => listFlowDocuments(flowId, signal),
    enabled,
    // While a run is going the statuses change under the user's eyes; refresh them.
    refetchInterval: live ? 2000 : false,
  });
}

/** An upload flow's stored files (the inbox before a run reads them). */
export function useFlowUploads(flowId: string, enabled = true) {
  return useQuery({
    queryKey: flowKeys.uploads(flowId),
    queryFn: ({ signal }) => listFlowUploads(flowId, signal),
    enabled,
  });
}

/** Creates or updates a flow, then refreshes the list and the dashboard counters. */
export function useSaveFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ flow, values }: { flow?: Flow | undefined; values: FlowFormValues }) =>
      flow ? updateFlow(flow, values) : createFlow(values),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: flowKeys.list() });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}

/** Deletes a flow. */
export function useDeleteFlow() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string) => deleteFlow(id),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: flowKeys.list() });
      void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    },
  });
}

/** Starts a run of a flow; answers with the run id. */
export function useStartRun() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (flowId: string) => startRun(flowId),
    onSuccess: (_runId, flowId) => void queryClient.invalidateQueries({ queryKey: flowKeys.runs(flowId) }),
  });
}

/** Retries a failed document or re-processes a done one. */
export function useRedoDocument(flowId: string) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: ({ documentId, action }: { documentId: string; action: 'retry' | 'reprocess' }) =>
      redoDocument(documentId, action),
    onSuccess: () => {
      void queryClient.invalidateQueries({ queryKey: flowKeys.documents(flowId) });
      void queryClient.invalidateQueries({ queryKey: flowKeys.runs(flowId) });
    },
  });
}

/** Refreshes everything a finished run changes. */
export function useRefreshAfterRun() {
  const queryClient = useQueryClient();
  return (flowId: string) => {
    for (const key of [
      flowKeys.list(),
      flowKeys.runs(flowId),
      flowKeys.documents(flowId),
      flowKeys.sheet(flowId),
    ]) {
      void queryClient.invalidateQueries({ queryKey: key });
    }
    void queryClient.invalidateQueries({ queryKey: ['dashboard'] });
    void queryClient.invalidateQueries({ queryKey: ['notifications'] });
  };
}
