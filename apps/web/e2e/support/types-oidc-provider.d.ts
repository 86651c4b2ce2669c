// oidc-provider ships no types (they live in @types/oidc-provider, not installed); this declares the small
// part the test identity provider uses, so the e2e code stays strictly typed.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  /** What `interactionDetails` returns for the running login/consent interaction. */
  export interface Interaction {
    uid: string;
    prompt: { name: 'login' | 'consent' | string; reasons: string[]; details: Record<string, unknown> };
    params: Record<string, unknown>;
    session?: { accountId?: string } | undefined;
    grantId?: string | undefined;
  }

  /** An authorization grant (the scopes/claims a user allowed a client). */
  export interface Grant {
    addOIDCScope(scope: string): void;
    addOIDCClaims(claims: string[]): void;
    addResourceScope(indicator: string, scope: string): void;
    save(): Promise<string>;
  }

  interface GrantClass {
    new (properties: { accountId: string; clientId: string }): Grant;
    find(id: string): Promise<Grant | undefined>;
  }

  /** The OpenID Connect provider. */
  export default class Provider {
    constructor(issuer: string, configuration: Record<string, unknown>);
    readonly Grant: GrantClass;
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    interactionDetails(req: IncomingMessage, res: ServerResponse): Promise<Interaction>;
    interactionFinished(
      req: IncomingMessage,
      res: ServerResponse,
      result: Record<string, unknown>,
      options?: { mergeWithLastSubmission?: boolean },
    ): Promise<void>;
  }
}
