import {
  ChevronDownIcon,
  ExternalLinkIcon,
  FolderIcon,
  HistoryIcon,
  InboxIcon,
  KeyRoundIcon,
  ListChecksIcon,
  Loader2Icon,
  PencilIcon,
  PlayIcon,
  SheetIcon,
  Trash2Icon,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card } from '@/components/ui/card.tsx';
import { formatAgo } from '@/lib/format.ts';
import { useMe } from '@/lib/session.ts';
import { getSheetViewPath } from '@/lib/sheet-path.ts';
import { GOOGLE_AUTH_REQUIRED_MESSAGE } from '@/shared/integrations/google-oauth.ts';
import { describeNextRun } from './flow-automation.ts';
import { formatLastRun } from './flow-format.ts';
import type { Flow, Run } from './flows-api.ts';
import { describeOutput } from './google-output.ts';
import { IntakeLog } from './intake-log.tsx';
import { RunHistory, StatusBadge } from './run-history.tsx';
import { describeFlowStatus, type RunProgressView } from './run-progress.ts';
import { RunProgressBar } from './run-progress-bar.tsx';
import { describeSource } from './source-link.ts';

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
  const [historyOpen, setHistoryOpen] = useState(false);
  const [intakeOpen, setIntakeOpen] = useState(false);
  const me = useMe();
  const nextRun = describeNextRun(flow, Date.now(), me.data?.organization?.timeZone);
  // The intake log is for flows whose documents arrive by themselves (a trigger, or a mailbox).
  const showsIntake = (flow.trigger && flow.trigger.kind !== 'manual') || Boolean(flow.io.input.mail);
  const source = describeSource(flow.io.input);
  const output = describeOutput(flow.io.output);
  const busy = running || starting;
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
          <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1.5 text-sm">
            {source.kind === 'upload' ? (
              <button
                type="button"
                onClick={onOpenDocuments}
                className="inline-flex items-center gap-1.5 text-primary hover:underline"
              >
                <InboxIcon className="size-3.5" aria-hidden="true" />
                {source.label}
              </button>
            ) : source.kind === 'drive' ? (
              <a
                href={source.href}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center gap-1.5 text-primary hover:underline"
              >
                <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
                {source.label}
              </a>
            ) : (
              <span
                className="inline-flex min-w-0 items-center gap-1.5 text-muted-foreground"
                title={source.path}
              >
                <FolderIcon className="size-3.5 shrink-0" aria-hidden="true" />
                <code className="truncate text-xs">{source.label}</code>
              </span>
            )}
            <Link
              to={getSheetViewPath(flow.id)}
              className="inline-flex items-center gap-1.5 text-primary hover:underline"
              data-testid="sheet-link"
            >
              <SheetIcon className="size-3.5" aria-hidden="true" />
              {output.label}
            </Link>
            {output.googleHref && (
              <a
                href={output.googleHref}
                target="_blank"
                rel="noreferrer"
                className="inline-flex items-center gap-1.5 text-primary hover:underline"
                data-testid="google-sheet-link"
              >
                <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
                Open in Google Sheets
              </a>
            )}
          </div>
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
        <div className="flex shrink-0 flex-wrap items-center gap-1.5">
          <Button size="sm" onClick={onRun} disabled={busy} data-testid="run-flow">
            {busy ? (
              <Loader2Icon className="animate-spin" aria-hidden="true" />
            ) : (
              <PlayIcon aria-hidden="true" />
            )}
            {busy ? 'Running' : 'Run'}
          </Button>
          <Button size="sm" variant="outline" onClick={onOpenDocuments}>
            <InboxIcon aria-hidden="true" />
            Documents
          </Button>
          <Button size="icon" variant="ghost" onClick={onEdit} aria-label={`Edit ${flow.name}`}>
            <PencilIcon aria-hidden="true" />
          </Button>
          <Button
            size="icon"
            variant="ghost"
            onClick={onDelete}
            disabled={running}
            aria-label={`Delete ${flow.name}`}
            className="text-destructive hover:bg-destructive/10 hover:text-destructive"
          >
            <Trash2Icon aria-hidden="true" />
          </Button>
        </div>
      </div>

      {progress && <RunProgressBar progress={progress} finished={!running} />}

      {authRequired && (
        <div
          role="alert"
          data-testid="google-auth-required"
          className="flex flex-col gap-3 rounded-md border border-destructive/30 bg-destructive/5 px-4 py-3 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <p className="text-destructive">{GOOGLE_AUTH_REQUIRED_MESSAGE}</p>
          <Button size="sm" variant="outline" className="shrink-0" onClick={onAuthorize}>
            <KeyRoundIcon aria-hidden="true" />
            Authorize Google
          </Button>
        </div>
      )}

      <div className="border-t pt-3">
        <div className="flex flex-wrap items-center gap-4">
          <button
            type="button"
            aria-expanded={historyOpen}
            onClick={() => setHistoryOpen((open) => !open)}
            className="inline-flex items-center gap-1.5 text-muted-foreground text-xs hover:text-foreground"
          >
            <HistoryIcon className="size-3.5" aria-hidden="true" />
            Run history
            <ChevronDownIcon
              className={`size-3.5 transition-transform ${historyOpen ? 'rotate-180' : ''}`}
              aria-hidden="true"
            />
          </button>
          {showsIntake && (
            <button
              type="button"
              aria-expanded={intakeOpen}
              onClick={() => setIntakeOpen((open) => !open)}
              className="inline-flex items-center gap-1.5 text-muted-foreground text-xs hover:text-foreground"
              data-testid="intake-toggle"
            >
              <ListChecksIcon className="size-3.5" aria-hidden="true" />
              Intake log
              <ChevronDownIcon
                className={`size-3.5 transition-transform ${intakeOpen ? 'rotate-180' : ''}`}
                aria-hidden="true"
              />
            </button>
          )}
        </div>
        {historyOpen && (
          <div className="mt-3">
            <RunHistory flowId={flow.id} />
          </div>
        )}
        {showsIntake && intakeOpen && (
          <div className="mt-3">
            <IntakeLog flowId={flow.id} />
          </div>
        )}
      </div>
    </Card>
  );
}
