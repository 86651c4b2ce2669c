import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/utils.ts';

/**
 * "21–40 of 57" with Previous and Next, under a list served a page at a time; nothing when it all fits
 * on one page. `onPage` gets the page to show (the lists keep it in the address).
 */
export function Pager({
  page,
  pageSize,
  total,
  onPage,
  className,
  ...rest
}: {
  page: number;
  pageSize: number;
  total: number;
  onPage: (page: number) => void;
  className?: string;
  'data-testid'?: string;
}) {
  if (total <= pageSize) return null;
  return (
    <div
      className={cn('flex items-center justify-end gap-2 text-sm', className)}
      data-testid={rest['data-testid']}
    >
      <span className="text-muted-foreground tabular-nums">
        {(page - 1) * pageSize + 1}–{Math.min(page * pageSize, total)} of {total}
      </span>
      <span className="flex gap-2">
        <Button variant="outline" size="sm" disabled={page <= 1} onClick={() => onPage(page - 1)}>
          Previous
        </Button>
        <Button
          variant="outline"
          size="sm"
          disabled={page * pageSize >= total}
          onClick={() => onPage(page + 1)}
        >
          Next
        </Button>
      </span>
    </div>
  );
}
