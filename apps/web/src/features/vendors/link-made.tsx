import { SendVendorLinkMailInputSchema, type VendorLinkCreated } from '@bahi/contracts';
import { formatIndianDate } from '@bahi/india';
import { CopyIcon, MailIcon } from 'lucide-react';
import { useState } from 'react';
import { toast } from 'sonner';
import { FormField } from '@/components/form-field.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import { ApiError } from '@/lib/api.ts';
import { useSendVendorLinkMail } from './onboarding-queries.ts';

/** After the link is made: copy it, or send it to the vendor when outgoing mail is configured. */
export function LinkMade({ created, vendorName }: { created: VendorLinkCreated; vendorName: string }) {
  const send = useSendVendorLinkMail();
  const [to, setTo] = useState('');
  const [error, setError] = useState<string | undefined>();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(created.url);
      toast.success('Link copied');
    } catch {
      toast.error('Copy did not work: select the address and copy it');
    }
  };
  const mail = async () => {
    const checked = SendVendorLinkMailInputSchema.shape.to.safeParse(to);
    if (!checked.success) return setError(checked.error.issues[0]?.message);
    setError(undefined);
    try {
      await send.mutateAsync({
        id: created.link.id,
        body: { to: checked.data, token: created.url.split('/').at(-1) ?? '' },
      });
      setSentTo(checked.data);
      toast.success(`The link is on its way to ${checked.data}`);
    } catch (e) {
      if (e instanceof ApiError && e.fields.to) setError(e.fields.to);
      else toast.error(e instanceof Error ? e.message : 'Could not send the link');
    }
  };
  const until = formatIndianDate(created.link.expiresAt.slice(0, 10));
  return (
    <div className="flex flex-col gap-3">
      <label htmlFor="vendor-link-url" className="font-medium text-sm">
        Link for {vendorName} (shown once)
      </label>
      <Input id="vendor-link-url" readOnly value={created.url} onFocus={(e) => e.currentTarget.select()} />
      <p className="text-muted-foreground text-xs">Works until {until}, for one submission.</p>
      <Button variant={created.mailConfigured ? 'outline' : 'default'} onClick={() => void copy()}>
        <CopyIcon aria-hidden="true" />
        Copy link
      </Button>
      {created.mailConfigured ? (
        sentTo ? (
          <p className="rounded-md border bg-muted/40 p-3 text-sm" role="status">
            Sent to {sentTo}. The list of links says when it has left.
          </p>
        ) : (
          <div className="flex flex-col gap-2 border-t pt-3">
            <FormField id="vendor-link-mail" label="Vendor's e-mail address" error={error}>
              {(ids) => (
                <Input
                  {...ids}
                  type="email"
                  inputMode="email"
                  autoComplete="off"
                  value={to}
                  onChange={(e) => setTo(e.target.value)}
                  placeholder="accounts@vendor.in"
                />
              )}
            </FormField>
            <Button onClick={() => void mail()} disabled={send.isPending}>
              <MailIcon aria-hidden="true" />
              Send by e-mail
            </Button>
          </div>
        )
      ) : (
        <p className="text-muted-foreground text-sm" data-testid="no-mail-note">
          Bahi has no outgoing mail set up, so copy the link and send it to the vendor yourself. (An
          administrator can set SMTP_HOST and MAIL_FROM to send it from here.)
        </p>
      )}
    </div>
  );
}
