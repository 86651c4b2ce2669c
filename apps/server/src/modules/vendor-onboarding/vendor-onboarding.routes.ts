import { join } from 'node:path';
import {
  endpoints,
  fileEndpoints,
  VENDOR_DOCUMENT_LABELS,
  VENDOR_DOCUMENT_MAX_BYTES,
  VendorDocumentParamsSchema,
  VendorTokenParamsSchema,
} from '@bahi/contracts';
import type { MiddlewareHandler } from 'hono';
import { streamingBodyLimit } from '../../http/body-limit.ts';
import type { AppDeps, AppEnv } from '../../http/context.ts';
import { fileRouteFor, routeFor } from '../../http/route-for.ts';
import { createRouter } from '../../http/router.ts';
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

const routes = {
  listLinks: routeFor(endpoints.vendorLinks, {
    tags,
    summary: 'Onboarding links, newest first (never their tokens)',
    errors: ['unauthenticated'],
  }),
  createLink: routeFor(endpoints.createVendorLink, {
    tags,
    summary: 'Make an onboarding link for a new or known vendor; the address is shown once',
    status: 201,
    errors: ['unauthenticated', 'forbidden', 'not_found', 'validation'],
  }),
  emailLink: routeFor(endpoints.sendVendorLinkMail, {
    tags,
    summary: 'Send a link just made to the vendor by e-mail (queued; needs SMTP_HOST and MAIL_FROM)',
    status: 202,
    errors: ['unauthenticated', 'forbidden', 'not_found', 'validation', 'conflict'],
  }),
  revokeLink: routeFor(endpoints.revokeVendorLink, {
    tags,
    summary: 'Revoke an onboarding link: it stops working at once',
    errors: ['unauthenticated', 'forbidden', 'not_found'],
  }),
  form: routeFor(endpoints.vendorForm, {
    tags: formTags,
    summary: 'What the vendor form shows (no account; 410 when expired or revoked)',
    security: [],
    params: VendorTokenParamsSchema,
    errors: ['not_found', 'gone', 'rate_limited'],
  }),
  submit: routeFor(endpoints.submitVendorForm, {
    tags: formTags,
    summary: 'Send the filled-in vendor form (one submission per link; 409 once sent)',
    security: [],
    params: VendorTokenParamsSchema,
    errors: ['not_found', 'gone', 'conflict', 'validation', 'rate_limited'],
  }),
  attach: routeFor(endpoints.uploadVendorDocument, {
    tags: formTags,
    summary: `Attach a cancelled cheque or certificate (PDF, JPEG or PNG, at most ${VENDOR_DOCUMENT_MAX_BYTES / 1024 / 1024} MB) as multipart field \`file\``,
    security: [],
    params: VendorDocumentParamsSchema,
    upload: { field: 'file', many: false },
    status: 201,
    errors: ['not_found', 'gone', 'conflict', 'validation', 'payload_too_large', 'rate_limited'],
  }),
  invoices: routeFor(endpoints.uploadVendorInvoices, {
    tags: formTags,
    summary: 'The vendor uploads invoices (multipart field `files`) into the flow the finance team chose',
    security: [],
    params: VendorTokenParamsSchema,
    upload: { field: 'files', many: true },
    status: 201,
    errors: ['not_found', 'gone', 'validation', 'payload_too_large', 'rate_limited'],
  }),
  submissions: routeFor(endpoints.vendorSubmissions, {
    tags,
    summary: 'Vendor forms sent, pending first, each against the vendor master with the differences',
    errors: ['unauthenticated'],
  }),
  approve: routeFor(endpoints.approveVendorSubmission, {
    tags,
    summary:
      'Approve: writes the PAN-keyed vendor and its GSTINs; a new bank account of an active vendor waits for a second person',
    errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
  }),
  requestChanges: routeFor(endpoints.requestVendorChanges, {
    tags,
    summary: 'Send the form back with a note: the same link opens again',
    errors: ['unauthenticated', 'forbidden', 'not_found', 'validation'],
  }),
  reject: routeFor(endpoints.rejectVendorSubmission, {
    tags,
    summary: 'Reject the submission',
    errors: ['unauthenticated', 'forbidden', 'not_found', 'validation'],
  }),
  document: fileRouteFor(fileEndpoints.vendorDocument, {
    tags,
    summary: 'Download a document a vendor attached',
    media: 'application/octet-stream',
    answer: 'The file',
    errors: ['unauthenticated', 'not_found'],
  }),
  bankChanges: routeFor(endpoints.vendorBankChanges, {
    tags,
    summary: 'New bank accounts of active vendors waiting for a second person',
    errors: ['unauthenticated'],
  }),
  approveBank: routeFor(endpoints.approveVendorBankChange, {
    tags,
    summary: 'Approve a new bank account (someone other than who asked); releases the hold on its invoices',
    errors: ['unauthenticated', 'forbidden', 'not_found', 'conflict'],
  }),
  rejectBank: routeFor(endpoints.rejectVendorBankChange, {
    tags,
    summary: 'Refuse a new bank account; the vendor keeps the approved one',
    errors: ['unauthenticated', 'forbidden', 'not_found'],
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
export function createVendorOnboardingRoutes(deps: AppDeps, limiter = new BadTokenLimiter()) {
  const { env } = deps;
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
  addLinkRoutes(router, deps);
  addFormRoutes(router, deps);
  addSubmissionRoutes(router, deps);
  return router;
}

type Router = ReturnType<typeof createRouter>;

/** The finance team's onboarding links: list, create, e-mail, revoke. */
function addLinkRoutes(router: Router, { db, env, jobs }: AppDeps): void {
  router
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
    });
}

/** The vendor's own form, by token: read it, submit it, attach documents, upload invoices. */
function addFormRoutes(router: Router, { db, env, jobs }: AppDeps): void {
  router
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
    });
}

/** Submissions and bank changes for the finance team to decide, and the documents vendors attached. */
function addSubmissionRoutes(router: Router, { db, jobs }: AppDeps): void {
  router
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
