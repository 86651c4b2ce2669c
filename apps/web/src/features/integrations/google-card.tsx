import {
  CheckCircle2Icon,
  FolderPlusIcon,
  InfoIcon,
  RefreshCwIcon,
  SheetIcon,
  UnplugIcon,
} from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { GoogleIcon } from '@/components/google-icon.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardFooter,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { connectGoogle } from '@/shared/integrations/google-oauth.ts';
import { type GoogleStatus, useGoogleActions, useRefreshGoogleState } from '@/shared/integrations/queries.ts';
import { SetupRow } from './google-setup-row.tsx';

const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Short scope names users can read ("drive.readonly", "spreadsheets"). */
function formatScope(scope: string): string {
  return scope.replace('https://www.googleapis.com/auth/', '');
}

/** Google Drive + Sheets card: real state, connect (popup), disconnect, refresh, folder and sheet set-up. */
export function GoogleCard({ google }: { google: GoogleStatus }) {
  const actions = useGoogleActions();
  const refreshState = useRefreshGoogleState();
  const [connecting, setConnecting] = useState(false);

  const connect = async () => {
    setConnecting(true);
    try {
      await connectGoogle();
      toast.success('Google connected', {
        description: 'Flows can now read Drive folders and write Google Sheets.',
      });
    } catch (error) {
      toast.error('Connection failed', { description: errorText(error) });
    } finally {
      setConnecting(false);
      await refreshState();
    }
  };

  const disconnect = () =>
    actions.disconnect.mutate(undefined, {
      onSuccess: () =>
        toast.success('Google disconnected', {
          description: 'Access was revoked; the folder and sheet set-up was cleared.',
        }),
      onError: (error) => toast.error('Disconnect failed', { description: errorText(error) }),
    });

  const verify = () =>
    actions.verify.mutate(undefined, {
      onSuccess: (status) => toast.success('Connection verified', { description: status.email ?? undefined }),
      onError: (error) => toast.error('Connection check failed', { description: errorText(error) }),
    });

  const setupFolder = async (url: string | undefined) => {
    try {
      const item = await actions.folder.mutateAsync(url ? { url } : {});
      toast.success(item.created ? 'Folder created' : 'Folder linked', { description: item.name });
    } catch (error) {
      toast.error('Creation failed', { description: errorText(error) });
    }
  };

  const setupSheet = async (url: string | undefined) => {
    try {
      const item = await actions.vendorSheet.mutateAsync(url ? { url } : {});
      toast.success(item.created ? 'Sheet created' : 'Sheet linked', { description: item.name });
    } catch (error) {
      toast.error('Creation failed', { description: errorText(error) });
    }
  };

  return (
    <Card data-testid="google-card">
      <CardHeader>
        <div className="flex items-center gap-3">
          <span className="flex size-10 items-center justify-center rounded-lg border bg-card">
            <GoogleIcon className="size-5" />
          </span>
          <div>
            <CardTitle>Google Drive & Sheets</CardTitle>
            <CardDescription className="mt-1">
              Read documents from Drive folders and write rows to Sheets.
            </CardDescription>
          </div>
        </div>
        <CardAction>
          {google.connected ? (
            <Badge variant="success" data-testid="google-badge">
              <CheckCircle2Icon aria-hidden="true" />
              Connected
            </Badge>
          ) : (
            <Badge variant="outline" className="text-muted-foreground" data-testid="google-badge">
              {google.configured ? 'Disconnected' : 'Not configured'}
            </Badge>
          )}
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {google.connected && google.email && (
          <p className="text-sm" data-testid="google-email">
            Connected as <span className="font-medium">{google.email}</span>
          </p>
        )}
        {google.connected && google.scopes.length > 0 && (
          <ul className="flex flex-wrap gap-1.5" aria-label="Granted scopes">
            {google.scopes.map((scope) => (
              <li key={scope}>
                <Badge variant="secondary" className="font-mono text-[11px]">
                  {formatScope(scope)}
                </Badge>
              </li>
            ))}
          </ul>
        )}
        {google.connected && google.missingScopes.length > 0 && (
          <div
            role="alert"
            className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-amber-900 text-sm sm:flex-row sm:items-center sm:justify-between"
          >
            <span>
              Google did not grant {google.missingScopes.map(formatScope).join(', ')}. Reconnect and allow
              every permission so flows can read Drive and write Sheets.
            </span>
            <Button size="sm" variant="outline" onClick={() => void connect()} disabled={connecting}>
              Reconnect
            </Button>
          </div>
        )}
        <p
          className="flex gap-2 rounded-md bg-muted/60 px-3 py-2.5 text-muted-foreground text-sm"
          data-testid="google-note"
        >
          <InfoIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {/* min-w-0 + break-words: the note carries a long callback URL that would run out of the box on a phone. */}
          <span className="min-w-0 break-words">{google.note}</span>
        </p>
        {google.connected && (
          <div className="grid gap-3">
            <SetupRow
              label="Parent folder"
              hint="Where Bahi keeps its Drive files. Paste a folder link or create a new folder."
              item={google.parentFolder}
              placeholder="https://drive.google.com/drive/folders/…"
              createLabel="Create folder"
              icon={<FolderPlusIcon className="size-4" aria-hidden="true" />}
              onSubmit={setupFolder}
              pending={actions.folder.isPending}
            />
            <SetupRow
              label="Vendor master sheet"
              hint="The spreadsheet of your vendors. Paste a Sheets link or create a new one."
              item={google.vendorSheet}
              placeholder="https://docs.google.com/spreadsheets/d/…"
              createLabel="Create sheet"
              icon={<SheetIcon className="size-4" aria-hidden="true" />}
              onSubmit={setupSheet}
              pending={actions.vendorSheet.isPending}
            />
          </div>
        )}
      </CardContent>
      {google.configured && (
        <CardFooter className="flex flex-wrap gap-2">
          {google.connected ? (
            <>
              <Button variant="outline" onClick={verify} disabled={actions.verify.isPending}>
                {actions.verify.isPending ? <Spinner /> : <RefreshCwIcon aria-hidden="true" />}
                Refresh
              </Button>
              <Button variant="outline" onClick={disconnect} disabled={actions.disconnect.isPending}>
                {actions.disconnect.isPending ? <Spinner /> : <UnplugIcon aria-hidden="true" />}
                Disconnect
              </Button>
            </>
          ) : (
            <Button onClick={() => void connect()} disabled={connecting}>
              {connecting ? <Spinner /> : null}
              Connect Google
            </Button>
          )}
        </CardFooter>
      )}
    </Card>
  );
}
