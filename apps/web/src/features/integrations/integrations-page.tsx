import type { GoogleIntegration } from '@bahi/contracts';
import {
  BookOpenCheckIcon,
  CalculatorIcon,
  CheckCircle2Icon,
  InfoIcon,
  type LucideIcon,
  MessageCircleIcon,
  MessagesSquareIcon,
} from 'lucide-react';
import { PageHeader } from '@/components/page-header.tsx';
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
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { Tooltip, TooltipContent, TooltipTrigger } from '@/components/ui/tooltip.tsx';
import { GoogleIcon } from '@/features/auth/google-icon.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { useIntegrations } from './queries.ts';

const upcoming: Array<{ name: string; category: string; description: string; icon: LucideIcon }> = [
  {
    name: 'Slack',
    category: 'Team chat',
    description: 'Post run summaries and failed documents to a channel.',
    icon: MessagesSquareIcon,
  },
  {
    name: 'WhatsApp Business',
    category: 'Messaging',
    description: 'Let vendors send invoices and get payment updates on WhatsApp.',
    icon: MessageCircleIcon,
  },
  {
    name: 'Tally Prime',
    category: 'Accounting',
    description: 'Push verified purchase vouchers straight into Tally.',
    icon: CalculatorIcon,
  },
  {
    name: 'Zoho Books',
    category: 'Accounting',
    description: 'Sync bills, vendors and payments with Zoho Books.',
    icon: BookOpenCheckIcon,
  },
];

/** Google Drive + Sheets card showing the server's real state. */
function GoogleCard({ google }: { google: GoogleIntegration }) {
  // The server has no "connect" endpoint yet, so the button only ever reflects state; it is
  // aria-disabled (not `disabled`) so it stays hoverable/focusable and its tooltip can explain why.
  const reason = google.configured
    ? 'Connecting Drive and Sheets is not available on this server yet.'
    : 'Google is not configured on this server. Set GOOGLE_CLIENT_ID and GOOGLE_CLIENT_SECRET.';
  return (
    <Card>
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
            <Badge variant="success">
              <CheckCircle2Icon aria-hidden="true" />
              Connected
            </Badge>
          ) : (
            <Badge variant="outline" className="text-muted-foreground">
              Disconnected
            </Badge>
          )}
        </CardAction>
      </CardHeader>
      <CardContent className="flex flex-col gap-3">
        {google.connected && google.email && (
          <p className="text-sm">
            Connected as <span className="font-medium">{google.email}</span>
          </p>
        )}
        {google.connected && google.scopes.length > 0 && (
          <div className="flex flex-wrap gap-1.5">
            {google.scopes.map((scope) => (
              <Badge key={scope} variant="secondary" className="font-mono text-[11px]">
                {scope.replace('https://www.googleapis.com/auth/', '')}
              </Badge>
            ))}
          </div>
        )}
        {google.note && (
          <p
            className="flex gap-2 rounded-md bg-muted/60 px-3 py-2.5 text-muted-foreground text-sm"
            data-testid="google-note"
          >
            <InfoIcon className="mt-0.5 size-4 shrink-0" aria-hidden="true" />
            <span>{google.note}</span>
          </p>
        )}
      </CardContent>
      <CardFooter>
        {google.connected ? (
          <Button variant="outline" disabled>
            <CheckCircle2Icon aria-hidden="true" />
            Connected
          </Button>
        ) : (
          <Tooltip>
            <TooltipTrigger asChild>
              <Button
                aria-disabled="true"
                className="cursor-not-allowed opacity-50 hover:bg-primary"
                onClick={(event) => event.preventDefault()}
              >
                Connect Google
              </Button>
            </TooltipTrigger>
            <TooltipContent side="right">{reason}</TooltipContent>
          </Tooltip>
        )}
      </CardFooter>
    </Card>
  );
}

/** `/integrations`: connected services and what is coming. */
export function IntegrationsPage() {
  useDocumentTitle('Integrations');
  const integrations = useIntegrations();
  return (
    <div className="flex flex-col gap-8">
      <PageHeader
        title="Integrations"
        description="Connect Bahi to the tools your finance team already uses."
      />
      {integrations.isPending ? (
        <Skeleton className="h-56" />
      ) : integrations.isError ? (
        <p
          role="alert"
          className="rounded-md border border-destructive/30 bg-destructive/5 px-4 py-3 text-destructive text-sm"
        >
          Couldn't load integrations: {integrations.error.message}
        </p>
      ) : (
        <GoogleCard google={integrations.data.google} />
      )}

      <section aria-labelledby="coming-soon-integrations">
        <div className="flex items-center gap-3">
          <h2 id="coming-soon-integrations" className="font-semibold text-lg tracking-tight">
            Coming Soon
          </h2>
        </div>
        <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2">
          {upcoming.map(({ name, category, description, icon: Icon }) => (
            <Card key={name} className="gap-3 py-5">
              <CardHeader className="px-5">
                <div className="flex items-center gap-3">
                  <span className="flex size-9 items-center justify-center rounded-lg bg-muted text-muted-foreground">
                    <Icon className="size-4" aria-hidden="true" />
                  </span>
                  <div>
                    <CardTitle className="text-base">{name}</CardTitle>
                    <CardDescription className="text-xs">{category}</CardDescription>
                  </div>
                </div>
                <CardAction>
                  <Badge variant="soon">Soon</Badge>
                </CardAction>
              </CardHeader>
              <CardContent className="px-5">
                <p className="text-muted-foreground text-sm">{description}</p>
              </CardContent>
            </Card>
          ))}
        </div>
      </section>
    </div>
  );
}
