import type { InterestModule } from '@bahi/contracts';
import { BellRingIcon, CheckCircle2Icon, CheckIcon, CircleIcon, type LucideIcon } from 'lucide-react';
import type * as React from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { cn } from '@/lib/utils.ts';
import { ComingSoonHero, FeatureGrid } from './coming-soon-sections.tsx';
import { useInterest, useRegisterInterest } from './queries.ts';

/** One capability of a module: planned, or already working somewhere in the app. */
export interface PlannedFeature {
  icon: LucideIcon;
  title: string;
  description: string;
  /** Where it already works (and the page, when it is another); absent while it is only planned. */
  available?: { where: string; to?: string };
}

/** Everything a coming-soon page shows. */
export interface ComingSoonContent {
  module: InterestModule;
  icon: LucideIcon;
  eyebrow: string;
  title: string;
  description: string;
  features: PlannedFeature[];
  benefits: string[];
  /** The badge over the introduction when part of the module already works (else "Coming Soon"). */
  availableBadge?: string;
}

/**
 * The roadmap as it stands: what already works (and where), then what is planned. No dates: none has
 * been set for the planned parts, and a dated promise that passes unkept is worse than none.
 */
function RoadmapList({ features }: { features: PlannedFeature[] }) {
  const available = features.filter((f) => f.available);
  const planned = features.filter((f) => !f.available);
  return (
    <ol className="flex flex-col" data-testid="roadmap">
      {[...available, ...planned].map((feature, index, all) => (
        <li key={feature.title} className="relative flex gap-4 pb-5 last:pb-0">
          {index < all.length - 1 && (
            <span
              aria-hidden="true"
              className="absolute top-6 left-[11px] h-[calc(100%-1.5rem)] w-px bg-border"
            />
          )}
          <span
            className={cn(
              'relative z-10 flex size-6 shrink-0 items-center justify-center rounded-full bg-card',
              feature.available ? 'text-success' : 'text-muted-foreground',
            )}
          >
            {feature.available ? (
              <CheckCircle2Icon className="size-5" aria-hidden="true" />
            ) : (
              <CircleIcon className="size-5" aria-hidden="true" />
            )}
          </span>
          {/* The state under the title, on every width alike, so the list reads as one column. */}
          <div className="flex flex-1 flex-col items-start gap-1">
            <span className="font-medium text-sm">{feature.title}</span>
            <Badge variant={feature.available ? 'success' : 'outline'}>
              {feature.available ? 'Available now' : 'Planned · no date yet'}
            </Badge>
          </div>
        </li>
      ))}
    </ol>
  );
}

/** "Get Notified" button whose state comes from the server, so it survives reloads. */
function NotifyButton({ module }: { module: InterestModule }) {
  const interest = useInterest();
  const register = useRegisterInterest();
  if (interest.isPending) return <Skeleton className="h-10 w-40" />;
  const registered = interest.data?.modules.includes(module) ?? false;
  if (registered) {
    return (
      <Button
        size="lg"
        variant="outline"
        disabled
        className="border-success/40 text-success disabled:opacity-100"
      >
        <CheckIcon aria-hidden="true" />
        You're on the list
      </Button>
    );
  }
  return (
    <Button
      size="lg"
      disabled={register.isPending}
      onClick={() =>
        register.mutate(module, {
          onError: (error) => toast.error('Could not sign you up', { description: error.message }),
        })
      }
    >
      <BellRingIcon aria-hidden="true" />
      Get Notified
    </Button>
  );
}

/** Shared layout of the Vendor Management, Compliance and Working Capital previews. */
export function ComingSoonPage({
  content,
  children,
}: {
  content: ComingSoonContent;
  /** What of the module already works, shown under its introduction. */
  children?: React.ReactNode;
}) {
  useDocumentTitle(content.eyebrow);
  return (
    <div className="flex flex-col gap-8">
      <ComingSoonHero content={content} notify={<NotifyButton module={content.module} />} />

      {children}

      <FeatureGrid features={content.features} />

      <div className="grid grid-cols-1 gap-6 lg:grid-cols-2">
        <Card>
          <CardHeader>
            <CardTitle>Why it matters</CardTitle>
            <CardDescription>What your finance team gets</CardDescription>
          </CardHeader>
          <CardContent>
            <ul className="flex flex-col gap-3">
              {content.benefits.map((benefit) => (
                <li key={benefit} className="flex gap-3 text-sm">
                  <CheckCircle2Icon className="mt-0.5 size-4 shrink-0 text-success" aria-hidden="true" />
                  <span>{benefit}</span>
                </li>
              ))}
            </ul>
          </CardContent>
        </Card>
        <Card>
          <CardHeader>
            <CardTitle>Roadmap</CardTitle>
            <CardDescription>Where this module is today</CardDescription>
          </CardHeader>
          <CardContent>
            <RoadmapList features={content.features} />
          </CardContent>
        </Card>
      </div>
    </div>
  );
}
