import type { DocumentPage } from '@bahi/contracts';
import { type RefObject, useEffect, useLayoutEffect, useRef, useState } from 'react';
import { cn } from '@/lib/utils.ts';
import { PageToolbar } from './page-toolbar.tsx';
import { getPageImageUrl } from './review-api.ts';
import type { FieldBox } from './review-fields.ts';

/** The frame's inner width in pixels, kept up to date as the frame resizes. */
function useFrameWidth(frameRef: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useLayoutEffect(() => {
    const el = frameRef.current;
    if (!el) return;
    const measure = () => setWidth(el.clientWidth);
    measure();
    const observer = new ResizeObserver(measure);
    observer.observe(el);
    return () => observer.disconnect();
  }, [frameRef]);
  return width;
}

/** The field's box over the page (in percent of the page, so it scales with the picture), with its label. */
function FieldBoxOverlay({
  box,
  label,
  page,
  boxRef,
}: {
  box: FieldBox;
  label: string | null;
  page: DocumentPage;
  boxRef: RefObject<HTMLDivElement | null>;
}) {
  return (
    <div
      ref={boxRef}
      data-testid="field-box"
      aria-hidden="true"
      className="pointer-events-none absolute rounded-[2px] border-2 border-primary bg-primary/15 shadow-[0_0_0_3px_rgba(255,255,255,0.7)]"
      style={{
        left: `${(box.bbox[0] / page.width) * 100}%`,
        top: `${(box.bbox[1] / page.height) * 100}%`,
        width: `${((box.bbox[2] - box.bbox[0]) / page.width) * 100}%`,
        height: `${((box.bbox[3] - box.bbox[1]) / page.height) * 100}%`,
      }}
    >
      {label && (
        <span className="-top-5 absolute left-0 whitespace-nowrap rounded bg-primary px-1 text-[10px] text-primary-foreground leading-4">
          {label}
        </span>
      )}
    </div>
  );
}

/** No page to show: why, and a link to the file itself. */
function NoPages({ error, fileUrl }: { error: string | null; fileUrl: string }) {
  return (
    <div className="flex min-h-48 flex-col items-center justify-center gap-2 rounded-lg border border-dashed p-6 text-center text-muted-foreground text-sm">
      <p>{error ?? 'This document has no pages to show.'}</p>
      <a href={fileUrl} target="_blank" rel="noreferrer" className="text-primary hover:underline">
        Open the file
      </a>
    </div>
  );
}

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
  const width = useFrameWidth(frameRef);
  const [zoom, setZoom] = useState<number>(1);
  const [loaded, setLoaded] = useState<string | null>(null);

  const current = pages[page - 1];
  // Boxes name the file's page (`number`): one document of a batch starts further into its file.
  const shown = box && current && box.page === current.number ? box : null;
  // The box comes into view when it changes (a field far down a long page).
  useEffect(() => {
    if (shown) boxRef.current?.scrollIntoView({ block: 'nearest', inline: 'nearest' });
  }, [shown]);

  // No page to show: say why. With pages, the sentence is a note (only the first pages of a long file).
  if (pages.length === 0) return <NoPages error={error} fileUrl={fileUrl} />;

  const imageWidth = Math.max(200, Math.round((width - 2) * zoom));
  const ratio = typeof window === 'undefined' ? 1 : window.devicePixelRatio || 1;
  const src = current ? getPageImageUrl(current.imageUrl, imageWidth * ratio) : '';

  return (
    <section aria-label="Document pages" className="flex min-w-0 flex-col gap-2">
      {error && <p className="text-muted-foreground text-xs">{error}</p>}
      <PageToolbar
        page={page}
        pageCount={pages.length}
        onPageChange={onPageChange}
        zoom={zoom}
        onZoomChange={setZoom}
      />
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
            {shown && <FieldBoxOverlay box={shown} label={boxLabel} page={current} boxRef={boxRef} />}
          </div>
        )}
      </section>
    </section>
  );
}
