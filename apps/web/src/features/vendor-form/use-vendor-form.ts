import type { VendorFormView, VendorLockableField } from '@bahi/contracts';
import type * as React from 'react';
import { useState } from 'react';
import { ApiError } from '@/lib/api.ts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import {
  checkFormState,
  initialFormState,
  toRequestBody,
  type VendorFormState,
} from './vendor-form-state.ts';

/** The keys of the form state that hold a typed string (not a list or a tick). */
export type VendorTextKey = {
  [K in keyof VendorFormState]: VendorFormState[K] extends string ? K : never;
}[keyof VendorFormState];

/** The keys of the form state that hold a tick. */
export type VendorCheckKey = {
  [K in keyof VendorFormState]: VendorFormState[K] extends boolean ? K : never;
}[keyof VendorFormState];

/** What every section of the vendor form reads and writes; made by {@link useVendorForm}. */
export interface VendorFormModel {
  view: VendorFormView;
  s: VendorFormState;
  errors: Record<string, string>;
  attached: Record<string, string>;
  sending: boolean;
  sent: boolean;
  lockHint: string;
  locked: (field: VendorLockableField) => boolean;
  set: <K extends keyof VendorFormState>(key: K, value: VendorFormState[K]) => void;
  text: (
    key: VendorTextKey,
    extra?: { upper?: boolean },
  ) => { value: string; onChange: (e: React.ChangeEvent<HTMLInputElement>) => void };
  /** A document finished uploading (name) or was refused (problem). */
  onAttached: (kind: string, name: string | null, problem: string | null) => void;
  submit: (event: React.FormEvent) => Promise<void>;
}

/**
 * The vendor form's state: the boxes, the errors from the browser's own checks or the server's,
 * the documents already attached, and sending. Kept apart from the screen so each section stays small.
 */
export function useVendorForm(token: string, view: VendorFormView): VendorFormModel {
  const [s, setS] = useState<VendorFormState>(() => initialFormState(view));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attached, setAttached] = useState<Record<string, string>>(
    Object.fromEntries(view.documents.map((d) => [d.kind, d.fileName])),
  );
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const set = <K extends keyof VendorFormState>(key: K, value: VendorFormState[K]) =>
    setS((p) => ({ ...p, [key]: value }));

  const submit = async (event: React.FormEvent) => {
    event.preventDefault();
    const problems = checkFormState(s);
    if (!attached.cancelled_cheque) problems.documents = 'Attach a cancelled cheque (a photo or a PDF)';
    setErrors(problems);
    if (Object.keys(problems).length > 0) {
      document.querySelector<HTMLElement>('[aria-invalid="true"]')?.focus();
      return;
    }
    setSending(true);
    try {
      await callEndpoint(api.submitVendorForm, { params: { token }, body: toRequestBody(s) });
      setSent(true);
    } catch (error) {
      if (error instanceof ApiError && Object.keys(error.fields).length > 0) setErrors(error.fields);
      else
        setErrors({
          form: error instanceof Error ? error.message : 'The form could not be sent; try again.',
        });
    } finally {
      setSending(false);
    }
  };

  return {
    view,
    s,
    errors,
    attached,
    sending,
    sent,
    lockHint: `Filled in by ${view.organizationName}`,
    locked: (field) => view.locked.includes(field),
    set,
    text: (key, extra = {}) => ({
      value: s[key],
      onChange: (e) => set(key, (extra.upper ? e.target.value.toUpperCase() : e.target.value) as never),
    }),
    onAttached: (kind, name, problem) => {
      if (name) setAttached((p) => ({ ...p, [kind]: name }));
      setErrors((p) => {
        const { [`doc.${kind}`]: _gone, ...rest } = p;
        return problem ? { ...rest, [`doc.${kind}`]: problem } : rest;
      });
    },
    submit,
  };
}
