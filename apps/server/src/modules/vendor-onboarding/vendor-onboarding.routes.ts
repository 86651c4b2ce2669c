import { join } from 'node:path';
import {
  CreateVendorLinkInputSchema,
  IdParamsSchema,
  OkSchema,
  SendVendorLinkMailInputSchema,
  UploadResultSchema,
  VENDOR_DOCUMENT_LABELS,
  VENDOR_DOCUMENT_MAX_BYTES,
  VendorApprovedSchema,
  VendorBankChangeListSchema,
  VendorDocumentParamsSchema,
  VendorDocumentSchema,
  VendorFormFieldsSchema,
  VendorFormViewSchema,
  VendorLinkCreatedSchema,
  VendorLinkListSchema,
  VendorLinkMailQueuedSchema,
  VendorSubmissionDecisionSchema,
  VendorSubmissionListSchema,
  VendorTokenParamsSchema,
} from '@bahi/contracts';
import { createRoute } from '@hono/zod-openapi';
import type { MiddlewareHandler } from 'hono';
import { streamingBodyLimit } from '../../http/body-limit.ts';
import type { AppDeps, AppEnv } from '../../http/context.ts';
import { createRouter, describeErrors, jsonContent } from '../../http/router.ts';
import { requireMembership } from '../../http/session.ts';
import { AppError } from '../../lib/app-error.ts';
import { createClientIpResolver } from '../auth/client-ip.ts';
import { receiveMultipartFiles } from '../uploads/multipart.ts';
import { BadTokenLimiter } from './bad-token-limiter.ts';
import { attachVendorDocument, submitVendorForm, uploadVendorInvoices } from './vendor-form.service.ts';
import { requestVendorLinkMail } from './vendor-link-mail.ts';
import {
  createVendorLink,
  getVendorForm,
  listVendorLinks,
  revokeVendorLink,
} from './vendor-links.service.ts';
import { findLinkDocument } from './vendor-onboarding.repo.ts';
import {
  approveVendorSubmission,
  decideVendorBankChange,
  decideVendorSubmission,
  listVendorBankChanges,
  listVendorSubmissions,
} from './vendor-review.service.ts';

const tags = ['Vendor onboarding'];
const formTags = ['Vendor form (public)'];

const multipartFile = (field: string, many: boolean) => ({
  required: true,
  content: {
    'multipart/form-data': {
      schema: {
        type: 'object' as const,
        properties: {
          [field]: many
            ? { type: 'array' as const, items: { type: 'string' as const, format: 'binary' } }
            : { type: 'string' as const, format: 'binary' },
        },
      },
    },
  },
});

const routes = {
  listLinks: createRoute({
    method: 'get',
    path: '/vendor-links',
    tags,
    summary: 'Onboarding links, newest first (never their tokens)',
    responses: { 200: jsonContent(VendorLinkListSchema), ...describeErrors('unauthenticated') },
  }),
  createLink: createRoute({
    method: 'post',
    path: '/vendor-links',
    tags,
    summary: 'Make an onboarding link for a new or known vendor; the address is shown once',
    request: { body: jsonContent(CreateVendorLinkInputSchema) },
    responses: {
      201: jsonContent(VendorLinkCreatedSchema),
      ...describeErrors('unauthenticated', 'forbidden', 'not_found', 'validation'),
    },
  }),
  emailLink: createRoute({
    method: 'post',
    path: '/vendor-links/{id}/email',
    tags,
    summary: 'Send a link just made to the vendor by e-mail (queued; needs SMTP_HOST and MAIL_FROM)',
    request: { params: IdParamsSchema, body: jsonContent(SendVendorLinkMailInputSchema) },
    responses: {
      202: jsonContent(VendorLinkMailQueuedSchema),
      ...describeErrors('unauthenticated', 'forbidden', 'not_found', 'validation', 'conflict'),
    },
  }),
  revokeLink: createRoute({
    method: 'delete',
    path: '/vendor-links/{id}',
    tags,
    summary: 'Revoke an onboarding link: it stops working at once',
    request: { params: IdParamsSchema },
    responses: { 200: jsonContent(OkSchema), ...describeErrors('unauthenticated', 'forbidden', 'not_found') },
  }),
  form: createRoute({
    method: 'get',
    path: '/vendor-form/{token}',
    tags: formTags,
    summary: 'What the vendor form shows (no account; 410 when expired or revoked)',
    security: [],
    request: { params: VendorTokenParamsSchema },
    responses: {
      200: jsonContent(VendorFormViewSchema),
      ...describeErrors('not_found', 'gone', 'rate_limited'),
    },
  }),
  submit: createRoute({
    method: 'post',
    path: '/vendor-form/{token}',
    tags: formTags,
    summary: 'Send the filled-in vendor form (one submission per link; 409 once sent)',
    security: [],
    request: { params: VendorTokenParamsSchema, body: jsonContent(VendorFormFieldsSchema) },
    responses: {
      200: jsonContent(OkSchema),
      ...describeErrors('not_found', 'gone', 'conflict', 'validation', 'rate_limited'),
    },
  }),
  attach: createRoute({
    method: 'post',
    path: '/vendor-form/{token}/documents/{kind}',
    tags: formTags,
    summary: `Attach a cancelled cheque or certificate (PDF, JPEG or PNG, at most ${VENDOR_DOCUMENT_MAX_BYTES / 1024 / 1024} MB) as multipart field \`file\``,
    security: [],
    request: { params: VendorDocumentParamsSchema, body: multipartFile('file', false) },
    responses: {
      201: jsonContent(VendorDocumentSchema),
      ...describeErrors('not_found', 'gone', 'conflict', 'validation', 'payload_too_large', 'rate_limited'),
    },
  }),
  invoices: createRoute({
    method: 'post',
    path: '/vendor-form/{token}/invoices',
    tags: formTags,
    summary: 'The vendor uploads invoices (multipart field `files`) into the flow the finance team chose',
    security: [],
    request: { params: VendorTokenParamsSchema, body: multipartFile('files', true) },
    responses: {
      201: jsonContent(UploadResultSchema),
      ...describeErrors('not_found', 'gone', 'validation', 'payload_too_large', 'rate_limited'),
    },
  }),
  submissions: createRoute({
    method: 'get',
    path: '/vendor-submissions',
    tags,
    summary: 'Vendor forms sent, pending first, each against the vendor master with the differences',
    responses: { 200: jsonContent(VendorSubmissionListSchema), ...describeErrors('unauthenticated') },
  }),
  approve: createRoute({
    method: 'post',
    path: '/vendor-submissions/{id}/approve',
    tags,
    summary:
      'Approve: writes the PAN-keyed vendor and its GSTINs; a new bank account of an active vendor waits for a second person',
    request: { params: IdParamsSchema },
    responses: {
      200: jsonContent(VendorApprovedSchema),
      ...describeErrors('unauthenticated', 'forbidden', 'not_found', 'conflict'),
    },
  }),
  requestChanges: createRoute({
    method: 'post',
    path: '/vendor-submissions/{id}/request-changes',
    tags,
    summary: 'Send the form back with a note: the same link opens again',
    request: { params: IdParamsSchema, body: jsonContent(VendorSubmissionDecisionSchema) },
    responses: {
      200: jsonContent(OkSchema),
      ...describeErrors('unauthenticated', 'forbidden', 'not_found', 'validation'),
    },
  }),
  reject: createRoute({
    method: 'post',
    path: '/vendor-submissions/{id}/reject',
    tags,
    summary: 'Reject the submission',
    request: { params: IdParamsSchema, body: jsonContent(VendorSubmissionDecisionSchema) },
    responses: {
      200: jsonContent(OkSchema),
      ...describeErrors('unauthenticated', 'forbidden', 'not_found', 'validation'),
    },
  }),
  document: createRoute({
    method: 'get',
    path: '/vendor-documents/{id}',
    tags,
    summary: 'Download a document a vendor attached',
    request: { params: IdParamsSchema },
    responses: {
      200: {
        description: 'The file',
        content: { 'application/octet-stream': { schema: { type: 'string', format: 'binary' } } },
      },
      ...describeErrors('unauthenticated', 'not_found'),
    },
  }),
  bankChanges: createRoute({
    method: 'get',
    path: '/vendor-bank-changes',
    tags,
    summary: 'New bank accounts of active vendors waiting for a second person',
    responses: { 200: jsonContent(VendorBankChangeListSchema), ...describeErrors('unauthenticated') },
  }),
  approveBank: createRoute({
    method: 'post',
    path: '/vendor-bank-changes/{id}/approve',
    tags,
    summary: 'Approve a new bank account (someone other than who asked); releases the hold on its invoices',
    request: { params: IdParamsSchema },
    responses: {
      200: jsonContent(OkSchema),
      ...describeErrors('unauthenticated', 'forbidden', 'not_found', 'conflict'),
    },
  }),
  rejectBank: createRoute({
    method: 'post',
    path: '/vendor-bank-changes/{id}/reject',
    tags,
    summary: 'Refuse a new bank account; the vendor keeps the approved one',
    request: { params: IdParamsSchema },
    responses: { 200: jsonContent(OkSchema), ...describeErrors('unauthenticated', 'forbidden', 'not_found') },
  }),
};

/**
 * Refuses an address that tried too many tokens that open nothing, and counts each such try (a 404 from
 * the public form's routes).
 */
function limitBadTokens(limiter: BadTokenLimiter, trustProxy: boolean): MiddlewareHandler<AppEnv> {
  const clientIp = createClientIpResolver(trustProxy);
  return async (c, next) => {
    const address = clientIp(c) ?? 'unknown';
    limiter.check(address);
    await next();
    if (c.res.status === 404) limiter.fail(address);
  };
}

/** Onboarding links, the public vendor form and the review of what vendors send. */
export function createVendorOnboardingRoutes({ db, env, jobs }: AppDeps, limiter = new BadTokenLimiter()) {
  const router = createRouter();
  router.use('/vendor-form/*', limitBadTokens(limiter, env.trustProxy));
  router.use(
    '/vendor-form/:token/documents/*',
    streamingBodyLimit({
      maxSize: VENDOR_DOCUMENT_MAX_BYTES + 64 * 1024,
      message: `The file is too large: attach one of at most ${VENDOR_DOCUMENT_MAX_BYTES / 1024 / 1024} MB`,
    }),
  );
  router.use(
    '/vendor-form/:token/invoices',
    streamingBodyLimit({
      maxSize: env.flows.uploadMaxBytes * 5,
      message: 'The upload is too large; send fewer or smaller files at a time',
    }),
  );
  return router
    .openapi(routes.listLinks, async (c) =>
      c.json(await listVendorLinks(db, requireMembership(c).membership), 200),
    )
    .openapi(routes.createLink, async (c) => {
      const caller = requireMembership(c);
      return c.json(
        await createVendorLink(db, {
          caller,
          publicUrl: env.publicUrl,
          mailConfigured: Boolean(env.smtp && jobs),
          input: c.req.valid('json'),
        }),
        201,
      );
    })
    .openapi(routes.emailLink, async (c) =>
      c.json(
        await requestVendorLinkMail(db, {
          caller: requireMembership(c),
          env,
          jobs,
          linkId: c.req.valid('param').id,
          input: c.req.valid('json'),
        }),
        202,
      ),
    )
    .openapi(routes.revokeLink, async (c) => {
      await revokeVendorLink(db, { caller: requireMembership(c), id: c.req.valid('param').id });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(routes.form, async (c) => c.json(await getVendorForm(db, c.req.valid('param').token), 200))
    .openapi(routes.submit, async (c) => {
      await submitVendorForm(db, { token: c.req.valid('param').token, fields: c.req.valid('json') });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(routes.attach, async (c) => {
      const { token, kind } = c.req.valid('param');
      const received = await receiveMultipartFiles(c.req.raw, join(env.dataDir, 'tmp'), {
        maxFileBytes: VENDOR_DOCUMENT_MAX_BYTES,
        maxFiles: 1,
      });
      try {
        const [file] = received.files;
        if (received.skipped.length > 0)
          throw new AppError(
            'payload_too_large',
            `The ${VENDOR_DOCUMENT_LABELS[kind].toLowerCase()} is too large: attach a file of at most ${VENDOR_DOCUMENT_MAX_BYTES / 1024 / 1024} MB`,
          );
        if (!file) throw new AppError('validation', 'Choose a file to attach', { file: 'Choose a file' });
        const doc = await attachVendorDocument(db, { token, kind, file });
        return c.json({ id: doc.id, kind, fileName: doc.fileName, size: doc.size }, 201);
      } finally {
        await received.cleanup();
      }
    })
    .openapi(routes.invoices, async (c) => {
      const received = await receiveMultipartFiles(c.req.raw, join(env.dataDir, 'tmp'), {
        maxFileBytes: env.flows.uploadMaxBytes,
        maxFiles: 5,
      });
      try {
        if (received.files.length === 0 && received.skipped.length === 0)
          throw new AppError('validation', 'Choose at least one invoice to upload', {
            files: 'Choose a file',
          });
        const result = await uploadVendorInvoices(db, {
          env,
          jobs,
          token: c.req.valid('param').token,
          files: received.files,
        });
        return c.json({ ...result, skipped: [...received.skipped, ...result.skipped] }, 201);
      } finally {
        await received.cleanup();
      }
    })
    .openapi(routes.submissions, async (c) =>
      c.json(await listVendorSubmissions(db, requireMembership(c)), 200),
    )
    .openapi(routes.approve, async (c) =>
      c.json(
        await approveVendorSubmission(db, {
          caller: requireMembership(c),
          id: c.req.valid('param').id,
          jobs,
        }),
        200,
      ),
    )
    .openapi(routes.requestChanges, async (c) => {
      const { note } = c.req.valid('json');
      await decideVendorSubmission(db, {
        caller: requireMembership(c),
        id: c.req.valid('param').id,
        decision: 'changes_requested',
        note,
      });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(routes.reject, async (c) => {
      const { note } = c.req.valid('json');
      await decideVendorSubmission(db, {
        caller: requireMembership(c),
        id: c.req.valid('param').id,
        decision: 'rejected',
        note,
      });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(routes.document, async (c) => {
      const { membership } = requireMembership(c);
      const id = c.req.valid('param').id;
      const doc = /^[0-9a-f-]{36}$/i.test(id)
        ? await findLinkDocument(db, membership.organizationId, id)
        : undefined;
      if (!doc) throw new AppError('not_found', 'No such document');
      return c.body(Buffer.from(doc.data), 200, {
        'content-type': doc.contentType,
        'content-disposition': `attachment; filename*=UTF-8''${encodeURIComponent(doc.fileName)}`,
        'x-content-type-options': 'nosniff',
      }) as never;
    })
    .openapi(routes.bankChanges, async (c) =>
      c.json(await listVendorBankChanges(db, requireMembership(c)), 200),
    )
    .openapi(routes.approveBank, async (c) => {
      await decideVendorBankChange(db, {
        caller: requireMembership(c),
        id: c.req.valid('param').id,
        approve: true,
        jobs,
      });
      return c.json({ ok: true as const }, 200);
    })
    .openapi(routes.rejectBank, async (c) => {
      await decideVendorBankChange(db, {
        caller: requireMembership(c),
        id: c.req.valid('param').id,
        approve: false,
        jobs,
      });
      return c.json({ ok: true as const }, 200);
    });
}
