export * from './activity.ts';
export * from './auth.ts';
export * from './blobs.ts';
export * from './flows.ts';
export * from './google.ts';
export * from './interests.ts';
export * from './notifications.ts';
export * from './organizations.ts';
