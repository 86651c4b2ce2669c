import { Loader2Icon } from 'lucide-react';
import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import type { Flow } from './flows-api.ts';
import { useDeleteFlow } from './queries.ts';

/** Confirmation before a flow (and its documents and rows) is deleted. */
export function DeleteFlowDialog({ flow, onClose }: { flow: Flow | null; onClose: () => void }) {
  const remove = useDeleteFlow();
  async function handleDelete() {
    if (!flow) return;
    try {
      await remove.mutateAsync(flow.id);
      toast.success(`Deleted ${flow.name}`);
      onClose();
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not delete the flow');
    }
  }
  return (
    <Dialog open={flow !== null} onOpenChange={(open) => !open && onClose()}>
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Delete {flow?.name}?</DialogTitle>
          <DialogDescription>
            The flow, its run history, its inbox and its workbook rows are removed. Files in your own folders
            are not touched. This cannot be undone.
          </DialogDescription>
        </DialogHeader>
        <DialogFooter>
          <Button variant="outline" onClick={onClose}>
            Cancel
          </Button>
          <Button variant="destructive" onClick={() => void handleDelete()} disabled={remove.isPending}>
            {remove.isPending && <Loader2Icon className="animate-spin" aria-hidden="true" />}
            Delete flow
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
