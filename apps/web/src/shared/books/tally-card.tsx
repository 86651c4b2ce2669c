import type { TallyConnection } from '@bahi/contracts';
import { CalculatorIcon } from 'lucide-react';
import { type FormEvent, useEffect, useState } from 'react';
import { LabelledInput } from '@/components/labelled-input.tsx';
import { Card, CardContent } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { buildApiPath } from '@/lib/endpoint.ts';
import { apiLinks } from '@/lib/endpoints.ts';
import { usePermission } from '@/lib/permissions.ts';
import { useSaveTally, useTallyConnection, useTestTally } from './books-api.ts';
import { BooksCardHeader } from './books-card-header.tsx';
import { BooksPushBadge } from './books-push-badge.tsx';
import { AutoPostCheckbox, ConnectionActions, retestConnection, saveAndTest } from './connection-actions.tsx';
import { TallyMapping } from './tally-mapping.tsx';

const when = (iso: string) =>
  new Date(iso).toLocaleString('en-IN', { dateStyle: 'medium', timeStyle: 'short' });

function ConnectionForm({ tally, canManage }: { tally: TallyConnection; canManage: boolean }) {
  const save = useSaveTally();
  const test = useTestTally();
  const [host, setHost] = useState(tally.host);
  const [port, setPort] = useState(String(tally.port));
  const [company, setCompany] = useState(tally.company);
  const [autoPost, setAutoPost] = useState(tally.autoPost);
  const [fieldError, setFieldError] = useState<string | null>(null);
  useEffect(() => {
    setHost(tally.host);
    setPort(String(tally.port));
    setCompany(tally.company);
    setAutoPost(tally.autoPost);
  }, [tally.host, tally.port, tally.company, tally.autoPost]);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    const saveTally = () =>
      save.mutateAsync({ host: host.trim(), port: Number(port), company: company.trim(), autoPost });
    const words = { connected: 'Tally connected', refused: 'Saved, but Tally did not answer' };
    setFieldError(await saveAndTest(saveTally, test, words));
  };
  const retest = () => retestConnection(test, 'Tally did not answer');
  const busy = save.isPending || test.isPending;
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate>
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-[1fr_7rem]">
        <LabelledInput
          id="tally-host"
          label="Computer running Tally"
          value={host}
          onChange={(e) => setHost(e.target.value)}
          disabled={!canManage}
          placeholder="localhost"
        />
        <LabelledInput
          id="tally-port"
          label="Port"
          inputMode="numeric"
          value={port}
          onChange={(e) => setPort(e.target.value)}
          disabled={!canManage}
        />
      </div>
      <LabelledInput
        id="tally-company"
        label="Company (exactly as Tally shows it)"
        value={company}
        onChange={(e) => setCompany(e.target.value)}
        disabled={!canManage}
      />
      <AutoPostCheckbox books="Tally" checked={autoPost} onChange={setAutoPost} disabled={!canManage} />
      <p className="text-muted-foreground text-xs">
        In Tally Prime: F1 › Settings › Connectivity, set "TallyPrime acts as" to Server and note the port
        (9000 unless changed).
      </p>
      <ConnectionActions
        error={fieldError}
        canManage={canManage}
        configured={tally.configured}
        busy={busy}
        onRetest={retest}
      />
    </form>
  );
}

/** The offline path: one month's approved invoices as Tally's import file. */
function OfflineDownload() {
  const [month, setMonth] = useState(() => new Date().toISOString().slice(0, 7));
  return (
    <div className="flex flex-wrap items-center gap-2">
      <label htmlFor="tally-month" className="text-muted-foreground">
        Import file for
      </label>
      <Input
        id="tally-month"
        type="month"
        value={month}
        onChange={(e) => setMonth(e.target.value)}
        className="h-8 w-40"
      />
      <a
        className="text-primary hover:underline"
        href={
          /^\d{4}-\d{2}$/.test(month) ? buildApiPath(apiLinks.tallyXml, {}, { period: month }) : undefined
        }
      >
        Download XML
      </a>
    </div>
  );
}

function ConnectionState({ tally }: { tally: TallyConnection }) {
  return (
    <div className="flex flex-col gap-2 rounded-md border bg-muted/30 p-3 text-sm" data-testid="tally-state">
      {tally.lastTest ? (
        <p className={tally.lastTest.ok ? '' : 'text-destructive'}>
          Last test ({when(tally.lastTest.at)}): {tally.lastTest.message}
        </p>
      ) : (
        <p className="text-muted-foreground">Not tested yet.</p>
      )}
      <p className="text-muted-foreground">
        {tally.counts.posted} posted · {tally.counts.queued} on the way · {tally.counts.failed} failed
      </p>
      <OfflineDownload />
      {tally.lastPush && (
        <div className="flex flex-wrap items-center gap-2">
          <span>Last push: {tally.lastPush.fileName}</span>
          <BooksPushBadge push={tally.lastPush} />
          {tally.lastPush.error && <span className="text-destructive">{tally.lastPush.error}</span>}
        </div>
      )}
    </div>
  );
}

/** The Tally Prime card of the Integrations page: connection, its state, and the ledger mapping. */
export function TallyCard() {
  const tally = useTallyConnection();
  const canManage = usePermission('integrations.manage').allowed;
  if (tally.isPending) return <Skeleton className="h-56" />;
  if (tally.isError)
    return (
      <p role="alert" className="text-destructive text-sm">
        Couldn't load the Tally connection: {tally.error.message}
      </p>
    );
  const t = tally.data;
  const connected = t.configured && t.lastTest?.ok;
  return (
    <Card data-testid="tally-card">
      <BooksCardHeader
        icon={CalculatorIcon}
        title="Tally Prime"
        configured={t.configured}
        connected={Boolean(connected)}
        badgeTestId="tally-badge"
      >
        Post approved purchase invoices as vouchers, once each; a correction alters the same voucher.
      </BooksCardHeader>
      <CardContent className="flex flex-col gap-4">
        <ConnectionForm tally={t} canManage={canManage} />
        {t.configured && <ConnectionState tally={t} />}
        {t.configured && <TallyMapping canManage={canManage} />}
      </CardContent>
    </Card>
  );
}
