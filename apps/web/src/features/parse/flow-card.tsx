import { Badge } from '@/components/ui/badge.tsx';
import { Card } from '@/components/ui/card.tsx';
import { formatAgo } from '@/lib/format.ts';
import { useMe } from '@/lib/session.ts';
import { describeNextRun } from './flow-automation.ts';
import { FlowActions, FlowDisclosures, FlowLinks, GoogleAuthAlert } from './flow-card-parts.tsx';
import { formatLastRun } from './flow-format.ts';
import type { Flow, Run } from './flows-api.ts';
import { StatusBadge } from './run-history.tsx';
import { describeFlowStatus, type RunProgressView } from './run-progress.ts';
import { RunProgressBar } from './run-progress-bar.tsx';

/**
 * One flow: name, status and type badges, source and output links, ages, actions and — while a
 * run is going — its live progress. A Google output links both to the spreadsheet on Google (new tab)
 * and to the in-app sheet view; a run that failed on Google authorisation shows the product's message
 * with a button that opens the authorisation dialog.
 */
export function FlowCard({
  flow,
  progress,
  running,
  starting,
  onRun,
  onEdit,
  onDelete,
  onOpenDocuments,
  authRequired = false,
  onAuthorize,
  latestRun,
}: {
  flow: Flow;
  /** The flow's newest run (null: never run; undefined: its history is still loading). */
  latestRun: Run | null | undefined;
  progress: RunProgressView | null;
  running: boolean;
  starting: boolean;
  onRun: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onOpenDocuments: () => void;
  authRequired?: boolean;
  onAuthorize?: () => void;
}) {
  const me = useMe();
  const nextRun = describeNextRun(flow, Date.now(), me.data?.organization?.timeZone);
  // The intake log is for flows whose documents arrive by themselves (a trigger, or a mailbox).
  const showsIntake = (flow.trigger && flow.trigger.kind !== 'manual') || Boolean(flow.io.input.mail);
  const type = flow.types[0];
  const flowStatus = describeFlowStatus(latestRun);

  return (
    <Card className="gap-4 px-5 py-5" data-testid="flow-card" data-flow-id={flow.id}>
      <div className="flex flex-col gap-3 sm:flex-row sm:items-start sm:justify-between">
        <div className="min-w-0 flex-1">
          <div className="flex flex-wrap items-center gap-2">
            <h2 className="truncate font-semibold text-base">{flow.name}</h2>
            {flowStatus && <StatusBadge {...flowStatus} testId="flow-status" />}
            {type && (
              <Badge variant="outline" className="font-mono tracking-wide">
                {type}
              </Badge>
            )}
          </div>
          <FlowLinks flow={flow} onOpenDocuments={onOpenDocuments} />
          <p className="mt-2 text-muted-foreground text-xs">
            Created {formatAgo(flow.createdAt)} · {formatLastRun(flow.lastRunAt)}
            {nextRun && <span data-testid="next-run"> · {nextRun}</span>}
          </p>
          {flow.sourceError && (
            <p role="alert" data-testid="source-error" className="mt-2 text-destructive text-xs">
              {flow.sourceError}
            </p>
          )}
        </div>
        <FlowActions
          name={flow.name}
          busy={running || starting}
          running={running}
          onRun={onRun}
          onEdit={onEdit}
          onDelete={onDelete}
          onOpenDocuments={onOpenDocuments}
        />
      </div>

      {progress && <RunProgressBar progress={progress} finished={!running} />}
      {authRequired && <GoogleAuthAlert onAuthorize={onAuthorize} />}
      <FlowDisclosures flowId={flow.id} showsIntake={Boolean(showsIntake)} />
    </Card>
  );
}
