import type * as React from 'react';
import { Link } from 'react-router';
import { Badge } from '@/components/ui/badge.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import type { ComingSoonContent, PlannedFeature } from './coming-soon-page.tsx';

/** The module's introduction: icon, availability badge, eyebrow, title, description and the notify button. */
export function ComingSoonHero({ content, notify }: { content: ComingSoonContent; notify: React.ReactNode }) {
  const Icon = content.icon;
  return (
    <section className="relative overflow-hidden rounded-2xl border bg-card px-6 py-10 sm:px-10">
      <div
        aria-hidden="true"
        className="pointer-events-none absolute -top-24 -right-24 size-72 rounded-full bg-primary/8 blur-2xl"
      />
      <div className="relative flex flex-col gap-6 md:flex-row md:items-center md:justify-between">
        <div className="max-w-2xl">
          <div className="flex items-center gap-3">
            <span className="flex size-11 items-center justify-center rounded-xl bg-primary text-primary-foreground">
              <Icon className="size-5" aria-hidden="true" />
            </span>
            {content.availableBadge ? (
              <Badge variant="success">{content.availableBadge}</Badge>
            ) : (
              <Badge variant="soon">Coming Soon</Badge>
            )}
          </div>
          <p className="mt-5 font-medium text-primary text-sm">{content.eyebrow}</p>
          <h1 className="mt-1 font-semibold text-3xl tracking-tight">{content.title}</h1>
          <p className="mt-3 text-base text-muted-foreground leading-relaxed">{content.description}</p>
        </div>
        <div className="shrink-0">{notify}</div>
      </div>
    </section>
  );
}

/** One capability as a card: planned, or available (with where, linked when it is another page). */
function FeatureCard({
  feature: { icon: FeatureIcon, title, description, available },
}: {
  feature: PlannedFeature;
}) {
  return (
    <Card className="gap-3 py-5">
      <CardHeader className="px-5">
        <div className="mb-2 flex items-center justify-between gap-2">
          <span className="flex size-9 items-center justify-center rounded-lg bg-accent text-accent-foreground">
            <FeatureIcon className="size-4" aria-hidden="true" />
          </span>
          {available ? <Badge variant="success">Available</Badge> : <Badge variant="outline">Planned</Badge>}
        </div>
        <CardTitle className="text-base">{title}</CardTitle>
      </CardHeader>
      <CardContent className="px-5">
        <p className="text-muted-foreground text-sm leading-relaxed">{description}</p>
        {available?.to ? (
          <Link to={available.to} className="mt-2 inline-block text-primary text-sm hover:underline">
            {available.where}
          </Link>
        ) : (
          available && <p className="mt-2 text-sm text-success">{available.where}</p>
        )}
      </CardContent>
    </Card>
  );
}

/** The module's capabilities as cards, under a heading that says whether any already works. */
export function FeatureGrid({ features }: { features: PlannedFeature[] }) {
  return (
    <section aria-labelledby="planned-features">
      <h2 id="planned-features" className="font-semibold text-lg tracking-tight">
        {features.some((f) => f.available) ? 'What works and what is planned' : 'Planned features'}
      </h2>
      <div className="mt-4 grid grid-cols-1 gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {features.map((feature) => (
          <FeatureCard key={feature.title} feature={feature} />
        ))}
      </div>
    </section>
  );
}
