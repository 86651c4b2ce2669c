import { LogOutIcon } from 'lucide-react';
import { useId, useState } from 'react';
import { toast } from 'sonner';
import { Badge } from '@/components/ui/badge.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { formatPaise, usePermission } from '@/lib/permissions.ts';
import { useEndSession, useMySessions, useSetApprovalLimit } from './queries.ts';

import { errorText, formatDate } from './team-format.ts';

/** The approval limit: invoices above it need an approver or owner, never the person who corrected them. */
export function ApprovalLimitCard({ limitPaise }: { limitPaise: number }) {
  const settings = usePermission('settings.manage');
  const save = useSetApprovalLimit();
  const [rupees, setRupees] = useState(String(limitPaise / 100));
  const id = useId();
  const submit = (event: React.FormEvent) => {
    event.preventDefault();
    const value = Number(rupees.replaceAll(',', ''));
    if (!Number.isFinite(value) || value < 0) return toast.error('Enter the limit in rupees, like 100000');
    save.mutate(Math.round(value * 100), {
      onSuccess: () => toast.success(`Approval limit set to ${formatPaise(Math.round(value * 100))}`),
      onError: (error) => toast.error(errorText(error, 'Could not save the limit')),
    });
  };
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Approval limit
        </CardTitle>
        <CardDescription>
          Invoices above {formatPaise(limitPaise)} need an approver or owner, and never the person who
          corrected their amounts.
        </CardDescription>
      </CardHeader>
      <CardContent>
        <form onSubmit={submit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
          <div className="flex flex-col gap-1.5">
            <Label htmlFor={id}>Limit in rupees</Label>
            <Input
              id={id}
              inputMode="decimal"
              value={rupees}
              onChange={(e) => setRupees(e.target.value)}
              disabled={!settings.allowed}
              className="w-48"
            />
          </div>
          <Button type="submit" variant="outline" disabled={!settings.allowed || save.isPending}>
            Save limit
          </Button>
        </form>
        {settings.reason && <p className="mt-2 text-muted-foreground text-xs">{settings.reason}</p>}
      </CardContent>
    </Card>
  );
}

/** Where I am signed in, each with a way to sign it out. */
export function SessionsCard() {
  const sessions = useMySessions();
  const end = useEndSession();
  return (
    <Card>
      <CardHeader>
        <CardTitle role="heading" aria-level={2}>
          Your sessions
        </CardTitle>
        <CardDescription>Where you are signed in. Sign out a device you no longer use.</CardDescription>
      </CardHeader>
      <CardContent>
        {sessions.isPending ? (
          <Skeleton className="h-12" />
        ) : (
          <ul className="divide-y">
            {(sessions.data ?? []).map((s) => (
              <li
                key={s.id}
                className="flex flex-col gap-2 py-3 sm:flex-row sm:items-center sm:justify-between"
              >
                <div className="min-w-0">
                  <p className="truncate text-sm">
                    {describeAgent(s.userAgent)} {s.current && <Badge variant="secondary">This device</Badge>}
                  </p>
                  <p className="text-muted-foreground text-xs">
                    {s.ipAddress ?? 'Unknown address'} · signed in {formatDate(s.createdAt)} · last seen{' '}
                    {formatDate(s.lastSeenAt)}
                  </p>
                </div>
                {!s.current && (
                  <Button
                    variant="outline"
                    size="sm"
                    disabled={end.isPending}
                    onClick={() =>
                      end.mutate(s.id, {
                        onSuccess: () => toast.success('That session is signed out'),
                        onError: (error) => toast.error(errorText(error, 'Could not sign it out')),
                      })
                    }
                  >
                    <LogOutIcon aria-hidden="true" />
                    Sign out
                  </Button>
                )}
              </li>
            ))}
          </ul>
        )}
      </CardContent>
    </Card>
  );
}

/** A browser's user-agent string in a few words. */
function describeAgent(agent: string | null): string {
  if (!agent) return 'Unknown device';
  const browser = /Edg\//.test(agent)
    ? 'Edge'
    : /Chrome\//.test(agent)
      ? 'Chrome'
      : /Firefox\//.test(agent)
        ? 'Firefox'
        : /Safari\//.test(agent)
          ? 'Safari'
          : 'A browser';
  const system = /Android/.test(agent)
    ? 'Android'
    : /iPhone|iPad/.test(agent)
      ? 'iOS'
      : /Windows/.test(agent)
        ? 'Windows'
        : /Mac OS/.test(agent)
          ? 'macOS'
          : /Linux/.test(agent)
            ? 'Linux'
            : '';
  return system ? `${browser} on ${system}` : browser;
}
