import { describe, expect, it } from 'vitest';
import { decideRoute } from './route-guard.ts';

describe('decideRoute', () => {
  it('waits while the session loads', () => {
    expect(decideRoute({ pathname: '/profile', session: 'loading' })).toEqual({ kind: 'loading' });
  });

  it('lets signed-out visitors see only the public pages', () => {
    for (const pathname of ['/login', '/signup', '/terms-and-conditions', '/privacy-policy']) {
      expect(decideRoute({ pathname, session: 'signed-out' })).toEqual({ kind: 'render' });
    }
    for (const pathname of ['/', '/profile', '/onboarding', '/nope', '/__error-test']) {
      expect(decideRoute({ pathname, session: 'signed-out' })).toEqual({ kind: 'redirect', to: '/signup' });
    }
  });

  it('sends signed-in users away from the auth pages', () => {
    const state = { session: 'signed-in', hasOrganization: true } as const;
    expect(decideRoute({ ...state, pathname: '/login' })).toEqual({ kind: 'redirect', to: '/' });
    expect(decideRoute({ ...state, pathname: '/signup' })).toEqual({ kind: 'redirect', to: '/' });
    expect(decideRoute({ ...state, pathname: '/onboarding' })).toEqual({ kind: 'redirect', to: '/' });
  });

  it('renders app paths and sends unknown paths home', () => {
    const state = { session: 'signed-in', hasOrganization: true } as const;
    expect(decideRoute({ ...state, pathname: '/working-capital' })).toEqual({ kind: 'render' });
    expect(decideRoute({ ...state, pathname: '/profile/' })).toEqual({ kind: 'redirect', to: '/profile' });
    expect(decideRoute({ ...state, pathname: '/does-not-exist' })).toEqual({ kind: 'redirect', to: '/' });
    expect(decideRoute({ ...state, pathname: '/terms-and-conditions' })).toEqual({ kind: 'render' });
  });

  it("renders a flow's sheet route, and opens it from links stored in the older /flows/<id> form", () => {
    const state = { session: 'signed-in', hasOrganization: true } as const;
    const id = '6f1c2b9e-0d4a-4f7e-9b1a-3c5d7e9f1a2b';
    expect(decideRoute({ ...state, pathname: `/flows/${id}/sheet` })).toEqual({ kind: 'render' });
    expect(decideRoute({ ...state, pathname: `/flows/${id}/sheet/` })).toEqual({
      kind: 'redirect',
      to: `/flows/${id}/sheet`,
    });
    expect(decideRoute({ ...state, pathname: `/flows/${id}` })).toEqual({
      kind: 'redirect',
      to: `/flows/${id}/sheet`,
    });
    expect(decideRoute({ session: 'signed-out', pathname: `/flows/${id}/sheet` })).toEqual({
      kind: 'redirect',
      to: '/signup',
    });
  });

  it("renders a document's review screen", () => {
    const state = { session: 'signed-in', hasOrganization: true } as const;
    const path = '/flows/6f1c2b9e-0d4a-4f7e-9b1a-3c5d7e9f1a2b/documents/0b7d3c2a-1e4f-4a6b-8c9d-0e1f2a3b4c5d';
    expect(decideRoute({ ...state, pathname: path })).toEqual({ kind: 'render' });
    expect(decideRoute({ ...state, pathname: `${path}/` })).toEqual({ kind: 'redirect', to: path });
    expect(decideRoute({ session: 'signed-out', pathname: path })).toEqual({
      kind: 'redirect',
      to: '/signup',
    });
  });

  it('sends users without an organisation to onboarding first', () => {
    const state = { session: 'signed-in', hasOrganization: false } as const;
    expect(decideRoute({ ...state, pathname: '/' })).toEqual({ kind: 'redirect', to: '/onboarding' });
    expect(decideRoute({ ...state, pathname: '/login' })).toEqual({ kind: 'redirect', to: '/onboarding' });
    expect(decideRoute({ ...state, pathname: '/onboarding' })).toEqual({ kind: 'render' });
    expect(decideRoute({ ...state, pathname: '/privacy-policy' })).toEqual({ kind: 'render' });
  });

  it('waits for the organisation before deciding', () => {
    expect(decideRoute({ pathname: '/', session: 'signed-in' })).toEqual({ kind: 'loading' });
  });

  it('renders the error-test route for anyone only when enabled', () => {
    expect(decideRoute({ pathname: '/__error-test', session: 'signed-out', errorTestEnabled: true })).toEqual(
      {
        kind: 'render',
      },
    );
    expect(
      decideRoute({
        pathname: '/__error-test',
        session: 'signed-in',
        hasOrganization: true,
        errorTestEnabled: false,
      }),
    ).toEqual({ kind: 'redirect', to: '/' });
  });

  it('opens an invitation link for anyone, and returns to it after signing up or in', () => {
    const invite = `/invite/${'t'.repeat(43)}`;
    expect(decideRoute({ pathname: invite, session: 'signed-out' })).toEqual({ kind: 'render' });
    expect(decideRoute({ pathname: invite, session: 'signed-in', hasOrganization: false })).toEqual({
      kind: 'render',
    });
    expect(
      decideRoute({
        pathname: '/onboarding',
        session: 'signed-in',
        hasOrganization: false,
        pendingInvite: invite,
      }),
    ).toEqual({ kind: 'redirect', to: invite });
    expect(decideRoute({ pathname: '/team', session: 'signed-in', hasOrganization: true })).toEqual({
      kind: 'render',
    });
  });
});
