export * from './auth.ts';
export * from './dashboard.ts';
export * from './errors.ts';
export * from './health.ts';
export * from './integrations.ts';
export * from './interest.ts';
export * from './notifications.ts';
export * from './organization.ts';
