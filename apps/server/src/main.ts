import { EnvError, loadEnv } from './config/env.ts';

// Entry point of `npm start`: serve API + web on PORT, stop cleanly on SIGTERM/SIGINT.
try {
  // Check the configuration before loading the rest of the server, so mistakes are reported at once.
  loadEnv();
  const { startServer } = await import('./server.ts');
  const started = Date.now();
  const server = await startServer();
  server.logger.info(
    {
      url: server.url,
      port: server.port,
      ms: Date.now() - started,
      sinceProcessStartMs: Math.round(process.uptime() * 1000),
      phases: server.startupMs,
    },
    `Bahi is running at ${server.url}`,
  );
  let stopping = false;
  const shutdown = async (signal: string) => {
    if (stopping) return;
    stopping = true;
    server.logger.info({ signal }, 'shutting down');
    // A stuck connection must not keep the process alive forever.
    setTimeout(() => process.exit(1), 10_000).unref();
    await server.close();
    process.exit(0);
  };
  process.on('SIGTERM', () => void shutdown('SIGTERM'));
  process.on('SIGINT', () => void shutdown('SIGINT'));
} catch (error) {
  if (error instanceof EnvError) {
    console.error(error.message);
  } else {
    console.error('Bahi failed to start:', error);
  }
  process.exit(1);
}
