import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { cn } from '@/lib/utils.ts';
import { formatDuration, formatEndTime } from './flow-format.ts';
import type { Run } from './flows-api.ts';
import { useFlowRuns } from './queries.ts';
import { describeRunStatus } from './run-progress.ts';

/** A run's (or flow's) outcome as a coloured badge. */
export function StatusBadge({
  label,
  tone,
  testId,
  className,
}: {
  label: string;
  tone: 'success' | 'warning' | 'error' | 'neutral';
  testId?: string;
  className?: string;
}) {
  if (tone === 'warning') {
    return (
      <Badge
        className={cn('border-transparent bg-warning/15 text-warning-foreground', className)}
        data-testid={testId}
      >
        {label}
      </Badge>
    );
  }
  return (
    <Badge
      variant={tone === 'success' ? 'success' : tone === 'error' ? 'destructive' : 'secondary'}
      className={className}
      data-testid={testId}
    >
      {label}
    </Badge>
  );
}

/** The run history's columns: started, finished, outcome, counts and duration (phones keep the main ones). */
const RUN_COLUMNS: DataColumn<Run>[] = [
  {
    key: 'started',
    header: 'Started',
    cellClassName: 'whitespace-nowrap',
    cell: (run) => formatDateTime(run.startedAt),
  },
  {
    key: 'finished',
    header: 'Finished',
    hideOnPhone: true,
    cellClassName: 'whitespace-nowrap',
    cell: (run) => formatEndTime(run.startedAt, run.finishedAt),
  },
  {
    key: 'status',
    header: 'Status',
    // Wraps in the narrow column of a phone rather than pushing the counts off the screen.
    cell: (run) => <StatusBadge {...describeRunStatus(run)} className="whitespace-normal" />,
  },
  {
    key: 'processed',
    header: 'Processed',
    align: 'right',
    cell: (run) => run.counts.done + run.counts.needsReview,
  },
  {
    key: 'review',
    header: 'Need review',
    align: 'right',
    hideOnPhone: true,
    cell: (run) => run.counts.needsReview,
  },
  { key: 'failed', header: 'Failed', align: 'right', cell: (run) => run.counts.failed },
  {
    key: 'duration',
    header: 'Duration',
    align: 'right',
    hideOnPhone: true,
    cell: (run) => formatDuration(run.durationMs),
  },
];

/** Table of a flow's past runs (the last ten): started, finished, counts and duration. */
export function RunHistory({ flowId }: { flowId: string }) {
  const runs = useFlowRuns(flowId);
  return (
    <DataTable
      label="Run history"
      columns={RUN_COLUMNS}
      rows={runs.data?.slice(0, 10) ?? []}
      rowKey={(run) => run.id}
      loading={runs.isPending}
      error={runs.isError ? `Couldn't load the run history: ${runs.error.message}` : null}
      empty={<p className="text-muted-foreground text-sm">No runs yet.</p>}
    />
  );
}
