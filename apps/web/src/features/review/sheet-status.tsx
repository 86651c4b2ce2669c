import { CheckIcon, Loader2Icon, TriangleAlertIcon } from 'lucide-react';
import { useFlowOutputs } from '@/shared/flows/queries.ts';

/** "12:04" in the reader's own clock. */
function formatClock(iso: string): string {
  return new Date(iso).toLocaleTimeString('en-IN', { hour: '2-digit', minute: '2-digit', hour12: false });
}

/**
 * Whether the flow's workbook and Google sheet hold the document's latest values: a correction or an
 * approval saves at once, and the sheet follows a moment later ("Updating sheet…", then "Sheet updated
 * 12:04"). Its own component: it asks the server on its own while the sheet is being written.
 */
export function SheetStatus({ flowId }: { flowId: string }) {
  const { data } = useFlowOutputs(flowId);
  if (!data) return null;
  const base = 'inline-flex items-center gap-1.5 text-sm';
  if (!data.upToDate && data.error)
    return (
      <p className={`${base} text-warning-foreground`} role="status" title={data.error}>
        <TriangleAlertIcon className="size-4 shrink-0" aria-hidden="true" />
        Sheet not updated yet: Bahi tries again
      </p>
    );
  if (!data.upToDate)
    return (
      <p className={`${base} text-muted-foreground`} role="status">
        <Loader2Icon className="size-4 shrink-0 animate-spin" aria-hidden="true" />
        Updating sheet…
      </p>
    );
  if (!data.writtenAt) return null;
  return (
    <p className={`${base} text-muted-foreground`} role="status">
      <CheckIcon className="size-4 shrink-0 text-success" aria-hidden="true" />
      Sheet updated {formatClock(data.writtenAt)}
    </p>
  );
}
