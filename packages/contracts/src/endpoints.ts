import { AuthConfigSchema, MeSchema } from './auth.ts';
import {
  BooksPushListSchema,
  BooksPushQuerySchema,
  BooksPushSchema,
  CreatePartyLedgersInputSchema,
  CreatePartyLedgersResultSchema,
  LedgerMappingSchema,
  LedgerMappingViewSchema,
  PostToBooksInputSchema,
  PostToBooksResultSchema,
  TallyConnectionInputSchema,
  TallyConnectionSchema,
  TallyTestResultSchema,
  TallyXmlQuerySchema,
  ZohoConnectionInputSchema,
  ZohoConnectionSchema,
  ZohoMappingSchema,
  ZohoMappingViewSchema,
  ZohoTestResultSchema,
} from './books.ts';
import {
  GstDecisionInputSchema,
  GstPeriodQuerySchema,
  GstReconciliationSchema,
  GstRowSchema,
  Gstr2bUploadResultSchema,
  GstSettingsSchema,
  TdsInvoiceSchema,
  TdsMonthQuerySchema,
  TdsSettingsSchema,
  TdsViewSchema,
} from './compliance.ts';
import { ActivityPageSchema, DashboardSchema } from './dashboard.ts';
import { defineEndpoints, defineFileEndpoints } from './endpoint.ts';
import {
  CreatedSheetSchema,
  CreateSheetInputSchema,
  CreateWorkflowInputSchema,
  DocumentListSchema,
  FlowDocumentDetailSchema,
  FlowDocumentSchema,
  FlowOutputsStatusSchema,
  OkSchema,
  ProcessFolderInputSchema,
  ProcessUrlInputSchema,
  RunListSchema,
  RunSchema,
  SheetQuerySchema,
  SheetViewSchema,
  StartedRunSchema,
  UpdateWorkflowInputSchema,
  UploadListSchema,
  UploadResultSchema,
  WorkflowListSchema,
  WorkflowSchema,
} from './flows.ts';
import {
  GoogleConsentUrlSchema,
  GoogleSetupInputSchema,
  GoogleSetupItemSchema,
  GoogleStatusSchema,
} from './google.ts';
import { FlowIntakeSchema, MailOAuthConsentSchema, MailOAuthStartSchema } from './intake.ts';
import { IntegrationsSchema } from './integrations.ts';
import { InterestListSchema, RegisterInterestInputSchema } from './interest.ts';
import {
  Msme43bhQuerySchema,
  MsmeBankRateInputSchema,
  MsmeForm1QuerySchema,
  MsmeImportInputSchema,
  MsmeImportResultSchema,
  MsmeObjectionInputSchema,
  MsmeObjectionResolveSchema,
  MsmeObjectionSchema,
  MsmePaymentInputSchema,
  MsmePaymentRecordedSchema,
  MsmeRegistrationInputSchema,
  MsmeRegistrationSchema,
  MsmeSettingsSchema,
  MsmeViewQuerySchema,
  MsmeViewSchema,
} from './msme.ts';
import {
  MarkNotificationsReadInputSchema,
  MarkNotificationsReadResultSchema,
  NotificationListSchema,
} from './notifications.ts';
import {
  CreateOrganizationInputSchema,
  OrganizationSchema,
  UpdateOrganizationInputSchema,
} from './organization.ts';
import {
  FlowNoPoSchema,
  InvoiceMatchSchema,
  OverrideExceptionSchema,
  ReconcilePageSchema,
  ReconcileQuerySchema,
  TolerancesSchema,
  VendorSchema,
  VendorUpdateSchema,
} from './reconcile.ts';
import {
  ApproveDocumentSchema,
  DocumentCorrectionSchema,
  DocumentReviewSchema,
  ForgetLearnedFieldSchema,
  ReviewQueueQuerySchema,
  ReviewQueueSchema,
} from './review.ts';
import {
  AcceptedInvitationSchema,
  ApprovalLimitInputSchema,
  AuditPageSchema,
  AuditQuerySchema,
  CreateInvitationInputSchema,
  InvitationCreatedSchema,
  InvitationPreviewSchema,
  SessionListSchema,
  SwitchOrganizationInputSchema,
  TeamSchema,
  UpdateMemberRoleInputSchema,
} from './team.ts';
import {
  CreateVendorLinkInputSchema,
  SendVendorLinkMailInputSchema,
  VendorApprovedSchema,
  VendorBankChangeListSchema,
  VendorDocumentSchema,
  VendorFormFieldsSchema,
  VendorFormViewSchema,
  VendorLinkCreatedSchema,
  VendorLinkListSchema,
  VendorLinkMailQueuedSchema,
  VendorSubmissionDecisionSchema,
  VendorSubmissionListSchema,
} from './vendor-onboarding.ts';
import {
  ActivityQuerySchema,
  DocumentListQuerySchema,
  DocumentPageQuerySchema,
  SheetCsvQuerySchema,
  VendorListSchema,
} from './wire.ts';

/**
 * Every JSON endpoint of the Bahi API the web calls, each declared once with the `@bahi/contracts`
 * schemas its server route is declared with. Call one with `callEndpoint(api.listFlows, { signal })`.
 *
 * Runs start through `startRun` (`POST /api/flows/:id/runs`); the legacy
 * `POST /api/workflow/process-folder` stays on the server for old clients and is deliberately absent.
 */
export const endpoints = defineEndpoints({
  // Account and organisation
  authConfig: { method: 'GET', path: '/api/auth-config', response: AuthConfigSchema },
  me: { method: 'GET', path: '/api/me', response: MeSchema },
  createOrganization: {
    method: 'POST',
    path: '/api/organization',
    body: CreateOrganizationInputSchema,
    response: OrganizationSchema,
  },
  updateOrganization: {
    method: 'PUT',
    path: '/api/organization',
    body: UpdateOrganizationInputSchema,
    response: OrganizationSchema,
  },

  // Team: members, invitations, the approval limit, switching organisation, sessions, the audit trail
  team: { method: 'GET', path: '/api/team', response: TeamSchema },
  invite: {
    method: 'POST',
    path: '/api/team/invitations',
    body: CreateInvitationInputSchema,
    response: InvitationCreatedSchema,
  },
  revokeInvitation: { method: 'DELETE', path: '/api/team/invitations/:id', response: OkSchema },
  changeMemberRole: {
    method: 'PUT',
    path: '/api/team/members/:userId',
    body: UpdateMemberRoleInputSchema,
    response: OkSchema,
  },
  removeMember: { method: 'DELETE', path: '/api/team/members/:userId', response: OkSchema },
  leaveOrganization: { method: 'POST', path: '/api/team/leave', response: OkSchema },
  setApprovalLimit: {
    method: 'PUT',
    path: '/api/team/approval-limit',
    body: ApprovalLimitInputSchema,
    response: OkSchema,
  },
  invitation: { method: 'GET', path: '/api/invitations/:token', response: InvitationPreviewSchema },
  acceptInvitation: {
    method: 'POST',
    path: '/api/invitations/:token/accept',
    response: AcceptedInvitationSchema,
  },
  switchOrganization: {
    method: 'PUT',
    path: '/api/me/organization',
    body: SwitchOrganizationInputSchema,
    response: OkSchema,
  },
  mySessions: { method: 'GET', path: '/api/me/sessions', response: SessionListSchema },
  endSession: { method: 'DELETE', path: '/api/me/sessions/:id', response: OkSchema },
  audit: { method: 'GET', path: '/api/audit', query: AuditQuerySchema, response: AuditPageSchema },

  // Home, notifications, "Get Notified"
  dashboard: { method: 'GET', path: '/api/dashboard', response: DashboardSchema },
  activity: {
    method: 'GET',
    path: '/api/activity',
    query: ActivityQuerySchema,
    response: ActivityPageSchema,
  },
  notifications: { method: 'GET', path: '/api/notifications', response: NotificationListSchema },
  markNotificationsRead: {
    method: 'POST',
    path: '/api/notifications/read',
    body: MarkNotificationsReadInputSchema,
    response: MarkNotificationsReadResultSchema,
  },
  interest: { method: 'GET', path: '/api/interest', response: InterestListSchema },
  registerInterest: {
    method: 'POST',
    path: '/api/interest',
    body: RegisterInterestInputSchema,
    response: InterestListSchema,
  },

  // Integrations and Google
  integrations: { method: 'GET', path: '/api/integrations', response: IntegrationsSchema },
  googleStatus: { method: 'GET', path: '/api/google/status', response: GoogleStatusSchema },
  googleConsentUrl: { method: 'GET', path: '/api/oauth/url', response: GoogleConsentUrlSchema },
  googleVerify: { method: 'POST', path: '/api/google/refresh', response: GoogleStatusSchema },
  googleDisconnect: { method: 'POST', path: '/api/google/disconnect', response: GoogleStatusSchema },
  googleFolder: {
    method: 'POST',
    path: '/api/google/folder',
    body: GoogleSetupInputSchema,
    response: GoogleSetupItemSchema,
  },
  googleVendorSheet: {
    method: 'POST',
    path: '/api/google/vendor-sheet',
    body: GoogleSetupInputSchema,
    response: GoogleSetupItemSchema,
  },

  // Flows (the original product's `/api/workflows` JSON)
  listFlows: { method: 'GET', path: '/api/workflows', response: WorkflowListSchema },
  createFlow: {
    method: 'POST',
    path: '/api/workflows',
    body: CreateWorkflowInputSchema,
    response: WorkflowSchema,
  },
  updateFlow: {
    method: 'PUT',
    path: '/api/workflows/:id',
    body: UpdateWorkflowInputSchema,
    response: WorkflowSchema,
  },
  deleteFlow: { method: 'DELETE', path: '/api/workflows/:id', response: OkSchema },
  createFlowSheet: {
    method: 'POST',
    path: '/api/workflow/sheets/create',
    body: CreateSheetInputSchema,
    response: CreatedSheetSchema,
  },

  // Runs
  startRun: { method: 'POST', path: '/api/flows/:id/runs', response: RunSchema },
  listFlowRuns: { method: 'GET', path: '/api/flows/:id/runs', response: RunListSchema },
  flowIntake: { method: 'GET', path: '/api/flows/:id/intake', response: FlowIntakeSchema },
  connectMailbox: {
    method: 'POST',
    path: '/api/flows/:id/mail-oauth',
    body: MailOAuthStartSchema,
    response: MailOAuthConsentSchema,
  },
  flowOutputs: { method: 'GET', path: '/api/flows/:id/outputs', response: FlowOutputsStatusSchema },
  getRun: { method: 'GET', path: '/api/runs/:id', response: RunSchema },

  // Uploads (sent by XHR as multipart for upload progress; see `upload-files.ts`)
  listFlowUploads: { method: 'GET', path: '/api/flows/:id/uploads', response: UploadListSchema },
  uploadFiles: { method: 'POST', path: '/api/flows/:id/uploads', response: UploadResultSchema },

  // Documents and their review
  listFlowDocuments: {
    method: 'GET',
    path: '/api/flows/:id/documents',
    query: DocumentListQuerySchema,
    response: DocumentListSchema,
  },
  removeDocument: { method: 'DELETE', path: '/api/documents/:id', response: FlowDocumentSchema },
  retryDocument: { method: 'POST', path: '/api/documents/:id/retry', response: StartedRunSchema },
  reprocessDocument: { method: 'POST', path: '/api/documents/:id/reprocess', response: StartedRunSchema },
  documentReview: { method: 'GET', path: '/api/documents/:id/review', response: DocumentReviewSchema },
  correctDocument: {
    method: 'PATCH',
    path: '/api/documents/:id',
    body: DocumentCorrectionSchema,
    response: DocumentReviewSchema,
  },
  approveDocument: {
    method: 'POST',
    path: '/api/documents/:id/approve',
    body: ApproveDocumentSchema,
    response: DocumentReviewSchema,
  },
  forgetLearnedField: {
    method: 'POST',
    path: '/api/documents/:id/forget',
    body: ForgetLearnedFieldSchema,
    response: DocumentReviewSchema,
  },
  reviewQueue: {
    method: 'GET',
    path: '/api/review',
    query: ReviewQueueQuerySchema,
    response: ReviewQueueSchema,
  },

  // The in-app sheet view
  sheetPage: {
    method: 'GET',
    path: '/api/flows/:id/sheet',
    query: SheetQuerySchema,
    response: SheetViewSchema,
  },

  // Reconcile and the vendor master
  reconciliation: {
    method: 'GET',
    path: '/api/reconcile',
    query: ReconcileQuerySchema,
    response: ReconcilePageSchema,
  },
  setFlowNoPo: {
    method: 'PUT',
    path: '/api/reconcile/flows/:id/no-po',
    body: FlowNoPoSchema,
    response: FlowNoPoSchema,
  },
  overrideInvoice: {
    method: 'POST',
    path: '/api/reconcile/invoices/:id/override',
    body: OverrideExceptionSchema,
    response: InvoiceMatchSchema,
  },
  setTolerances: {
    method: 'PUT',
    path: '/api/reconcile/tolerances',
    body: TolerancesSchema,
    response: TolerancesSchema,
  },
  listVendors: { method: 'GET', path: '/api/vendors', response: VendorListSchema },

  // Vendor onboarding: links, the public form, the review of what vendors send, bank changes
  vendorLinks: { method: 'GET', path: '/api/vendor-links', response: VendorLinkListSchema },
  createVendorLink: {
    method: 'POST',
    path: '/api/vendor-links',
    body: CreateVendorLinkInputSchema,
    response: VendorLinkCreatedSchema,
  },
  sendVendorLinkMail: {
    method: 'POST',
    path: '/api/vendor-links/:id/email',
    body: SendVendorLinkMailInputSchema,
    response: VendorLinkMailQueuedSchema,
  },
  revokeVendorLink: { method: 'DELETE', path: '/api/vendor-links/:id', response: OkSchema },
  vendorForm: { method: 'GET', path: '/api/vendor-form/:token', response: VendorFormViewSchema },
  submitVendorForm: {
    method: 'POST',
    path: '/api/vendor-form/:token',
    body: VendorFormFieldsSchema,
    response: OkSchema,
  },
  vendorSubmissions: { method: 'GET', path: '/api/vendor-submissions', response: VendorSubmissionListSchema },
  approveVendorSubmission: {
    method: 'POST',
    path: '/api/vendor-submissions/:id/approve',
    response: VendorApprovedSchema,
  },
  requestVendorChanges: {
    method: 'POST',
    path: '/api/vendor-submissions/:id/request-changes',
    body: VendorSubmissionDecisionSchema,
    response: OkSchema,
  },
  rejectVendorSubmission: {
    method: 'POST',
    path: '/api/vendor-submissions/:id/reject',
    body: VendorSubmissionDecisionSchema,
    response: OkSchema,
  },
  vendorBankChanges: {
    method: 'GET',
    path: '/api/vendor-bank-changes',
    response: VendorBankChangeListSchema,
  },
  approveVendorBankChange: {
    method: 'POST',
    path: '/api/vendor-bank-changes/:id/approve',
    response: OkSchema,
  },
  rejectVendorBankChange: { method: 'POST', path: '/api/vendor-bank-changes/:id/reject', response: OkSchema },
  updateVendor: {
    method: 'PATCH',
    path: '/api/vendors/:id',
    body: VendorUpdateSchema,
    response: VendorSchema,
  },

  // GST & TDS (the 2B upload is sent as multipart; see `compliance-api.ts`)
  gst: { method: 'GET', path: '/api/gst', query: GstPeriodQuerySchema, response: GstReconciliationSchema },
  uploadGstr2b: { method: 'POST', path: '/api/gst/2b', response: Gstr2bUploadResultSchema },
  decideGst: {
    method: 'POST',
    path: '/api/gst/decisions',
    body: GstDecisionInputSchema,
    response: GstRowSchema,
  },
  setGstSettings: {
    method: 'PUT',
    path: '/api/gst/settings',
    body: GstSettingsSchema,
    response: GstSettingsSchema,
  },
  tds: { method: 'GET', path: '/api/tds', query: TdsMonthQuerySchema, response: TdsViewSchema },
  invoiceTds: { method: 'GET', path: '/api/tds/invoices/:id', response: TdsInvoiceSchema },
  setTdsSettings: {
    method: 'PUT',
    path: '/api/tds/settings',
    body: TdsSettingsSchema,
    response: TdsSettingsSchema,
  },

  // Tally (books)
  tallyConnection: { method: 'GET', path: '/api/books/tally', response: TallyConnectionSchema },
  saveTallyConnection: {
    method: 'PUT',
    path: '/api/books/tally',
    body: TallyConnectionInputSchema,
    response: TallyConnectionSchema,
  },
  testTally: { method: 'POST', path: '/api/books/tally/test', response: TallyTestResultSchema },
  ledgerMapping: { method: 'GET', path: '/api/books/tally/mapping', response: LedgerMappingViewSchema },
  saveLedgerMapping: {
    method: 'PUT',
    path: '/api/books/tally/mapping',
    body: LedgerMappingSchema,
    response: LedgerMappingViewSchema,
  },
  createPartyLedgers: {
    method: 'POST',
    path: '/api/books/tally/party-ledgers',
    body: CreatePartyLedgersInputSchema,
    response: CreatePartyLedgersResultSchema,
  },
  postToTally: {
    method: 'POST',
    path: '/api/books/tally/post',
    body: PostToBooksInputSchema,
    response: PostToBooksResultSchema,
  },
  booksPushes: {
    method: 'GET',
    path: '/api/books/pushes',
    query: BooksPushQuerySchema,
    response: BooksPushListSchema,
  },
  cancelInTally: { method: 'POST', path: '/api/books/pushes/:id/cancel', response: BooksPushSchema },
  // Zoho Books (books)
  zohoConnection: { method: 'GET', path: '/api/books/zoho', response: ZohoConnectionSchema },
  saveZohoConnection: {
    method: 'PUT',
    path: '/api/books/zoho',
    body: ZohoConnectionInputSchema,
    response: ZohoConnectionSchema,
  },
  testZoho: { method: 'POST', path: '/api/books/zoho/test', response: ZohoTestResultSchema },
  zohoMapping: { method: 'GET', path: '/api/books/zoho/mapping', response: ZohoMappingViewSchema },
  saveZohoMapping: {
    method: 'PUT',
    path: '/api/books/zoho/mapping',
    body: ZohoMappingSchema,
    response: ZohoMappingViewSchema,
  },
  postToZoho: {
    method: 'POST',
    path: '/api/books/zoho/post',
    body: PostToBooksInputSchema,
    response: PostToBooksResultSchema,
  },
  voidInZoho: { method: 'POST', path: '/api/books/zoho/pushes/:id/void', response: BooksPushSchema },
  // MSME payment compliance
  msme: { method: 'GET', path: '/api/msme', query: MsmeViewQuerySchema, response: MsmeViewSchema },
  saveMsmeRegistration: {
    method: 'PUT',
    path: '/api/msme/registrations',
    body: MsmeRegistrationInputSchema,
    response: MsmeRegistrationSchema,
  },
  recordMsmePayment: {
    method: 'POST',
    path: '/api/msme/payments',
    body: MsmePaymentInputSchema,
    response: MsmePaymentRecordedSchema,
  },
  removeMsmePayment: { method: 'DELETE', path: '/api/msme/payments/:id', response: OkSchema },
  importMsmePayments: {
    method: 'POST',
    path: '/api/msme/payments/import',
    body: MsmeImportInputSchema,
    response: MsmeImportResultSchema,
  },
  addMsmeObjection: {
    method: 'POST',
    path: '/api/msme/objections',
    body: MsmeObjectionInputSchema,
    response: MsmeObjectionSchema,
  },
  resolveMsmeObjection: {
    method: 'PUT',
    path: '/api/msme/objections/:id',
    body: MsmeObjectionResolveSchema,
    response: MsmeObjectionSchema,
  },
  addMsmeBankRate: {
    method: 'POST',
    path: '/api/msme/bank-rates',
    body: MsmeBankRateInputSchema,
    response: MsmeSettingsSchema,
  },
  removeMsmeBankRate: {
    method: 'DELETE',
    path: '/api/msme/bank-rates/:id',
    response: MsmeSettingsSchema,
  },

  // Read by other clients than the web (scripts), declared all the same
  organization: { method: 'GET', path: '/api/organization', response: OrganizationSchema },
  flowDocument: { method: 'GET', path: '/api/documents/:id', response: FlowDocumentDetailSchema },
  reprocessFile: { method: 'POST', path: '/api/documents/:id/reprocess-file', response: StartedRunSchema },
  gstSettings: { method: 'GET', path: '/api/gst/settings', response: GstSettingsSchema },
  tdsSettings: { method: 'GET', path: '/api/tds/settings', response: TdsSettingsSchema },
  msmeSettings: { method: 'GET', path: '/api/msme/settings', response: MsmeSettingsSchema },
  // The vendor's own form (public, by token); files go as multipart form data
  uploadVendorDocument: {
    method: 'POST',
    path: '/api/vendor-form/:token/documents/:kind',
    response: VendorDocumentSchema,
  },
  uploadVendorInvoices: {
    method: 'POST',
    path: '/api/vendor-form/:token/invoices',
    response: UploadResultSchema,
  },
});

/**
 * The original product's run calls, kept on the server for old clients. The web starts runs through
 * `startRun` and never calls these.
 */
export const legacyEndpoints = defineEndpoints({
  legacyProcessFolder: {
    method: 'POST',
    path: '/api/workflow/process-folder',
    body: ProcessFolderInputSchema,
    response: StartedRunSchema,
  },
  legacyProcessUrl: {
    method: 'POST',
    path: '/api/process-url',
    body: ProcessUrlInputSchema,
    response: StartedRunSchema,
  },
});

/**
 * Every endpoint of the Bahi API that answers with a file or a stream, declared once: the web links to
 * them (downloads, the run's progress events); the server's routes are checked against them.
 */
export const fileEndpoints = defineFileEndpoints({
  /** The flow's workbook (Documents, Line Items and, for invoices, Matches tabs). */
  sheetXlsx: { method: 'GET', path: '/api/flows/:id/sheet.xlsx', file: 'xlsx' },
  /** One tab of the flow's sheet as CSV (`?tab=documents|lines`). */
  sheetCsv: { method: 'GET', path: '/api/flows/:id/sheet.csv', query: SheetCsvQuerySchema, file: 'csv' },
  /** Server-sent progress of a run (`progress` events, then `end` with the run). */
  runEvents: { method: 'GET', path: '/api/runs/:id/events', file: 'event-stream' },
  /** The reconciliation workbook (Matches, Exceptions and Purchase Orders tabs). */
  reconcileXlsx: { method: 'GET', path: '/api/reconcile.xlsx', file: 'xlsx' },
  /** Every GST tab of a period and buyer GSTIN, the suppliers and the IMS actions (`?period=MMYYYY&gstin=`). */
  gstXlsx: { method: 'GET', path: '/api/gst.xlsx', query: GstPeriodQuerySchema, file: 'xlsx' },
  /** The Invoice Management System action list of a period and buyer GSTIN (`?period=MMYYYY&gstin=`). */
  gstImsXlsx: { method: 'GET', path: '/api/gst/ims.xlsx', query: GstPeriodQuerySchema, file: 'xlsx' },
  /** Tally's import file (`?ids=a,b` or `?period=YYYY-MM`). */
  tallyXml: { method: 'GET', path: '/api/books/tally.xml', query: TallyXmlQuerySchema, file: 'xml' },
  /** MSME Form-1 of a half-year (`?financialYear=2025&half=H1`). */
  msmeForm1Xlsx: { method: 'GET', path: '/api/msme/form1.xlsx', query: MsmeForm1QuerySchema, file: 'xlsx' },
  /** The year-end section 43B(h) list (`?financialYear=2025`). */
  msme43bhXlsx: { method: 'GET', path: '/api/msme/43bh.xlsx', query: Msme43bhQuerySchema, file: 'xlsx' },
  /** The audit trail as CSV, filtered like the Audit page. */
  auditCsv: { method: 'GET', path: '/api/audit.csv', query: AuditQuerySchema, file: 'csv' },
  /** The stored file of a document, as uploaded. */
  documentFile: { method: 'GET', path: '/api/documents/:id/file', file: 'document' },
  /** A page of a document drawn as a picture (`?width=`). */
  documentPage: {
    method: 'GET',
    path: '/api/documents/:id/pages/:page',
    query: DocumentPageQuerySchema,
    file: 'document',
  },
  /** A document a vendor uploaded with their onboarding form (a cancelled cheque, a Udyam certificate). */
  vendorDocument: { method: 'GET', path: '/api/vendor-documents/:id', file: 'document' },
});
