import { type LucideIcon, MessageCircleIcon, MessagesSquareIcon } from 'lucide-react';
import { PageHeader } from '@/components/page-header.tsx';
import { Badge } from '@/components/ui/badge.tsx';
import {
  Card,
  CardAction,
  CardContent,
  CardDescription,
  CardHeader,
  CardTitle,
} from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { TallyCard } from '@/shared/books/tally-card.tsx';
import { ZohoCard } from '@/shared/books/zoho-card.tsx';
import { useGoogleStatus } from '@/shared/integrations/queries.ts';
import { GoogleCard } from './google-card.tsx';

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
];

/** `/integrations`: connected services and what is coming. */
export function IntegrationsPage() {
  useDocumentTitle('Integrations');
  const integrations = useGoogleStatus();
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
        <GoogleCard google={integrations.data} />
      )}
      <TallyCard />
      <ZohoCard />

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
