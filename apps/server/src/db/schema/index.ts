export * from '../../modules/google/google.schema.ts';
export * from './activity.ts';
export * from './auth.ts';
export * from './blobs.ts';
export * from './flows.ts';
export * from './interests.ts';
export * from './notifications.ts';
export * from './organizations.ts';
