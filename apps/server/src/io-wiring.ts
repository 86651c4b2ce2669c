import { installSinks } from './adapters/sinks/index.ts';
import { installSources } from './adapters/sources/index.ts';
import { driveSource } from './modules/google/drive-source.ts';
import { mailSource } from './modules/intake/mail-source.ts';
import { googleSheetsSink } from './modules/sheets/google-sheet-sink.ts';
import { workbookSink } from './modules/sheets/sheets.service.ts';

// The composition root of sources and sinks: the one place that knows both the registries (`adapters/`,
// which imports no feature module) and the modules whose adapters need organisation services (the Google
// connection, the mail inbox, the sheet rows). Importing this file installs them; `server.ts`, `worker.ts`
// and the test harnesses (src/test/test-db.ts) do, before any service reaches a source or a sink.

installSources({ drive: driveSource, email: mailSource });
installSinks({ xlsx: workbookSink, sheets: googleSheetsSink });
