import type { VendorDocumentKind } from '@bahi/contracts';
import { VENDOR_DOCUMENT_LABELS } from '@bahi/contracts';
import { type ReactNode, useState } from 'react';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { FormField } from '@/components/form-field.tsx';
import { Card, CardContent, CardHeader, CardTitle } from '@/components/ui/card.tsx';

/** A plain page for a link that does not work, or once the form is sent: nothing about the vendor. */
export function Plain({ title, children }: { title: string; children: ReactNode }) {
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
export function InvoiceUpload({ token }: { token: string }) {
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
export function Attachment({
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
