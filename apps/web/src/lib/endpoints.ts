import { endpoints, fileEndpoints } from '@bahi/contracts';

/**
 * Every JSON endpoint of the Bahi API the web calls, as `@bahi/contracts` declares it (the server's routes
 * are checked against the same declarations). Call one with `callEndpoint(api.listFlows, { signal })`.
 */
export const api = endpoints;

/** Paths of the endpoints the web links to rather than calls (downloads, the run's event stream). */
export const apiLinks = {
  sheetXlsx: fileEndpoints.sheetXlsx.path,
  sheetCsv: fileEndpoints.sheetCsv.path,
  runEvents: fileEndpoints.runEvents.path,
  reconcileXlsx: fileEndpoints.reconcileXlsx.path,
  gstXlsx: fileEndpoints.gstXlsx.path,
  gstImsXlsx: fileEndpoints.gstImsXlsx.path,
  tallyXml: fileEndpoints.tallyXml.path,
  msmeForm1Xlsx: fileEndpoints.msmeForm1Xlsx.path,
  msme43bhXlsx: fileEndpoints.msme43bhXlsx.path,
  auditCsv: fileEndpoints.auditCsv.path,
} as const;
