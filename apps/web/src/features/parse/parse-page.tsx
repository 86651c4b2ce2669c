import { PlusIcon, WorkflowIcon } from 'lucide-react';
import { EmptyState } from '@/components/empty-state.tsx';
import { PageHeader } from '@/components/page-header.tsx';
import { Button } from '@/components/ui/button.tsx';

/**
 * `/parse`: placeholder until the processing-flows feature lands in this folder (another engineer
 * replaces this component). The button is disabled rather than wired to nothing.
 */
export function ParsePage() {
  return (
    <div className="flex flex-col gap-8">
      <PageHeader
        title="Document Processing"
        description="Turn purchase orders, GRNs and GST invoices into checked rows in your spreadsheet."
      />
      <EmptyState
        icon={WorkflowIcon}
        title="No processing flows yet"
        description="A flow watches a folder, extracts every field from each document, checks it against Indian GST rules and writes it to a sheet."
        action={
          <Button disabled title="Processing flows are being built">
            <PlusIcon aria-hidden="true" />
            Create First Flow
          </Button>
        }
      />
    </div>
  );
}
