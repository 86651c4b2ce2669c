import { Progress } from '@/components/ui/progress.tsx';
import {
  computeProgressPercent,
  describeCurrentFile,
  formatFinishedLine,
  formatProgressLine,
  type RunProgressView,
} from './run-progress.ts';

/** Live progress under a running flow: bar, "2 of 5 documents", the file being read. */
export function RunProgressBar({ progress, finished }: { progress: RunProgressView; finished: boolean }) {
  // A finished run that found nothing new is complete, not stuck at 0%.
  const nothingNew = finished && progress.total === 0;
  // Pages read of the documents in flight move the bar between whole documents (never past the count).
  const percent = nothingNew
    ? 100
    : computeProgressPercent(
        finished
          ? progress.done
          : progress.done + Math.min(progress.partialDone ?? 0, progress.total - progress.done),
        progress.total,
      );
  return (
    <div
      className="flex flex-col gap-1.5"
      data-testid="run-progress"
      data-percent={percent}
      data-state={finished ? 'finished' : 'running'}
      aria-live="polite"
    >
      <div className="flex items-center justify-between gap-3 text-xs">
        <span className="font-medium">
          {finished ? formatFinishedLine(progress) : formatProgressLine(progress)}
        </span>
        <span className="text-muted-foreground tabular-nums">{percent}%</span>
      </div>
      <Progress value={percent} aria-label="Run progress" />
      {progress.currentFile && (
        <p className="truncate text-muted-foreground text-xs" title={progress.currentFile}>
          {describeCurrentFile(progress.currentFile)}
        </p>
      )}
    </div>
  );
}
