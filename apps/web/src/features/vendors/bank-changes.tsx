import { toast } from 'sonner';
import { Button } from '@/components/ui/button.tsx';
import { usePermission } from '@/lib/permissions.ts';
import { useDecideBankChange, useVendorBankChanges } from './onboarding-queries.ts';

/** New bank accounts of active vendors, waiting for someone other than who asked. */
export function BankChanges() {
  const changes = useVendorBankChanges();
  const decide = useDecideBankChange();
  const may = usePermission('vendors.approve_bank_change');
  if (!changes.data || changes.data.length === 0) return null;
  const act = async (id: string, approve: boolean) => {
    try {
      await decide.mutateAsync({ id, approve });
      toast.success(
        approve ? 'New bank account approved; its invoices are released' : 'New bank account refused',
      );
    } catch (error) {
      toast.error(error instanceof Error ? error.message : 'Could not save the decision');
    }
  };
  return (
    <div className="flex flex-col gap-2">
      <h3 className="font-medium">Bank account changes waiting for a second person</h3>
      <ul className="flex flex-col gap-2">
        {changes.data.map((c) => (
          <li
            key={c.id}
            className="rounded-lg border border-destructive/40 bg-card p-4 text-sm"
            data-testid="bank-change"
          >
            <p className="font-medium">
              {c.vendorName} <span className="font-normal text-muted-foreground">PAN {c.pan}</span>
            </p>
            <p>
              From {c.before} to <strong>{c.after}</strong>
            </p>
            <p className="text-muted-foreground">
              Asked by {c.requestedBy}. Its invoices are on hold until someone else approves.
            </p>
            <div className="mt-2 flex flex-wrap gap-2">
              <Button
                size="sm"
                onClick={() => void act(c.id, true)}
                disabled={!may.allowed || decide.isPending}
                title={may.reason ?? undefined}
              >
                Approve new account
              </Button>
              <Button
                size="sm"
                variant="outline"
                onClick={() => void act(c.id, false)}
                disabled={!may.allowed || decide.isPending}
              >
                Refuse
              </Button>
            </div>
          </li>
        ))}
      </ul>
    </div>
  );
}
