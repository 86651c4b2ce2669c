import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { ApiError } from '@/lib/api.ts';
import { flowKeys } from '@/shared/flows/queries.ts';
import { isGoogleAuthRequired } from '@/shared/integrations/google-oauth.ts';
import { useRefreshGoogleState } from '@/shared/integrations/queries.ts';
import { mapServerFieldErrors, needsSheetCreation } from './flow-form.ts';
import { createFlowSheet, type Flow } from './flows-api.ts';

/* How the flow form's save goes wrong and what it does after: field messages, the Google spreadsheet. */

/** The field messages of a refused save: the server's, and a source error without a field path under the input. */
export function fieldErrorsOf(error: unknown): Record<string, string> {
  if (!(error instanceof ApiError)) return {};
  const mapped = mapServerFieldErrors(error.fields);
  if (
    Object.keys(mapped).length === 0 &&
    /drive|google|folder|path|root/i.test(`${error.code} ${error.message}`)
  )
    mapped.sourceLocation = error.message;
  return mapped;
}

/**
 * Creates a saved Google Sheets flow's spreadsheet (`POST /api/workflow/sheets/create`): the flow with it,
 * or null when it could not be made (a revoked grant asks to authorise again; anything else is said).
 */
async function createSpreadsheet(
  saved: Flow,
  sheetName: string,
  on: { onSaved: (flow: Flow) => void; onError: (message: string) => void; onAuthorize: () => void },
): Promise<Flow | null> {
  try {
    const sheet = await createFlowSheet(saved.id, sheetName);
    const withSheet = {
      ...saved,
      io: { ...saved.io, output: { ...saved.io.output, sheetId: sheet.sheetId } },
    };
    on.onSaved(withSheet);
    return withSheet;
  } catch (error) {
    if (isGoogleAuthRequired(error)) {
      on.onError('The flow is saved. Authorise Google to create its Google sheet.');
      on.onAuthorize();
    } else {
      const reason = error instanceof Error ? error.message : 'unknown error';
      on.onError(`The flow is saved, but its Google sheet could not be created: ${reason}`);
    }
    return null;
  }
}

/**
 * The save's second step for a Google Sheets flow without a spreadsheet: create it, then refresh the list.
 * `createIfNeeded` answers whether the save may finish (false: the reason is shown, or Google is asked).
 */
export function useSpreadsheetStep({
  setSavedFlow,
  setFormError,
  setAuthOpen,
}: {
  setSavedFlow: (flow: Flow) => void;
  setFormError: (message: string) => void;
  setAuthOpen: (open: boolean) => void;
}) {
  const queryClient = useQueryClient();
  const refreshGoogleState = useRefreshGoogleState();
  const [creating, setCreating] = useState(false);
  async function createIfNeeded(saved: Flow, sheetName: string): Promise<boolean> {
    if (!needsSheetCreation(saved)) return true;
    setCreating(true);
    const withSheet = await createSpreadsheet(saved, sheetName, {
      onSaved: setSavedFlow,
      onError: setFormError,
      onAuthorize: () => {
        // The server has just forgotten a revoked grant: show the disconnected state behind the dialog.
        void refreshGoogleState();
        setAuthOpen(true);
      },
    }).finally(() => setCreating(false));
    if (withSheet) void queryClient.invalidateQueries({ queryKey: flowKeys.list() });
    return withSheet !== null;
  }
  return { creating, createIfNeeded };
}
