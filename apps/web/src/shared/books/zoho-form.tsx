import { ZOHO_REGIONS, type ZohoConnection } from '@bahi/contracts';
import { type FormEvent, useEffect, useState } from 'react';
import { LabelledField, LabelledInput } from '@/components/labelled-input.tsx';
import { useSaveZoho, useTestZoho } from './books-api.ts';
import { AutoPostCheckbox, ConnectionActions, retestConnection, saveAndTest } from './connection-actions.tsx';

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

/** The form's fields, following the saved connection when it changes; the write-only ones start empty. */
function useZohoFields(zoho: ZohoConnection) {
  const [organizationId, setOrganizationId] = useState(zoho.organizationId);
  const [region, setRegion] = useState(zoho.region);
  const [clientId, setClientId] = useState(zoho.clientId);
  const [clientSecret, setClientSecret] = useState('');
  const [refreshToken, setRefreshToken] = useState('');
  const [autoPost, setAutoPost] = useState(zoho.autoPost);
  useEffect(() => {
    setOrganizationId(zoho.organizationId);
    setRegion(zoho.region);
    setClientId(zoho.clientId);
    setAutoPost(zoho.autoPost);
  }, [zoho.organizationId, zoho.region, zoho.clientId, zoho.autoPost]);
  return {
    values: { organizationId, region, clientId, clientSecret, refreshToken, autoPost },
    set: { organizationId: setOrganizationId, region: setRegion, clientId: setClientId },
    setSecret: setClientSecret,
    setToken: setRefreshToken,
    setAutoPost,
  };
}

/** Saves and tests the connection; tests it again once saved. */
export function ZohoForm({ zoho, canManage }: { zoho: ZohoConnection; canManage: boolean }) {
  const save = useSaveZoho();
  const test = useTestZoho();
  const fields = useZohoFields(zoho);
  const { values: v } = fields;
  const [fieldError, setFieldError] = useState<string | null>(null);
  const kept = zoho.hasSecrets ? 'Stored — leave empty to keep' : '';

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setFieldError(null);
    const saveAndClearSecrets = async () => {
      await save.mutateAsync({
        organizationId: v.organizationId.trim(),
        region: v.region,
        clientId: v.clientId.trim(),
        ...(v.clientSecret.trim() ? { clientSecret: v.clientSecret.trim() } : {}),
        ...(v.refreshToken.trim() ? { refreshToken: v.refreshToken.trim() } : {}),
        autoPost: v.autoPost,
      });
      fields.setSecret('');
      fields.setToken('');
    };
    const words = { connected: 'Zoho Books connected', refused: 'Saved, but Zoho Books refused' };
    setFieldError(await saveAndTest(saveAndClearSecrets, test, words));
  };
  const retest = () => retestConnection(test, 'Zoho Books refused');
  const off = !canManage;
  const secret = { type: 'password', autoComplete: 'off', placeholder: kept, disabled: off } as const;
  return (
    <form onSubmit={submit} className="flex flex-col gap-3" noValidate data-testid="zoho-form">
      <div className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <LabelledInput
          id="zoho-org"
          label="Organisation ID"
          inputMode="numeric"
          value={v.organizationId}
          onChange={(e) => fields.set.organizationId(e.target.value)}
          disabled={off}
        />
        <LabelledField id="zoho-region" label="Data centre">
          <select
            id="zoho-region"
            className="h-9 rounded-md border bg-card px-2 text-sm"
            value={v.region}
            onChange={(e) => fields.set.region(e.target.value as ZohoConnection['region'])}
            disabled={off}
          >
            {ZOHO_REGIONS.map((r) => (
              <option key={r} value={r}>
                {REGION_LABELS[r]}
              </option>
            ))}
          </select>
        </LabelledField>
        <LabelledInput
          id="zoho-client"
          label="Client ID"
          value={v.clientId}
          onChange={(e) => fields.set.clientId(e.target.value)}
          disabled={off}
        />
        <LabelledInput
          id="zoho-secret"
          label="Client secret"
          {...secret}
          value={v.clientSecret}
          onChange={(e) => fields.setSecret(e.target.value)}
        />
      </div>
      <LabelledInput
        id="zoho-refresh"
        label="Refresh token"
        {...secret}
        value={v.refreshToken}
        onChange={(e) => fields.setToken(e.target.value)}
      />
      <AutoPostCheckbox
        books="Zoho Books"
        checked={v.autoPost}
        onChange={fields.setAutoPost}
        disabled={off}
      />
      <p className="text-muted-foreground text-xs">
        Create a self client in Zoho's API console for your data centre, generate a code with the scope
        ZohoBooks.fullaccess.all and exchange it for a refresh token. The organisation ID is in Zoho Books ›
        Settings › Organisation Profile. The secret and token are stored encrypted.
      </p>
      <ConnectionActions
        error={fieldError}
        canManage={canManage}
        configured={zoho.configured}
        busy={save.isPending || test.isPending}
        onRetest={retest}
      />
    </form>
  );
}
