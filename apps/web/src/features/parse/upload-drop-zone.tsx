import { listDocumentFormats } from '@bahi/contracts';
import { CheckCircle2Icon, CircleSlashIcon, FileUpIcon, XCircleIcon } from 'lucide-react';
import { type DragEvent, useRef, useState } from 'react';
import { toast } from 'sonner';
import { Progress } from '@/components/ui/progress.tsx';
import { cn } from '@/lib/utils.ts';
import { formatBytes } from './flow-format.ts';
import { getUploadUrl } from './flows-api.ts';
import { computeProgressPercent } from './run-progress.ts';
import {
  ACCEPTED_UPLOAD_TYPES,
  describeUploadSummary,
  type UploadProgress,
  uploadAll,
} from './upload-files.ts';

/** One upload with an id for React's list. */
type UploadItemState = UploadProgress & { id: string };

/** The batch being uploaded, one progress per file; `start` refuses a new batch while one is going. */
function useUploads(flowId: string, onUploaded: () => void) {
  const [uploads, setUploads] = useState<UploadItemState[]>([]);
  const busy = uploads.some((u) => u.state === 'uploading' || u.state === 'waiting');

  async function start(files: File[]) {
    if (files.length === 0 || busy) return;
    const batch = Date.now();
    setUploads(
      files.map((f, i) => ({ id: `${batch}-${i}`, name: f.name, size: f.size, loaded: 0, state: 'waiting' })),
    );
    const summary = await uploadAll(getUploadUrl(flowId), files, (index, progress) =>
      setUploads((current) => current.map((u, i) => (i === index ? { ...progress, id: u.id } : u))),
    );
    onUploaded();
    const { tone, text } = describeUploadSummary(summary);
    toast[tone](text);
  }

  return { uploads, busy, start };
}

/** One file of the batch: name, size, its state, its progress bar, and what was skipped or renamed. */
function UploadItem({ upload: u }: { upload: UploadItemState }) {
  return (
    <li className="rounded-md border bg-card px-3 py-2 text-sm" data-testid="upload-item">
      <div className="flex items-center gap-2">
        <span className="min-w-0 flex-1 truncate">{u.name}</span>
        <span className="shrink-0 text-muted-foreground text-xs tabular-nums">{formatBytes(u.size)}</span>
        {u.state === 'done' && <CheckCircle2Icon className="size-4 text-success" aria-label="Added" />}
        {u.state === 'skipped' && (
          <CircleSlashIcon className="size-4 text-warning-foreground" aria-label="Not added" />
        )}
        {u.state === 'failed' && <XCircleIcon className="size-4 text-destructive" aria-label="Failed" />}
      </div>
      {u.state === 'failed' && <p className="mt-1 text-destructive text-xs">{u.error}</p>}
      {(u.state === 'waiting' || u.state === 'uploading') && (
        <Progress
          className="mt-2 h-1.5"
          value={computeProgressPercent(u.loaded, u.size)}
          aria-label={`Uploading ${u.name}`}
        />
      )}
      {u.state === 'done' && (u.added ?? 0) > 1 && (
        <p className="mt-1 text-muted-foreground text-xs">{u.added} documents added from this file</p>
      )}
      {(u.skipped?.length ?? 0) + (u.renamed?.length ?? 0) > 0 && (
        <ul className="mt-1 flex flex-col gap-0.5 text-xs">
          {u.skipped?.map((s) => (
            <li key={`skipped-${s.name}`} className="text-warning-foreground">
              {s.name === u.name ? 'Not added' : `${s.name}: not added`} — {s.reason}
            </li>
          ))}
          {u.renamed?.map((r) => (
            <li key={`renamed-${r.name}`} className="text-muted-foreground">
              Added as “{r.name}” — {r.reason}
            </li>
          ))}
        </ul>
      )}
    </li>
  );
}

/**
 * Drop zone of an upload flow: drag files or a .zip onto it, or click to choose. Each file uploads
 * with its own progress bar; `onUploaded` runs once the batch is in so the inbox list refreshes.
 */
export function UploadDropZone({ flowId, onUploaded }: { flowId: string; onUploaded: () => void }) {
  const inputRef = useRef<HTMLInputElement>(null);
  const [dragging, setDragging] = useState(false);
  const { uploads, busy, start } = useUploads(flowId, onUploaded);

  function handleDrop(event: DragEvent<HTMLElement>) {
    event.preventDefault();
    setDragging(false);
    void start(Array.from(event.dataTransfer.files));
  }

  return (
    <div className="flex flex-col gap-3">
      <button
        type="button"
        onClick={() => inputRef.current?.click()}
        onDragOver={(e) => {
          e.preventDefault();
          setDragging(true);
        }}
        onDragLeave={() => setDragging(false)}
        onDrop={handleDrop}
        disabled={busy}
        data-testid="upload-drop-zone"
        className={cn(
          'flex flex-col items-center justify-center gap-2 rounded-xl border-2 border-dashed px-4 py-8 text-center outline-none transition-colors focus-visible:ring-[3px] focus-visible:ring-ring/40 disabled:opacity-60',
          dragging ? 'border-primary bg-accent' : 'border-input bg-muted/30 hover:bg-muted/60',
        )}
      >
        <FileUpIcon className="size-7 text-primary" aria-hidden="true" />
        <span className="font-medium text-sm">Drag and drop files or a .zip here, or click to choose</span>
        <span className="text-muted-foreground text-xs">{listDocumentFormats({ withZip: true })}</span>
      </button>
      <input
        ref={inputRef}
        type="file"
        multiple
        accept={ACCEPTED_UPLOAD_TYPES}
        className="sr-only"
        tabIndex={-1}
        aria-label="Choose files to upload"
        data-testid="upload-input"
        onChange={(e) => {
          void start(Array.from(e.target.files ?? []));
          e.target.value = '';
        }}
      />
      {uploads.length > 0 && (
        <ul className="flex flex-col gap-2" aria-label="Uploads">
          {uploads.map((u) => (
            <UploadItem key={u.id} upload={u} />
          ))}
        </ul>
      )}
    </div>
  );
}
