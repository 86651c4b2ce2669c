import type { DocumentPage } from '@bahi/contracts';
import { ChevronLeftIcon, ChevronRightIcon, MaximizeIcon, ZoomInIcon, ZoomOutIcon } from 'lucide-react';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { Button } from '@/components/ui/button.tsx';
import { cn } from '@/lib/utils.ts';
import { getPageImageUrl } from './review-api.ts';
import type { FieldBox } from './review-fields.ts';

const ZOOMS = [0.5, 0.75, 1, 1.25, 1.5, 2, 3] as const;

/**
 * The document's pages, one at a time, with zoom and page navigation; the box of the field being
 * looked at is drawn over the page (boxes are in the page's points, so they scale with the picture).
 */
export function PageViewer({
  pages,
  page,
  onPageChange,
  box,
  boxLabel,
  fileUrl,
  error,
}: {
  pages: DocumentPage[];
  page: number;
  onPageChange: (page: number) => void;
  box: FieldBox | null;
  boxLabel: string | null;
  fileUrl: string;
  error: string | null;
}) {
  const frameRef = useRef<HTMLElement>(null);
  const boxRef = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(0);
  const [zoom, setZoom] = useState<number>(1);
  const [loaded, setLoaded] = useState<string | null>(null);

  useLayoutEffect(() => {
    const el = frameRef.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, []);

  const current = pages[page - 1];
  // Boxes name the file's page (`number`): one document of a batch starts further into its file.
  const shown = box && current && box.page === current.number ? box : null;
  // The box comes into view when it changes (a field far down a long page).
  useEffect(() => {
    if (shown) boxRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [shown]);

  // No page to show: say why. With pages, the sentence is a note (only the first pages of a long file).
  if (pages.length === 0) {
    return (
      <div className="flex min-h-48 flex-col items-center justify-center gap-2 rounded-lg border border-dashed p-6 text-center text-muted-foreground text-sm">
        <p>{error ?? 'This document has no pages to show.'}</p>
        <a href={fileUrl} target="_blank" rel="noreferrer" className="text-primary hover:underline">
          Open the file
        </a>
      </div>
    );
  }

  const imageWidth = Math.max(200, Math.round((width - 2) * zoom));
  const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  const src = current ? getPageImageUrl(current.imageUrl, imageWidth * ratio) : '';
  const zoomAt = ZOOMS.indexOf(zoom as (typeof ZOOMS)[number]);

  return (
    <section aria-label="Document pages" className="flex min-w-0 flex-col gap-2">
      {error && <p className="text-muted-foreground text-xs">{error}</p>}
      <div className="flex flex-wrap items-center gap-1" role="toolbar" aria-label="Page controls">
        <Button
          size="icon"
          variant="ghost"
          className="size-8"
          aria-label="Previous page"
          disabled={page <= 1}
          onClick={() => onPageChange(page - 1)}
        >
          <ChevronLeftIcon aria-hidden="true" />
        </Button>
        <span className="min-w-24 text-center text-muted-foreground text-sm tabular-nums" aria-live="polite">
          Page {page} of {pages.length}
        </span>
        <Button
          size="icon"
          variant="ghost"
          className="size-8"
          aria-label="Next page"
          disabled={page >= pages.length}
          onClick={() => onPageChange(page + 1)}
        >
          <ChevronRightIcon aria-hidden="true" />
        </Button>
        <span className="mx-1 h-5 w-px bg-border" aria-hidden="true" />
        <Button
          size="icon"
          variant="ghost"
          className="size-8"
          aria-label="Zoom out"
          disabled={zoomAt <= 0}
          onClick={() => setZoom(ZOOMS[Math.max(0, zoomAt - 1)]!)}
        >
          <ZoomOutIcon aria-hidden="true" />
        </Button>
        <span className="w-12 text-center text-muted-foreground text-sm tabular-nums">
          {Math.round(zoom * 100)}%
        </span>
        <Button
          size="icon"
          variant="ghost"
          className="size-8"
          aria-label="Zoom in"
          disabled={zoomAt >= ZOOMS.length - 1}
          onClick={() => setZoom(ZOOMS[Math.min(ZOOMS.length - 1, zoomAt + 1)]!)}
        >
          <ZoomInIcon aria-hidden="true" />
        </Button>
        <Button
          size="icon"
          variant="ghost"
          className="size-8"
          aria-label="Fit to width"
          disabled={zoom === 1}
          onClick={() => setZoom(1)}
        >
          <MaximizeIcon aria-hidden="true" />
        </Button>
      </div>
      <section
        ref={frameRef}
        // biome-ignore lint/a11y/noNoninteractiveTabindex: a scroll container must be reachable by keyboard
        tabIndex={0}
        aria-label={`Page ${page}, scrollable`}
        className="max-h-[60vh] overflow-auto rounded-lg border bg-muted/40 outline-none focus-visible:ring-[3px] focus-visible:ring-ring/40 lg:max-h-[calc(100vh-12rem)]"
        data-testid="page-frame"
      >
        {current && width > 0 && (
          <div className="relative" style={{ width: imageWidth }}>
            <img
              key={src}
              src={src}
              alt={`Page ${page} of the document`}
              width={imageWidth}
              height={Math.round((imageWidth * current.height) / current.width)}
              onLoad={() => setLoaded(src)}
              className={cn('block h-auto w-full bg-white', loaded !== src && 'animate-pulse')}
              draggable={false}
            />
            {shown && (
              <div
                ref={boxRef}
                data-testid="field-box"
                aria-hidden="true"
                className="pointer-events-none absolute rounded-[2px] border-2 border-primary bg-primary/15 shadow-[0_0_0_3px_rgba(255,255,255,0.7)]"
                style={{
                  left: `${(shown.bbox[0] / current.width) * 100}%`,
                  top: `${(shown.bbox[1] / current.height) * 100}%`,
                  width: `${((shown.bbox[2] - shown.bbox[0]) / current.width) * 100}%`,
                  height: `${((shown.bbox[3] - shown.bbox[1]) / current.height) * 100}%`,
                }}
              >
                {boxLabel && (
                  <span className="-top-5 absolute left-0 whitespace-nowrap rounded bg-primary px-1 text-[10px] text-primary-foreground leading-4">
                    {boxLabel}
                  </span>
                )}
              </div>
            )}
          </div>
        )}
      </section>
    </section>
  );
}
