import { type DataColumn, DataTable } from '@/components/data-table.tsx';
import { formatDateTime } from '@/lib/format.ts';
import type { FlowIntake } from './flows-api.ts';

type FlowIntakeItem = FlowIntake['items'][number];

import { useFlowIntake } from './queries.ts';

const STATUS_WORDS = { taken: 'Taken', skipped: 'Skipped', failed: 'Failed' } as const;

const INTAKE_COLUMNS: DataColumn<FlowIntakeItem>[] = [
  {
    key: 'file',
    header: 'File',
    cellClassName: 'max-w-48 truncate',
    cellProps: (item) => ({ title: item.name }),
    cell: (item) => item.name,
  },
  {
    key: 'from',
    header: 'From',
    cellClassName: 'max-w-48 truncate text-muted-foreground',
    cellProps: (item) => ({ title: item.origin }),
    cell: (item) => item.origin,
  },
  {
    key: 'what',
    header: 'What happened',
    cell: (item) => (
      <>
        <span className={item.status === 'failed' ? 'text-destructive' : undefined}>
          {STATUS_WORDS[item.status]}
        </span>
        {item.reason && <span className="text-muted-foreground"> — {item.reason}</span>}
      </>
    ),
  },
  {
    key: 'when',
    header: 'When',
    align: 'right',
    cellClassName: 'whitespace-nowrap text-muted-foreground text-xs',
    cell: (item) => formatDateTime(item.at),
  },
];

/**
 * What the flow's source offered, item by item (an e-mail attachment, a whole message): taken, skipped and
 * why, failed and why — newest first.
 */
export function IntakeLog({ flowId }: { flowId: string }) {
  const intake = useFlowIntake(flowId);
  return (
    <DataTable
      data-testid="intake-log"
      label="Intake log"
      columns={INTAKE_COLUMNS}
      rows={intake.data?.items ?? []}
      rowKey={(item) => item.id}
      rowProps={(item) => ({ 'data-status': item.status })}
      loading={intake.isPending}
      error={intake.isError ? 'Could not load the intake log.' : null}
      empty={
        <p className="text-muted-foreground text-sm">Nothing has arrived from this source by itself yet.</p>
      }
    />
  );
}
