import {
  ChevronDownIcon,
  ExternalLinkIcon,
  FolderIcon,
  HistoryIcon,
  InboxIcon,
  KeyRoundIcon,
  ListChecksIcon,
  Loader2Icon,
  type LucideIcon,
  PencilIcon,
  PlayIcon,
  SheetIcon,
  Trash2Icon,
} from 'lucide-react';
import { useState } from 'react';
import { Link } from 'react-router';
import { Button } from '@/components/ui/button.tsx';
import { getSheetViewPath } from '@/lib/sheet-path.ts';
import { GOOGLE_AUTH_REQUIRED_MESSAGE } from '@/shared/integrations/google-oauth.ts';
import type { Flow } from './flows-api.ts';
import { describeOutput } from './google-output.ts';
import { IntakeLog } from './intake-log.tsx';
import { RunHistory } from './run-history.tsx';
import { describeSource } from './source-link.ts';

/* The pieces of a flow card (flow-card.tsx): its links, its actions, the Google alert and the disclosures. */

const linkClass = 'inline-flex items-center gap-1.5 text-primary hover:underline';

/** Where the flow's documents come from: the upload inbox, the Drive folder or the server folder. */
function SourceLink({ flow, onOpenDocuments }: { flow: Flow; onOpenDocuments: () => void }) {
  const source = describeSource(flow.io.input);
  if (source.kind === 'upload') {
    return (
      <button type="button" onClick={onOpenDocuments} className={linkClass}>
        <InboxIcon className="size-3.5" aria-hidden="true" />
        {source.label}
      </button>
    );
  }
  if (source.kind === 'drive') {
    return (
      <a href={source.href} target="_blank" rel="noreferrer" className={linkClass}>
        <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
        {source.label}
      </a>
    );
  }
  return (
    <span className="inline-flex min-w-0 items-center gap-1.5 text-muted-foreground" title={source.path}>
      <FolderIcon className="size-3.5 shrink-0" aria-hidden="true" />
      <code className="truncate text-xs">{source.label}</code>
    </span>
  );
}

/** The flow's source, its in-app sheet view and — for a Google output — the spreadsheet on Google. */
export function FlowLinks({ flow, onOpenDocuments }: { flow: Flow; onOpenDocuments: () => void }) {
  const output = describeOutput(flow.io.output);
  return (
    <div className="mt-2 flex flex-wrap items-center gap-x-4 gap-y-1.5 text-sm">
      <SourceLink flow={flow} onOpenDocuments={onOpenDocuments} />
      <Link to={getSheetViewPath(flow.id)} className={linkClass} data-testid="sheet-link">
        <SheetIcon className="size-3.5" aria-hidden="true" />
        {output.label}
      </Link>
      {output.googleHref && (
        <a
          href={output.googleHref}
          target="_blank"
          rel="noreferrer"
          className={linkClass}
          data-testid="google-sheet-link"
        >
          <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
          Open in Google Sheets
        </a>
      )}
    </div>
  );
}

/** Run, Documents, Edit and Delete (Delete waits while a run is going). */
export function FlowActions({
  name,
  busy,
  running,
  onRun,
  onEdit,
  onDelete,
  onOpenDocuments,
}: {
  name: string;
  busy: boolean;
  running: boolean;
  onRun: () => void;
  onEdit: () => void;
  onDelete: () => void;
  onOpenDocuments: () => void;
}) {
  return (
    <div className="flex shrink-0 flex-wrap items-center gap-1.5">
      <Button size="sm" onClick={onRun} disabled={busy} data-testid="run-flow">
        {busy ? <Loader2Icon className="animate-spin" aria-hidden="true" /> : <PlayIcon aria-hidden="true" />}
        {busy ? 'Running' : 'Run'}
      </Button>
      <Button size="sm" variant="outline" onClick={onOpenDocuments}>
        <InboxIcon aria-hidden="true" />
        Documents
      </Button>
      <Button size="icon" variant="ghost" onClick={onEdit} aria-label={`Edit ${name}`}>
        <PencilIcon aria-hidden="true" />
      </Button>
      <Button
        size="icon"
        variant="ghost"
        onClick={onDelete}
        disabled={running}
        aria-label={`Delete ${name}`}
        className="text-destructive hover:bg-destructive/10 hover:text-destructive"
      >
        <Trash2Icon aria-hidden="true" />
      </Button>
    </div>
  );
}

/** A run refused or failed on Google authorisation: the product's message and the button that authorises. */
export function GoogleAuthAlert({ onAuthorize }: { onAuthorize: (() => void) | undefined }) {
  return (
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
  );
}

/** A small toggle that opens a section under the card, its chevron turned while open. */
function DisclosureToggle({
  icon: Icon,
  label,
  open,
  onToggle,
  testId,
}: {
  icon: LucideIcon;
  label: string;
  open: boolean;
  onToggle: () => void;
  testId?: string;
}) {
  return (
    <button
      type="button"
      aria-expanded={open}
      onClick={onToggle}
      className="inline-flex items-center gap-1.5 text-muted-foreground text-xs hover:text-foreground"
      data-testid={testId}
    >
      <Icon className="size-3.5" aria-hidden="true" />
      {label}
      <ChevronDownIcon
        className={`size-3.5 transition-transform ${open ? 'rotate-180' : ''}`}
        aria-hidden="true"
      />
    </button>
  );
}

/** The card's foot: the run history and — for flows whose documents arrive by themselves — the intake log. */
export function FlowDisclosures({ flowId, showsIntake }: { flowId: string; showsIntake: boolean }) {
  const [historyOpen, setHistoryOpen] = useState(false);
  const [intakeOpen, setIntakeOpen] = useState(false);
  return (
    <div className="border-t pt-3">
      <div className="flex flex-wrap items-center gap-4">
        <DisclosureToggle
          icon={HistoryIcon}
          label="Run history"
          open={historyOpen}
          onToggle={() => setHistoryOpen((open) => !open)}
        />
        {showsIntake && (
          <DisclosureToggle
            icon={ListChecksIcon}
            label="Intake log"
            open={intakeOpen}
            onToggle={() => setIntakeOpen((open) => !open)}
            testId="intake-toggle"
          />
        )}
      </div>
      {historyOpen && (
        <div className="mt-3">
          <RunHistory flowId={flowId} />
        </div>
      )}
      {showsIntake && intakeOpen && (
        <div className="mt-3">
          <IntakeLog flowId={flowId} />
        </div>
      )}
    </div>
  );
}
