import type { VendorFormView } from '@bahi/contracts';
import { useQuery } from '@tanstack/react-query';
import { useParams } from 'react-router';
import { BrandLogo } from '@/components/brand-logo.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Skeleton } from '@/components/ui/skeleton.tsx';
import { ApiError } from '@/lib/api.ts';
import { useDocumentTitle } from '@/lib/document-title.ts';
import { callEndpoint } from '@/lib/endpoint.ts';
import { api } from '@/lib/endpoints.ts';
import { MsmeSection } from './msme-section.tsx';
import { TaxSection } from './tax-section.tsx';
import { useVendorForm } from './use-vendor-form.ts';
import { BankSection, BusinessSection, ContactSection, DocumentsSection } from './vendor-form-sections.tsx';
import { InvoiceUpload, Plain } from './vendor-form-uploads.tsx';

/** Every problem at once above the send button, so a person on a phone sees what is left. */
function ErrorSummary({ errors }: { errors: Record<string, string> }) {
  const errorList = Object.values(errors);
  if (errorList.length === 0) return null;
  return (
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
  );
}

/** Whose form this is, what it is for, and what the finance team asked to change. */
function FormHeader({ view }: { view: VendorFormView }) {
  return (
    <header className="flex flex-col gap-2">
      <BrandLogo />
      <h1 className="font-semibold text-2xl tracking-tight">Vendor details for {view.organizationName}</h1>
      <p className="text-muted-foreground text-sm">
        Fill in your business, tax and bank details once; {view.organizationName}'s finance team checks them
        before paying you. No account needed. Fields marked * are required.
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
  );
}

/** The form itself, once the link opened. */
function VendorForm({ token, view }: { token: string; view: VendorFormView }) {
  const form = useVendorForm(token, view);
  if (form.sent)
    return (
      <Plain title="Thank you">
        <p>
          Your details went to {view.organizationName}'s finance team. They will contact you if anything needs
          changing.
        </p>
        {view.invoiceUpload && <InvoiceUpload token={token} />}
      </Plain>
    );
  return (
    <main className="min-h-svh bg-muted/40 px-3 py-6 sm:px-6">
      <form
        noValidate
        onSubmit={(e) => void form.submit(e)}
        className="mx-auto flex w-full max-w-2xl flex-col gap-6"
      >
        <FormHeader view={view} />
        <BusinessSection form={form} />
        <TaxSection form={form} />
        <MsmeSection form={form} />
        <BankSection form={form} />
        <ContactSection form={form} />
        <DocumentsSection token={token} form={form} />
        <ErrorSummary errors={form.errors} />
        <Button type="submit" size="lg" disabled={form.sending}>
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
