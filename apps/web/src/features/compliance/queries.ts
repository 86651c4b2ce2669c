import type { GstDecisionInput } from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { decideGst, getGst, getTds, setTurnoverAbove10cr, uploadGstr2b } from './compliance-api.ts';

/** The GST screen of a period (asked afresh each time the screen opens: invoices change elsewhere). */
export function useGst(period: string | undefined) {
  return useQuery({
    queryKey: ['gst', period ?? 'latest'],
    queryFn: ({ signal }) => getGst(period, signal),
    refetchOnMount: 'always',
  });
}

/** Upload a GSTR-2B file; every period's view follows. */
export function useUploadGstr2b() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (file: File) => uploadGstr2b(file),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['gst'] }),
  });
}

/** Link, unlink or accept. */
export function useDecideGst() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: GstDecisionInput) => decideGst(input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['gst'] }),
  });
}

/** The TDS screen of a month. */
export function useTds(month: string | undefined) {
  return useQuery({
    queryKey: ['tds', month ?? 'latest'],
    queryFn: ({ signal }) => getTds(month, signal),
    refetchOnMount: 'always',
  });
}

/** Set the turnover-above-₹10-crore setting. */
export function useSetTurnover() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (above: boolean) => setTurnoverAbove10cr(above),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['tds'] }),
  });
}
