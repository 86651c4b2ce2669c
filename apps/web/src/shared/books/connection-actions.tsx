import { PlugZapIcon } from 'lucide-react';
import { toast } from 'sonner';
import { CheckboxLabel } from '@/components/checkbox-label.tsx';
import { Spinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';

/**
 * The foot of a books connection form (Tally, Zoho Books): what went wrong in words, then "Save and test"
 * and, once a connection is saved, "Test connection" — for people who may manage integrations.
 */
export function ConnectionActions({
  error,
  canManage,
  configured,
  busy,
  onRetest,
}: {
  error: string | null;
  canManage: boolean;
  configured: boolean;
  busy: boolean;
  onRetest: () => void;
}) {
  return (
    <>
      {error && (
        <p role="alert" className="text-destructive text-sm">
          {error}
        </p>
      )}
      {canManage && (
        <div className="flex flex-wrap gap-2">
          <Button type="submit" disabled={busy}>
            {busy ? <Spinner /> : null}
            Save and test
          </Button>
          {configured && (
            <Button type="button" variant="outline" onClick={onRetest} disabled={busy}>
              <PlugZapIcon aria-hidden="true" />
              Test connection
            </Button>
          )}
        </div>
      )}
    </>
  );
}

/** A connection test's answer as TanStack's `mutate` hands it over. */
interface ConnectionTest {
  mutate: (
    input: undefined,
    handlers: { onSuccess: (r: { ok: boolean; message: string }) => void; onError: (e: Error) => void },
  ) => void;
}

/** "Test connection": its answer as a toast, in words ("Connection works", or `refused` and why). */
export function retestConnection(test: ConnectionTest, refused: string): void {
  test.mutate(undefined, {
    onSuccess: (r) =>
      r.ok
        ? toast.success('Connection works', { description: r.message })
        : toast.error(refused, { description: r.message }),
    onError: (e) => toast.error('Test failed', { description: e.message }),
  });
}

/** A connection test as TanStack's `mutateAsync` hands it over. */
interface ConnectionTestAsync {
  mutateAsync: () => Promise<{ ok: boolean; message: string }>;
}

/**
 * "Save and test": saves, then tests the saved connection and says the answer as a toast (`connected`,
 * or `refused` and why). Resolves to what went wrong in words for the form, or null.
 */
export async function saveAndTest(
  save: () => Promise<unknown>,
  test: ConnectionTestAsync,
  words: { connected: string; refused: string },
): Promise<string | null> {
  try {
    await save();
    const result = await test.mutateAsync();
    if (result.ok) toast.success(words.connected, { description: result.message });
    else toast.error(words.refused, { description: result.message });
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  }
}

/** "Post each invoice to … as soon as it is approved": the books connection's auto-post switch. */
export function AutoPostCheckbox({
  books,
  checked,
  onChange,
  disabled,
}: {
  books: string;
  checked: boolean;
  onChange: (checked: boolean) => void;
  disabled: boolean;
}) {
  return (
    <CheckboxLabel align="top" checked={checked} onChange={onChange} disabled={disabled}>
      <span>Post each invoice to {books} as soon as it is approved</span>
    </CheckboxLabel>
  );
}
