import type { GstDecisionInput, GstSettings } from '@bahi/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import {
  decideGst,
  getGst,
  getTds,
  setGstSettings,
  setTurnoverAbove10cr,
  uploadGstr2b,
} from './compliance-api.ts';

/**
 * The GST screen of a period and buyer GSTIN (asked afresh each time the screen opens: invoices change
 * elsewhere). Without them, the newest period and its first GSTIN.
 */
export function useGst(period: string | undefined, gstin: string | undefined) {
  return useQuery({
    queryKey: ['gst', period ?? 'latest', gstin ?? 'first'],
    queryFn: ({ signal }) => getGst({ period, gstin }, signal),
    refetchOnMount: 'always',
  });
}

/** Set the GSTR-2B amount tolerance; every view is matched again with it. */
export function useSetGstSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (body: GstSettings) => setGstSettings(body),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['gst'] }),
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
