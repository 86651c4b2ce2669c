import {
  CheckCircle2Icon,
  FolderPlusIcon,
  InfoIcon,
  type LucideIcon,
  RefreshCwIcon,
  SheetIcon,
  UnplugIcon,
} from 'lucide-react';
import type * as React from 'react';
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
import type { GoogleStatus } from '@/shared/integrations/queries.ts';
import { SetupRow } from './google-setup-row.tsx';
import { useGoogleCard } from './use-google-card.ts';

/** Short scope names users can read ("drive.readonly", "spreadsheets"). */
function formatScope(scope: string): string {
  return scope.replace('https://www.googleapis.com/auth/', '');
}

type CardState = ReturnType<typeof useGoogleCard>;

/** Google Drive + Sheets card: real state, connect (popup), disconnect, refresh, folder and sheet set-up. */
export function GoogleCard({ google }: { google: GoogleStatus }) {
  const card = useGoogleCard();
  return (
    <Card data-testid="google-card">
      <GoogleCardHeader google={google} />
      <CardContent className="flex flex-col gap-3">
        {google.connected && <GoogleGrant google={google} card={card} />}
        <p
          className="flex gap-2 rounded-md bg-muted/60 px-3 py-2.5 text-muted-foreground text-sm"
          data-testid="google-note"
        >
          <InfoIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
          {/* min-w-0 + break-words: the note carries a long callback URL that would run out of the box on a phone. */}
          <span className="min-w-0 break-words">{google.note}</span>
        </p>
        {google.connected && <GoogleSetup google={google} card={card} />}
      </CardContent>
      {google.configured && <GoogleCardFooter connected={google.connected} card={card} />}
    </Card>
  );
}

/** Logo, title and the connected / disconnected / not configured badge. */
function GoogleCardHeader({ google }: { google: GoogleStatus }) {
  return (
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
  );
}

/** Who is connected, the scopes Google granted, and a reconnect prompt when some were refused. */
function GoogleGrant({ google, card }: { google: GoogleStatus; card: CardState }) {
  return (
    <>
      {google.email && (
        <p className="text-sm" data-testid="google-email">
          Connected as <span className="font-medium">{google.email}</span>
        </p>
      )}
      {google.scopes.length > 0 && (
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
      {google.missingScopes.length > 0 && (
        <div
          role="alert"
          className="flex flex-col gap-2 rounded-md border border-amber-300 bg-amber-50 px-3 py-2.5 text-amber-900 text-sm sm:flex-row sm:items-center sm:justify-between"
        >
          <span>
            Google did not grant {google.missingScopes.map(formatScope).join(', ')}. Reconnect and allow every
            permission so flows can read Drive and write Sheets.
          </span>
          <Button size="sm" variant="outline" onClick={() => void card.connect()} disabled={card.connecting}>
            Reconnect
          </Button>
        </div>
      )}
    </>
  );
}

/** The parent folder and vendor master sheet a connected account uses. */
function GoogleSetup({ google, card }: { google: GoogleStatus; card: CardState }) {
  return (
    <div className="grid gap-3">
      <SetupRow
        label="Parent folder"
        hint="Where Bahi keeps its Drive files. Paste a folder link or create a new folder."
        item={google.parentFolder}
        placeholder="https://drive.google.com/drive/folders/…"
        createLabel="Create folder"
        icon={<FolderPlusIcon className="size-4" aria-hidden="true" />}
        onSubmit={card.setupFolder}
        pending={card.actions.folder.isPending}
      />
      <SetupRow
        label="Vendor master sheet"
        hint="The spreadsheet of your vendors. Paste a Sheets link or create a new one."
        item={google.vendorSheet}
        placeholder="https://docs.google.com/spreadsheets/d/…"
        createLabel="Create sheet"
        icon={<SheetIcon className="size-4" aria-hidden="true" />}
        onSubmit={card.setupSheet}
        pending={card.actions.vendorSheet.isPending}
      />
    </div>
  );
}

/** Refresh and Disconnect when connected; Connect Google otherwise. */
function GoogleCardFooter({ connected, card }: { connected: boolean; card: CardState }) {
  const { actions } = card;
  return (
    <CardFooter className="flex flex-wrap gap-2">
      {connected ? (
        <>
          <PendingButton onClick={card.verify} pending={actions.verify.isPending} icon={RefreshCwIcon}>
            Refresh
          </PendingButton>
          <PendingButton onClick={card.disconnect} pending={actions.disconnect.isPending} icon={UnplugIcon}>
            Disconnect
          </PendingButton>
        </>
      ) : (
        <Button onClick={() => void card.connect()} disabled={card.connecting}>
          {card.connecting ? <Spinner /> : null}
          Connect Google
        </Button>
      )}
    </CardFooter>
  );
}

/** An outline button whose icon turns into a spinner, and which holds, while its request runs. */
function PendingButton({
  onClick,
  pending,
  icon: Icon,
  children,
}: {
  onClick: () => void;
  pending: boolean;
  icon: LucideIcon;
  children: React.ReactNode;
}) {
  return (
    <Button variant="outline" onClick={onClick} disabled={pending}>
      {pending ? <Spinner /> : <Icon aria-hidden="true" />}
      {children}
    </Button>
  );
}
