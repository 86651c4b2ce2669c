import { CheckCircle2Icon, type LucideIcon } from 'lucide-react';
import type { ReactNode } from 'react';
import { Badge } from '@/components/ui/badge.tsx';
import { CardAction, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';

/**
 * The head of a books connection's card (Tally, Zoho Books): icon, name, what posting does, and whether the
 * connection answers ("Connected", "Not answering" after a failed test, "Not set up").
 */
export function BooksCardHeader({
  icon: Icon,
  title,
  children,
  configured,
  connected,
  badgeTestId,
}: {
  icon: LucideIcon;
  title: string;
  /** What posting to this package does, in a sentence. */
  children: ReactNode;
  configured: boolean;
  connected: boolean;
  badgeTestId: string;
}) {
  return (
    <CardHeader>
      <div className="flex items-center gap-3">
        <span className="flex size-10 shrink-0 items-center justify-center rounded-lg border bg-card">
          <Icon className="size-5" aria-hidden="true" />
        </span>
        <div>
          <CardTitle>{title}</CardTitle>
          <CardDescription className="mt-1">{children}</CardDescription>
        </div>
      </div>
      <CardAction>
        {connected ? (
          <Badge variant="success" data-testid={badgeTestId}>
            <CheckCircle2Icon aria-hidden="true" />
            Connected
          </Badge>
        ) : (
          <Badge variant="outline" className="text-muted-foreground" data-testid={badgeTestId}>
            {configured ? 'Not answering' : 'Not set up'}
          </Badge>
        )}
      </CardAction>
    </CardHeader>
  );
}
