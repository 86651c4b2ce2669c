import { useState } from 'react';
import { GoogleIcon } from '@/components/google-icon.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Dialog,
  DialogContent,
  DialogDescription,
  DialogFooter,
  DialogHeader,
  DialogTitle,
} from '@/components/ui/dialog.tsx';
import { connectGoogle, GOOGLE_AUTH_REQUIRED_MESSAGE } from './google-oauth.ts';
import { useRefreshGoogleState } from './queries.ts';

/**
 * The authorisation dialog a flow opens when it first needs Google (or when a grant was revoked): connects
 * in the 600×600 popup; on success it closes and calls `onConnected` so the pending action (creating the
 * flow, its sheet, a run) continues. Errors stay in the dialog with the product's wording.
 */
export function GoogleAuthDialog({
  open,
  onOpenChange,
  onConnected,
}: {
  open: boolean;
  onOpenChange: (open: boolean) => void;
  onConnected: () => void;
}) {
  const [pending, setPending] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const refreshState = useRefreshGoogleState();

  const connect = async () => {
    setPending(true);
    setError(null);
    try {
      await connectGoogle();
      await refreshState();
      onOpenChange(false);
      onConnected();
    } catch (caught) {
      setError(caught instanceof Error ? caught.message : 'Authentication failed');
    } finally {
      setPending(false);
    }
  };

  return (
    <Dialog
      open={open}
      onOpenChange={(next) => {
        if (!next) setError(null);
        onOpenChange(next);
      }}
    >
      <DialogContent>
        <DialogHeader>
          <DialogTitle>Connect Google</DialogTitle>
          <DialogDescription>{GOOGLE_AUTH_REQUIRED_MESSAGE}</DialogDescription>
        </DialogHeader>
        <p className="text-muted-foreground text-sm">
          Bahi reads documents from the Drive folders you link and writes rows to the Google Sheets you
          choose. A Google window opens to ask for that access.
        </p>
        {error && (
          <p role="alert" className="rounded-md bg-destructive/5 px-3 py-2 text-destructive text-sm">
            {error}
          </p>
        )}
        <DialogFooter>
          <Button variant="outline" onClick={() => onOpenChange(false)} disabled={pending}>
            Cancel
          </Button>
          <Button onClick={() => void connect()} disabled={pending}>
            {pending ? <Spinner /> : <GoogleIcon className="size-4" />}
            Authorize Google
          </Button>
        </DialogFooter>
      </DialogContent>
    </Dialog>
  );
}
