import { ZOHO_REGIONS, type ZohoConnection } from '@bahi/contracts';
import { type FormEvent, type ReactNode, useEffect, useState } from 'react';
import { toast } from 'sonner';
import { Input } from '@/components/ui/input.tsx';
import { Label } from '@/components/ui/label.tsx';
import { useSaveZoho, useTestZoho } from './books-api.ts';
import { ConnectionActions, retestConnection } from './connection-actions.tsx';

// The Zoho Books connection form: the organisation, the data centre and the OAuth client. The secret and
// the refresh token are write-only: the form never holds the stored ones, and empty keeps them.

const REGION_LABELS: Record<(typeof ZOHO_REGIONS)[number], string> = {
  in: 'India (zoho.in)',
  com: 'United States (zoho.com)',
  eu: 'Europe (zoho.eu)',
  'com.au': 'Australia (zoho.com.au)',
  jp: 'Japan (zoho.jp)',
  ca: 'Canada (zohocloud.ca)',
  sa: 'Saudi Arabia (zoho.sa)',
};
const errorText = (error: unknown) => (error instanceof Error ? error.message : String(error));

function Field({ id, label, children }: { id: string; label: string; children: ReactNode }) {
  return (
    <div className="flex min-w-0 flex-col gap-1.5">
      <Label htmlFor={id}>{label}</Label>
      {children}
    </div>
  );
}

/** Saves and tests the connection; tests it again once saved. */
export function ZohoForm({ zoho, canManage }: { zoho: ZohoConnection; canManage: boolean }) {
  const save = useSaveZoho();
  const test = useTestZoho();
  const [organizationId, setOrganizationId] = useState(zoho.organizationId);
  const [region, setRegion] = useState(zoho.region);
  const [clientId, setClientId] = useState(zoho.clientId);
  const [clientSecret, setClientSecret] = useState('');
  const [refreshToken, setRefreshToken] = useState('');
  const [autoPost, setAutoPost] = useState(zoho.autoPost);
  const [fieldError, setFieldError] = useState<string | null>(null);
  useEffect(() => {
    setOrganizationId(zoho.organizationId);
    setRegion(zoho.region);
    setClientId(zoho.clientId);
    setAutoPost(zoho.autoPost);
  }, [zoho.organizationId, zoho.region, zoho.clientId, zoho.autoPost]);
  const kept = zoho.hasSecrets ? 'Stored — leave empty to keep' : '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    try {
      await save.mutateAsync({
        organizationId: organizationId.trim(),
        region,
        clientId: clientId.trim(),
        ...(clientSecret.trim() ? { clientSecret: clientSecret.trim() } : {}),
        ...(refreshToken.trim() ? { refreshToken: refreshToken.trim() } : {}),
        autoPost,
      });
      setClientSecret('');
      setRefreshToken('');
      const result = await test.mutateAsync();
      if (result.ok) toast.success('Zoho Books connected', { description: result.message });
      else toast.error('Saved, but Zoho Books refused', { description: result.message });
    } catch (error) {
      setFieldError(errorText(error));
    }
  };
  const retest = () => retestConnection(test, 'Zoho Books refused');
  const busy = save.isPending || test.isPending;
  const off = !canManage;
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate data-testid="zoho-form">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <Field id="zoho-org" label="Organisation ID">
          <Input
            id="zoho-org"
            inputMode="numeric"
            value={organizationId}
            onChange={(e) => setOrganizationId(e.target.value)}
            disabled={off}
          />
        </Field>
        <Field id="zoho-region" label="Data centre">
          <select
            id="zoho-region"
            className="h-9 rounded-md border bg-card px-2 text-sm"
            value={region}
            onChange={(e) => setRegion(e.target.value as ZohoConnection['region'])}
            disabled={off}
          >
            {ZOHO_REGIONS.map((r) => (
              <option key={r} value={r}>
                {REGION_LABELS[r]}
              </option>
            ))}
          </select>
        </Field>
        <Field id="zoho-client" label="Client ID">
          <Input
            id="zoho-client"
            value={clientId}
            onChange={(e) => setClientId(e.target.value)}
            disabled={off}
          />
        </Field>
        <Field id="zoho-secret" label="Client secret">
          <Input
            id="zoho-secret"
            type="password"
            autoComplete="off"
            placeholder={kept}
            value={clientSecret}
            onChange={(e) => setClientSecret(e.target.value)}
            disabled={off}
          />
        </Field>
      </div>
      <Field id="zoho-refresh" label="Refresh token">
        <Input
          id="zoho-refresh"
          type="password"
          autoComplete="off"
          placeholder={kept}
          value={refreshToken}
          onChange={(e) => setRefreshToken(e.target.value)}
          disabled={off}
        />
      </Field>
      <label className="flex items-start gap-2 text-sm">
        <input
          type="checkbox"
          className="mt-0.5 size-4"
          checked={autoPost}
          onChange={(e) => setAutoPost(e.target.checked)}
          disabled={off}
        />
        <span>Post each invoice to Zoho Books as soon as it is approved</span>
      </label>
      <p className="text-muted-foreground text-xs">
        Create a self client in Zoho's API console for your data centre, generate a code with the scope
        ZohoBooks.fullaccess.all and exchange it for a refresh token. The organisation ID is in Zoho Books ›
        Settings › Organisation Profile. The secret and token are stored encrypted.
      </p>
      <ConnectionActions
        error={fieldError}
        canManage={canManage}
        configured={zoho.configured}
        busy={busy}
        onRetest={retest}
      />
    </form>
  );
}
