import {
  MSME_ACTIVITIES,
  MSME_CATEGORIES,
  TDS_SECTION_LABELS,
  TDS_SECTION_NAMES,
  VENDOR_CONSTITUTIONS,
  VENDOR_DOCUMENT_LABELS,
  type VendorDocumentKind,
  type VendorFormView,
  type VendorLockableField,
} from '@bahi/contracts';
import { useQuery } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useParams } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { FormField } from '@/components/form-field.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Card, CardContent, CardDescription, CardHeader, CardTitle } from '@/components/ui/card.tsx';
import { Input } from '@/components/ui/input.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api.ts';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import {
  checkFormState,
  initialFormState,
  toRequestBody,
  type VendorFormState,
} from './vendor-form-state.ts';

const selectClass =
  'h-10 w-full rounded-md border border-input bg-transparent px-3 text-base shadow-xs focus-visible:outline-none focus-visible:ring-2 focus-visible:ring-ring md:text-sm';

/** A plain page for a link that does not work, or once the form is sent: nothing about the vendor. */
function Plain({ title, children }: { title: string; children: ReactNode }) {
  return (
    <main className="flex min-h-svh items-center justify-center bg-muted/40 p-4">
      <Card className="w-full max-w-md">
        <CardHeader className="gap-3">
          <BrandLogo />
          <CardTitle>
            <h1 className="text-xl">{title}</h1>
          </CardTitle>
        </CardHeader>
        <CardContent className="flex flex-col gap-3 text-sm">{children}</CardContent>
      </Card>
    </main>
  );
}

/** Posts one file as multipart; the answer's error in words when refused. */
async function postFile(url: string, field: string, files: File[]): Promise<string | null> {
  const body = new FormData();
  for (const file of files) body.append(field, file);
  const res = await fetch(url, { method: 'POST', body, credentials: 'same-origin' });
  if (res.ok) return null;
  const answer = (await res.json().catch(() => null)) as { error?: { message?: string } } | null;
  return answer?.error?.message ?? 'The file could not be sent; try again.';
}

/** The vendor's invoices, into the flow the finance team chose for the link. */
function InvoiceUpload({ token }: { token: string }) {
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const send = async (files: FileList | null) => {
    if (!files || files.length === 0) return;
    setBusy(true);
    const error = await postFile(`/api/vendor-form/${encodeURIComponent(token)}/invoices`, 'files', [
      ...files,
    ]);
    setBusy(false);
    setMessage(
      error ??
        `Sent ${files.length} invoice${files.length > 1 ? 's' : ''}. The finance team will review them.`,
    );
  };
  return (
    <section className="flex flex-col gap-2 border-t pt-4" aria-labelledby="invoices-title">
      <h2 id="invoices-title" className="font-medium">
        Send invoices
      </h2>
      <p className="text-muted-foreground text-sm">PDF or a photo of each invoice.</p>
      <input
        type="file"
        multiple
        accept="application/pdf,image/*"
        aria-label="Invoices to send"
        disabled={busy}
        onChange={(e) => void send(e.target.files)}
      />
      {message && (
        <p role="status" className="text-sm">
          {message}
        </p>
      )}
    </section>
  );
}

/** One attachment box: uploads as soon as a file is chosen. */
function Attachment({
  token,
  kind,
  attached,
  error,
  onAttached,
}: {
  token: string;
  kind: VendorDocumentKind;
  attached: string | undefined;
  error: string | undefined;
  onAttached: (kind: VendorDocumentKind, name: string | null, error: string | null) => void;
}) {
  const id = `doc-${kind}`;
  const send = async (file: File | undefined) => {
    if (!file) return;
    const problem = await postFile(
      `/api/vendor-form/${encodeURIComponent(token)}/documents/${kind}`,
      'file',
      [file],
    );
    onAttached(kind, problem ? null : file.name, problem);
  };
  return (
    <FormField
      id={id}
      label={VENDOR_DOCUMENT_LABELS[kind]}
      error={error}
      hint={attached ? `Attached: ${attached}` : 'PDF, JPEG or PNG, at most 5 MB'}
      required={kind === 'cancelled_cheque'}
    >
      {(ids) => (
        <input
          {...ids}
          type="file"
          accept="application/pdf,image/jpeg,image/png"
          className="text-sm"
          onChange={(e) => void send(e.target.files?.[0])}
        />
      )}
    </FormField>
  );
}

/** The form itself, once the link opened. */
function VendorForm({ token, view }: { token: string; view: VendorFormView }) {
  const [s, setS] = useState<VendorFormState>(() => initialFormState(view));
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [attached, setAttached] = useState<Record<string, string>>(
    Object.fromEntries(view.documents.map((d) => [d.kind, d.fileName])),
  );
  const [sending, setSending] = useState(false);
  const [sent, setSent] = useState(false);
  const locked = (field: VendorLockableField) => view.locked.includes(field);
  const set = <K extends keyof VendorFormState>(key: K, value: VendorFormState[K]) =>
    setS((p) => ({ ...p, [key]: value }));
  const text = (key: keyof VendorFormState, extra: { upper?: boolean } = {}) => ({
    value: s[key] as string,
    onChange: (e: React.ChangeEvent<HTMLInputElement>) =>
      set(key, (extra.upper ? e.target.value.toUpperCase() : e.target.value) as never),
  });
  const lockHint = `Filled in by ${view.organizationName}`;

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

  if (sent)
    return (
      <Plain title="Thank you">
        <p>
          Your details went to {view.organizationName}'s finance team. They will contact you if anything needs
          changing.
        </p>
        {view.invoiceUpload && <InvoiceUpload token={token} />}
      </Plain>
    );

  const errorList = Object.values(errors);
  return (
    <main className="min-h-svh bg-muted/40 px-3 py-6 sm:px-6">
      <form
        noValidate
        onSubmit={(e) => void submit(e)}
        className="mx-auto flex w-full max-w-2xl flex-col gap-6"
      >
        <header className="flex flex-col gap-2">
          <BrandLogo />
          <h1 className="font-semibold text-2xl tracking-tight">
            Vendor details for {view.organizationName}
          </h1>
          <p className="text-muted-foreground text-sm">
            Fill in your business, tax and bank details once; {view.organizationName}'s finance team checks
            them before paying you. No account needed. Fields marked * are required.
          </p>
          {view.changesRequested && (
            <p
              role="note"
              className="rounded-md border border-amber-300 bg-amber-50 p-3 text-sm dark:bg-amber-950/30"
            >
              The finance team asked you to change: {view.changesRequested}
            </p>
          )}
        </header>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Business</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <FormField
              id="legalName"
              label="Legal name (as on the PAN)"
              required
              error={errors.legalName}
              hint={locked('legalName') ? lockHint : undefined}
            >
              {(ids) => (
                <Input
                  {...ids}
                  autoComplete="organization"
                  readOnly={locked('legalName')}
                  {...text('legalName')}
                />
              )}
            </FormField>
            <FormField id="tradeName" label="Trade name" error={errors.tradeName}>
              {(ids) => <Input {...ids} readOnly={locked('tradeName')} {...text('tradeName')} />}
            </FormField>
            <FormField id="constitution" label="Constitution" required error={errors.constitution}>
              {(ids) => (
                <select
                  {...ids}
                  className={selectClass}
                  value={s.constitution}
                  onChange={(e) => set('constitution', e.target.value as never)}
                >
                  <option value="">Choose…</option>
                  {Object.entries(VENDOR_CONSTITUTIONS).map(([key, c]) => (
                    <option key={key} value={key}>
                      {c.label}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Tax registrations</h2>
            </CardTitle>
            <CardDescription>Your PAN, and each GSTIN registered under it.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <FormField
              id="pan"
              label="PAN"
              required
              error={errors.pan}
              hint={locked('pan') ? lockHint : 'Like ABCPE1234F'}
            >
              {(ids) => (
                <Input
                  {...ids}
                  autoCapitalize="characters"
                  readOnly={locked('pan')}
                  {...text('pan', { upper: true })}
                />
              )}
            </FormField>
            {s.gstins.map((g, i) => (
              <FormField
                // biome-ignore lint/suspicious/noArrayIndexKey: the boxes are positions in a list the person edits
                key={i}
                id={`gstin-${i}`}
                label={s.gstins.length > 1 ? `GSTIN ${i + 1}` : 'GSTIN'}
                error={errors[`gstins.${i}`]}
                hint={locked('gstins') ? lockHint : 'Leave empty if you are not registered for GST'}
              >
                {(ids) => (
                  <Input
                    {...ids}
                    autoCapitalize="characters"
                    readOnly={locked('gstins')}
                    value={g}
                    onChange={(e) =>
                      set(
                        'gstins',
                        s.gstins.map((x, j) => (j === i ? e.target.value.toUpperCase() : x)),
                      )
                    }
                  />
                )}
              </FormField>
            ))}
            {!locked('gstins') && (
              <Button
                type="button"
                variant="outline"
                className="self-start"
                onClick={() => set('gstins', [...s.gstins, ''])}
              >
                Add another GSTIN
              </Button>
            )}
            <FormField id="tdsSection" label="What you supply, for TDS" error={errors.tdsSection}>
              {(ids) => (
                <select
                  {...ids}
                  className={selectClass}
                  value={s.tdsSection}
                  onChange={(e) => set('tdsSection', e.target.value)}
                >
                  <option value="">Not sure: the finance team decides per invoice</option>
                  {TDS_SECTION_NAMES.map((n) => (
                    <option key={n} value={n}>
                      {n}: {TDS_SECTION_LABELS[n]}
                    </option>
                  ))}
                </select>
              )}
            </FormField>
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4"
                checked={s.hasLdc}
                onChange={(e) => set('hasLdc', e.target.checked)}
              />
              I have a lower deduction certificate (section 197)
            </label>
            {s.hasLdc && (
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                <FormField id="ldcNumber" label="Certificate number" required error={errors['ldc.number']}>
                  {(ids) => <Input {...ids} {...text('ldcNumber')} />}
                </FormField>
                <FormField id="ldcSection" label="Section" required error={errors['ldc.section']}>
                  {(ids) => (
                    <select
                      {...ids}
                      className={selectClass}
                      value={s.ldcSection}
                      onChange={(e) => set('ldcSection', e.target.value)}
                    >
                      <option value="">Choose…</option>
                      {TDS_SECTION_NAMES.map((n) => (
                        <option key={n} value={n}>
                          {n}
                        </option>
                      ))}
                    </select>
                  )}
                </FormField>
                <FormField id="ldcRate" label="Rate %" required error={errors['ldc.rate']}>
                  {(ids) => <Input {...ids} inputMode="decimal" {...text('ldcRate')} />}
                </FormField>
                <FormField
                  id="ldcLimit"
                  label="Amount covered (₹)"
                  required
                  error={errors['ldc.limitRupees']}
                >
                  {(ids) => <Input {...ids} inputMode="decimal" {...text('ldcLimit')} />}
                </FormField>
                <FormField id="ldcFrom" label="Valid from" required error={errors['ldc.from']}>
                  {(ids) => <Input {...ids} type="date" {...text('ldcFrom')} />}
                </FormField>
                <FormField id="ldcTo" label="Valid to" required error={errors['ldc.to']}>
                  {(ids) => <Input {...ids} type="date" {...text('ldcTo')} />}
                </FormField>
              </div>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>MSME (Udyam)</h2>
            </CardTitle>
            <CardDescription>Micro and small enterprises are paid within 45 days by law.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <label className="flex items-center gap-2 text-sm">
              <input
                type="checkbox"
                className="size-4"
                checked={s.msme}
                onChange={(e) => set('msme', e.target.checked)}
              />
              We are registered under Udyam
            </label>
            {s.msme && (
              <div className="grid grid-cols-1 gap-4 sm:grid-cols-2">
                <FormField
                  id="udyamNumber"
                  label="Udyam number"
                  required
                  error={errors['udyam.number']}
                  hint="Like UDYAM-MH-01-0012345"
                  className="sm:col-span-2"
                >
                  {(ids) => (
                    <Input {...ids} autoCapitalize="characters" {...text('udyamNumber', { upper: true })} />
                  )}
                </FormField>
                <FormField id="udyamCategory" label="Category" required error={errors['udyam.category']}>
                  {(ids) => (
                    <select
                      {...ids}
                      className={selectClass}
                      value={s.udyamCategory}
                      onChange={(e) => set('udyamCategory', e.target.value)}
                    >
                      <option value="">Choose…</option>
                      {MSME_CATEGORIES.map((c) => (
                        <option key={c} value={c}>
                          {c[0]!.toUpperCase() + c.slice(1)}
                        </option>
                      ))}
                    </select>
                  )}
                </FormField>
                <FormField id="udyamActivity" label="Activity" required error={errors['udyam.activity']}>
                  {(ids) => (
                    <select
                      {...ids}
                      className={selectClass}
                      value={s.udyamActivity}
                      onChange={(e) => set('udyamActivity', e.target.value)}
                    >
                      <option value="">Choose…</option>
                      {MSME_ACTIVITIES.map((c) => (
                        <option key={c} value={c}>
                          {c[0]!.toUpperCase() + c.slice(1)}
                        </option>
                      ))}
                    </select>
                  )}
                </FormField>
                <FormField
                  id="udyamYear"
                  label="For the financial year"
                  required
                  error={errors['udyam.financialYear']}
                >
                  {(ids) => <Input {...ids} {...text('udyamYear')} />}
                </FormField>
                <label className="flex items-center gap-2 text-sm sm:col-span-2">
                  <input
                    type="checkbox"
                    className="size-4"
                    checked={s.writtenAgreement}
                    onChange={(e) => set('writtenAgreement', e.target.checked)}
                  />
                  We have a written agreement on payment days with {view.organizationName}
                </label>
                {s.writtenAgreement && (
                  <FormField
                    id="agreedDays"
                    label="Days agreed in writing"
                    required
                    error={errors['udyam.agreedDays']}
                  >
                    {(ids) => <Input {...ids} inputMode="numeric" {...text('agreedDays')} />}
                  </FormField>
                )}
              </div>
            )}
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Bank account</h2>
            </CardTitle>
            <CardDescription>Payments go only to this account. Type the number twice.</CardDescription>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <FormField
              id="holderName"
              label="Account holder's name"
              required
              error={errors['bank.holderName']}
            >
              {(ids) => <Input {...ids} {...text('holderName')} />}
            </FormField>
            <FormField
              id="accountNumber"
              label="Account number"
              required
              error={errors['bank.accountNumber']}
            >
              {(ids) => <Input {...ids} inputMode="numeric" autoComplete="off" {...text('accountNumber')} />}
            </FormField>
            <FormField
              id="accountNumberConfirm"
              label="Account number again"
              required
              error={errors['bank.accountNumberConfirm']}
            >
              {(ids) => (
                <Input
                  {...ids}
                  inputMode="numeric"
                  autoComplete="off"
                  onPaste={(e) => e.preventDefault()}
                  {...text('accountNumberConfirm')}
                />
              )}
            </FormField>
            <FormField
              id="ifsc"
              label="IFSC"
              required
              error={errors['bank.ifsc']}
              hint="On the cheque, like HDFC0001234"
            >
              {(ids) => <Input {...ids} autoCapitalize="characters" {...text('ifsc', { upper: true })} />}
            </FormField>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Contact for payments</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            <FormField id="contactName" label="Name" required error={errors['contacts.0.name']}>
              {(ids) => <Input {...ids} autoComplete="name" {...text('contactName')} />}
            </FormField>
            <FormField id="contactPhone" label="Phone" error={errors['contacts.0.phone']}>
              {(ids) => <Input {...ids} type="tel" autoComplete="tel" {...text('contactPhone')} />}
            </FormField>
            <FormField id="contactEmail" label="E-mail" error={errors['contacts.0.email']}>
              {(ids) => <Input {...ids} type="email" autoComplete="email" {...text('contactEmail')} />}
            </FormField>
          </CardContent>
        </Card>

        <Card>
          <CardHeader>
            <CardTitle>
              <h2>Documents</h2>
            </CardTitle>
          </CardHeader>
          <CardContent className="flex flex-col gap-4">
            {(['cancelled_cheque', 'udyam_certificate', 'ldc_certificate'] as const).map((kind) => (
              <Attachment
                key={kind}
                token={token}
                kind={kind}
                attached={attached[kind]}
                error={
                  kind === 'cancelled_cheque'
                    ? (errors[`doc.${kind}`] ?? errors.documents)
                    : errors[`doc.${kind}`]
                }
                onAttached={(k, name, problem) => {
                  if (name) setAttached((p) => ({ ...p, [k]: name }));
                  setErrors((p) => {
                    const { [`doc.${k}`]: _gone, ...rest } = p;
                    return problem ? { ...rest, [`doc.${k}`]: problem } : rest;
                  });
                }}
              />
            ))}
          </CardContent>
        </Card>

        {errorList.length > 0 && (
          <div
            role="alert"
            className="rounded-md border border-destructive/40 bg-destructive/5 p-3 text-destructive text-sm"
          >
            <p className="font-medium">
              Please fix {errorList.length === 1 ? 'this' : `these ${errorList.length} things`}:
            </p>
            <ul className="mt-1 list-disc pl-5">
              {errorList.map((message) => (
                <li key={message}>{message}</li>
              ))}
            </ul>
          </div>
        )}
        <Button type="submit" size="lg" disabled={sending}>
          Send to {view.organizationName}
        </Button>
        {view.invoiceUpload && <InvoiceUpload token={token} />}
      </form>
    </main>
  );
}

/** `/vendor-form/:token`: the public vendor form. No account; a link that does not work shows a plain page. */
export function VendorFormPage() {
  useDocumentTitle('Vendor details');
  const { token = '' } = useParams();
  const view = useQuery({
    queryKey: ['vendor-form', token],
    queryFn: ({ signal }) => callEndpoint(api.vendorForm, { params: { token }, signal }),
    retry: false,
    refetchOnWindowFocus: false,
  });
  if (view.isPending)
    return (
      <main className="mx-auto max-w-2xl p-6">
        <Skeleton className="h-64 w-full" />
      </main>
    );
  if (view.isError) {
    const gone = view.error instanceof ApiError && view.error.code === 'gone';
    return (
      <Plain title={gone ? 'This link no longer works' : 'This link does not work'}>
        <p role="alert">{view.error.message}</p>
      </Plain>
    );
  }
  if (view.data.state === 'submitted')
    return (
      <Plain title="Details already sent">
        <p>This form was sent. The finance team will reopen it if anything needs changing.</p>
        {view.data.invoiceUpload && <InvoiceUpload token={token} />}
      </Plain>
    );
  return <VendorForm token={token} view={view.data} />;
}
