import { useState } from 'react';
import { GoogleAuthDialog } from '@/shared/integrations/google-auth-dialog.tsx';
import { DocumentsPanel } from './documents-panel.tsx';
import { FlowCard } from './flow-card.tsx';
import type { Flow } from './flows-api.ts';
import { useFlowRun } from './use-flow-run.ts';

/**
 * One flow with its own run watcher. A run started elsewhere (another tab, before a reload) is
 * picked up from the run history so its progress shows too.
 */
export function FlowItem({
  flow,
  documentsOpen,
  onDocumentsOpenChange,
  onEdit,
  onDelete,
}: {
  flow: Flow;
  documentsOpen: boolean;
  onDocumentsOpenChange: (open: boolean) => void;
  onEdit: () => void;
  onDelete: () => void;
}) {
  const run = useFlowRun(flow);
  const [authOpen, setAuthOpen] = useState(false);

  return (
    <>
      <FlowCard
        flow={flow}
        progress={run.progress}
        running={run.running}
        starting={run.starting}
        onRun={() => void run.handleRun()}
        onEdit={onEdit}
        onDelete={onDelete}
        onOpenDocuments={() => onDocumentsOpenChange(true)}
        authRequired={run.authRequired}
        onAuthorize={() => setAuthOpen(true)}
        latestRun={run.latestRun}
      />
      <GoogleAuthDialog
        open={authOpen}
        onOpenChange={setAuthOpen}
        onConnected={() => {
          // The run the user wanted goes ahead once Google is authorised.
          run.setAuthRequired(false);
          void run.handleRun();
        }}
      />
      <DocumentsPanel
        flow={flow}
        open={documentsOpen}
        onOpenChange={onDocumentsOpenChange}
        onRunStarted={(runId) => run.setStartedRunId(runId)}
        onAuthRequired={() => run.setAuthRequired(true)}
        running={run.running}
      />
    </>
  );
}
