import { ChevronLeftIcon, ChevronRightIcon, MaximizeIcon, ZoomInIcon, ZoomOutIcon } from 'lucide-react';
import type * as React from 'react';
import { Button } from '@/components/ui/button.tsx';

/** The zoom steps of the page viewer, 1 being the frame's width. */
export const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;

/** One small icon button of the toolbar. */
function ToolButton({
  label,
  disabled,
  onClick,
  children,
}: {
  label: string;
  disabled: boolean;
  onClick: () => void;
  children: React.ReactNode;
}) {
  return (
    <Button
      size="icon"
      variant="ghost"
      className="size-8"
      aria-label={label}
      disabled={disabled}
      onClick={onClick}
    >
      {children}
    </Button>
  );
}

/** Previous / next page, the page count, and zoom out / in / fit to width. */
export function PageToolbar({
  page,
  pageCount,
  onPageChange,
  zoom,
  onZoomChange,
}: {
  page: number;
  pageCount: number;
  onPageChange: (page: number) => void;
  zoom: number;
  onZoomChange: (zoom: number) => void;
}) {
  const zoomAt = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number]);
  return (
    <div className="flex flex-wrap items-center gap-1" role="toolbar" aria-label="Page controls">
      <ToolButton label="Previous page" disabled={page <= 1} onClick={() => onPageChange(page - 1)}>
        <ChevronLeftIcon aria-hidden="true" />
      </ToolButton>
      <span className="min-w-24 text-center text-muted-foreground text-sm tabular-nums" aria-live="polite">
        Page {page} of {pageCount}
      </span>
      <ToolButton label="Next page" disabled={page >= pageCount} onClick={() => onPageChange(page + 1)}>
        <ChevronRightIcon aria-hidden="true" />
      </ToolButton>
      <span className="mx-1 h-5 w-px bg-border" aria-hidden="true" />
      <ToolButton
        label="Zoom out"
        disabled={zoomAt <= 0}
        onClick={() => onZoomChange(ZOOMS[Math.max(0, zoomAt - 1)]!)}
      >
        <ZoomOutIcon aria-hidden="true" />
      </ToolButton>
      <span className="w-12 text-center text-muted-foreground text-sm tabular-nums">
        {Math.round(zoom * 100)}%
      </span>
      <ToolButton
        label="Zoom in"
        disabled={zoomAt >= ZOOMS.length - 1}
        onClick={() => onZoomChange(ZOOMS[Math.min(ZOOMS.length - 1, zoomAt + 1)]!)}
      >
        <ZoomInIcon aria-hidden="true" />
      </ToolButton>
      <ToolButton label="Fit to width" disabled={zoom === 1} onClick={() => onZoomChange(1)}>
        <MaximizeIcon aria-hidden="true" />
      </ToolButton>
    </div>
  );
}
