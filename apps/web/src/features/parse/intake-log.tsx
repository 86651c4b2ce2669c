import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Table, TableBody, TableCell, TableHead, TableHeader, TableRow } from '@/components/ui/table.tsx';
import { formatDateTime } from '@/lib/format.ts';
import { useFlowIntake } from './queries.ts';

const STATUS_WORDS = { taken: 'Taken', skipped: 'Skipped', failed: 'Failed' } as const;

/**
 * What the flow's source offered, item by item (an e-mail attachment, a whole message): taken, skipped and
 * why, failed and why — newest first.
 */
export function IntakeLog({ flowId }: { flowId: string }) {
  const intake = useFlowIntake(flowId);
  if (intake.isPending) return <Skeleton className="h-16 w-full" />;
  if (intake.isError) return <p className="text-destructive text-sm">Could not load the intake log.</p>;
  const { items } = intake.data;
  if (items.length === 0)
    return (
      <p className="text-muted-foreground text-sm">Nothing has arrived from this source by itself yet.</p>
    );
  return (
    <Table data-testid="intake-log">
      <TableHeader>
        <TableRow>
          <TableHead>File</TableHead>
          <TableHead>From</TableHead>
          <TableHead>What happened</TableHead>
          <TableHead className="text-right">When</TableHead>
        </TableRow>
      </TableHeader>
      <TableBody>
        {items.map((item) => (
          <TableRow key={item.id} data-status={item.status}>
            <TableCell className="max-w-48 truncate" title={item.name}>
              {item.name}
            </TableCell>
            <TableCell className="max-w-48 truncate text-muted-foreground" title={item.origin}>
              {item.origin}
            </TableCell>
            <TableCell className="whitespace-normal">
              <span className={item.status === 'failed' ? 'text-destructive' : undefined}>
                {STATUS_WORDS[item.status]}
              </span>
              {item.reason && <span className="text-muted-foreground"> — {item.reason}</span>}
            </TableCell>
            <TableCell className="text-right text-muted-foreground text-xs">
              {formatDateTime(item.at)}
            </TableCell>
          </TableRow>
        ))}
      </TableBody>
    </Table>
  );
}
