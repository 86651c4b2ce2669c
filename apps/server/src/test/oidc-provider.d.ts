// oidc-provider ships no types; declare the little the OIDC sign-in test uses.
declare module 'oidc-provider' {
  import type { IncomingMessage, ServerResponse } from 'node:http';

  interface OidcAccount {
    accountId: string;
    claims(): Promise<Record<string, unknown>> | Record<string, unknown>;
  }

  interface OidcConfiguration {
    clients?: Array<Record<string, unknown>>;
    findAccount?: (ctx: unknown, sub: string) => Promise<OidcAccount | undefined> | OidcAccount | undefined;
    claims?: Record<string, string[] | null>;
    cookies?: { keys?: string[] };
    features?: Record<string, { enabled: boolean }>;
    [key: string]: unknown;
  }

  export default class Provider {
    constructor(issuer: string, configuration?: OidcConfiguration);
    callback(): (req: IncomingMessage, res: ServerResponse) => void;
    on(event: string, listener: (...args: unknown[]) => void): this;
  }
}
