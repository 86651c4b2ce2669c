import { ExternalLinkIcon, LinkIcon } from 'lucide-react';
import { type FormEvent, useState } from 'react';
import { Spinner } from '@/components/spinner.tsx';
import { Button } from '@/components/ui/button.tsx';
import { Input } from '@/components/ui/input.tsx';
import type { LinkedItem } from '@/shared/integrations/queries.ts';

/** One set-up row: the chosen item, or a link field with "Use link" and "Create new". */
export function SetupRow({
  label,
  hint,
  item,
  placeholder,
  createLabel,
  icon,
  onSubmit,
  pending,
}: {
  label: string;
  hint: string;
  item: LinkedItem | null;
  placeholder: string;
  createLabel: string;
  icon: React.ReactNode;
  onSubmit: (url: string | undefined) => Promise<void>;
  pending: boolean;
}) {
  const [url, setUrl] = useState('');
  const id = `setup-${label.toLowerCase().replace(/\W+/g, '-')}`;
  const submit = async (event: FormEvent) => {
    event.preventDefault();
    await onSubmit(url.trim() || undefined);
    setUrl('');
  };
  return (
    <form onSubmit={submit} className="flex flex-col gap-2 rounded-md border p-3">
      <div className="flex items-center justify-between gap-3">
        <label htmlFor={id} className="flex items-center gap-2 font-medium text-sm">
          {icon}
          {label}
        </label>
        {item && (
          <a
            href={item.url}
            target="_blank"
            rel="noreferrer"
            className="flex items-center gap-1 text-primary text-sm hover:underline"
          >
            {item.name || item.id}
            <ExternalLinkIcon className="size-3.5" aria-hidden="true" />
          </a>
        )}
      </div>
      <p className="text-muted-foreground text-xs">{hint}</p>
      <div className="flex flex-col gap-2 sm:flex-row">
        <Input
          id={id}
          value={url}
          onChange={(e) => setUrl(e.target.value)}
          placeholder={placeholder}
          disabled={pending}
        />
        <div className="flex gap-2">
          <Button type="submit" variant="outline" disabled={pending || !url.trim()}>
            <LinkIcon aria-hidden="true" />
            Use link
          </Button>
          <Button
            type="button"
            variant="secondary"
            disabled={pending}
            onClick={() => void onSubmit(undefined)}
          >
            {pending ? <Spinner /> : null}
            {createLabel}
          </Button>
        </div>
      </div>
    </form>
  );
}
