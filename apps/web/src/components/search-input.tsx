import { SearchIcon } from 'lucide-react';
import type * as React from 'react';
import { Input } from '@/components/ui/input.tsx';

/**
 * A list's search box: a magnifier inside the field. Its `aria-label` says what it searches, since a
 * placeholder alone is no label.
 */
export function SearchInput(props: React.ComponentProps<typeof Input> & { 'aria-label': string }) {
  return (
    <div className="relative">
      <SearchIcon
        className="-translate-y-1/2 absolute top-1/2 left-2.5 size-4 text-muted-foreground"
        aria-hidden="true"
      />
      <Input {...props} className="pl-8" />
    </div>
  );
}
