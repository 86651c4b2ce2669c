import { describe, expect, it } from 'vitest';
import { EnvError, parseEnv, repoRoot } from './env.ts';

/** Parses and returns the problems listed, or [] when the config is valid. */
function listProblems(source: Record<string, string>): string[] {
  try {
    parseEnv(source);
    return [];
  } catch (error) {
    if (error instanceof EnvError) return error.problems;
    throw error;
  }
}

describe('parseEnv', () => {
  it('boots with nothing configured: embedded defaults', () => {
    const env = parseEnv({});
    expect(env).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      publicUrl: 'http://localhost:3000',
      localAccounts: true,
      google: undefined,
      oidc: undefined,
      costPerDocumentInr: 50,
      logLevel: 'info',
    });
    expect(env.dataDir).toBe(`${repoRoot}data`);
  });

  it('lists every bad value at once', () => {
    const problems = listProblems({
      PORT: 'eighty',
      DATABASE_URL: 'mysql://x',
      PUBLIC_URL: 'not a url',
      LOCAL_ACCOUNTS: 'maybe',
      COST_PER_DOCUMENT_INR: '-1',
      LOG_LEVEL: 'loud',
    });
    expect(problems).toHaveLength(6);
    expect(problems).toEqual(
      expect.arrayContaining([
        'PORT: must be a number',
        'DATABASE_URL: must be a postgres:// URL',
        'PUBLIC_URL: must be an absolute URL',
        'LOCAL_ACCOUNTS: must be true or false',
        'COST_PER_DOCUMENT_INR: must not be negative',
      ]),
    );
    expect(problems.find((p) => p.startsWith('LOG_LEVEL'))).toMatch(/must be one of/);
  });

  it('checks that provider settings come in complete sets and that someone can sign in', () => {
    expect(listProblems({ GOOGLE_CLIENT_ID: 'id' })).toEqual([
      'GOOGLE_CLIENT_ID/GOOGLE_CLIENT_SECRET: set both or neither',
    ]);
    expect(listProblems({ OIDC_CLIENT_ID: 'id' })).toEqual([
      'OIDC_DISCOVERY_URL/OIDC_CLIENT_ID/OIDC_CLIENT_SECRET: set all three or none',
    ]);
    expect(listProblems({ LOCAL_ACCOUNTS: 'false' })[0]).toMatch(/no way to sign in/);
  });

  it('configures Google and a generic OIDC provider, resolving DATA_DIR against the repo root', () => {
    const env = parseEnv({
      PORT: '8080',
      DATA_DIR: 'var/bahi',
      PUBLIC_URL: 'https://bahi.example.com/',
      LOCAL_ACCOUNTS: 'false',
      GOOGLE_CLIENT_ID: 'gid',
      GOOGLE_CLIENT_SECRET: 'gsecret',
      OIDC_DISCOVERY_URL: 'https://sso.example.com/.well-known/openid-configuration',
      OIDC_CLIENT_ID: 'oid',
      OIDC_CLIENT_SECRET: 'osecret',
      OIDC_PROVIDER_NAME: 'Okta',
      TRUSTED_ORIGINS: 'http://localhost:5173, http://127.0.0.1:5173/',
    });
    expect(env.publicUrl).toBe('https://bahi.example.com');
    expect(env.dataDir).toBe(`${repoRoot}var/bahi`);
    expect(env.localAccounts).toBe(false);
    expect(env.google).toMatchObject({ id: 'google', name: 'Google', clientId: 'gid' });
    expect(env.google?.discoveryUrl).toBe('https://accounts.google.com/.well-known/openid-configuration');
    expect(env.oidc).toMatchObject({ id: 'oidc', name: 'Okta', clientSecret: 'osecret' });
    expect(env.trustedOrigins).toEqual(['http://localhost:5173', 'http://127.0.0.1:5173']);
  });

  it('treats empty values as unset', () => {
    expect(parseEnv({ PORT: '', DATABASE_URL: '', LOCAL_ACCOUNTS: '' })).toMatchObject({
      port: 3000,
      databaseUrl: undefined,
      localAccounts: true,
    });
  });

  it('reads folder roots bare (the first organisation) or granted to an organisation by id', () => {
    const org = '0b7e3c2a-5d1f-4c8e-9a6b-2f4d8e1c7a90';
    expect(
      parseEnv({ BAHI_FOLDER_ROOTS: ` /srv/shared , /srv/acme=${org.toUpperCase()}` }).flows.folderRoots,
    ).toEqual([
      { path: '/srv/shared', organizationId: undefined },
      { path: '/srv/acme', organizationId: org },
    ]);
    expect(listProblems({ BAHI_FOLDER_ROOTS: 'srv/relative,/srv/acme=acme' })).toEqual([
      'BAHI_FOLDER_ROOTS: "srv/relative" is not an absolute path',
      'BAHI_FOLDER_ROOTS: "/srv/acme=acme" must end in an organisation id (a UUID) after "="',
    ]);
  });

  it('reads outgoing mail all or nothing, with a From address and no header injection', () => {
    expect(parseEnv({}).smtp).toBeUndefined();
    expect(
      parseEnv({ SMTP_HOST: 'mail.example.test', SMTP_PORT: '465', MAIL_FROM: 'AP <ap@example.test>' }).smtp,
    ).toEqual({
      host: 'mail.example.test',
      port: 465,
      secure: true,
      user: undefined,
      password: undefined,
      from: 'AP <ap@example.test>',
    });
    expect(parseEnv({ SMTP_HOST: 'mail.example.test', MAIL_FROM: 'ap@example.test' }).smtp?.port).toBe(587);
    expect(listProblems({ SMTP_USER: 'ap' })).toEqual([
      'SMTP_HOST: set it (the mail server) or unset every SMTP_* and MAIL_FROM',
    ]);
    expect(listProblems({ SMTP_HOST: 'mail.example.test', SMTP_USER: 'ap' })).toEqual([
      'MAIL_FROM: set the address Bahi sends mail from',
      'SMTP_USER/SMTP_PASSWORD: set both or neither',
    ]);
    expect(
      listProblems({ SMTP_HOST: 'mail.example.test', MAIL_FROM: 'ap@example.test\r\nBcc: x@y.test' }),
    ).toEqual(['MAIL_FROM: must be an e-mail address, e.g. "Accounts <ap@example.com>"']);
  });
});
