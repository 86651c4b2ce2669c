import type { MiddlewareHandler } from 'hono';
import { AppError } from '../lib/app-error.ts';
import type { AppEnv } from './context.ts';

/**
 * A body limit for routes that stream their body (uploads): refused from the Content-Length alone when it
 * says too much, else counted as the route reads it — the count stops the stream at `maxSize` and the
 * answer is 413. Unlike hono's `bodyLimit`, nothing is buffered: a chunked 250 MB upload is never held in
 * memory to be measured.
 */
export function streamingBodyLimit({
  maxSize,
  message,
}: {
  maxSize: number;
  message: string;
}): MiddlewareHandler<AppEnv> {
  const refuse = (c: Parameters<MiddlewareHandler<AppEnv>>[0]): never => {
    // The rest of the body still stands on the connection: close it after the answer.
    c.header('connection', 'close');
    throw new AppError('payload_too_large', message);
  };
  return async (c, next) => {
    const body = c.req.raw.body;
    if (!body) return next();
    const declared = c.req.header('content-length');
    if (declared !== undefined && !c.req.raw.headers.has('transfer-encoding')) {
      if (Number.parseInt(declared, 10) > maxSize) refuse(c);
      return next();
    }
    let size = 0;
    let over = false;
    const counted = body.pipeThrough(
      new TransformStream<Uint8Array, Uint8Array>({
        transform(chunk, controller) {
          size += chunk.byteLength;
          if (size > maxSize) {
            over = true;
            controller.error(new Error('the request body is over its limit'));
            return;
          }
          controller.enqueue(chunk);
        },
      }),
    );
    c.req.raw = new Request(c.req.raw, { body: counted, duplex: 'half' } as RequestInit);
    await next();
    // Whatever the route made of its cut-off body (a damaged upload), the answer is that it was too large.
    if (over) refuse(c);
  };
}
