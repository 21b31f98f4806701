export * from './auth/auth.schema.ts';
export * from './domains/domain.schema.ts';
export * from './domains/snippet.ts';
export * from './envelope.ts';
export * from './messages.ts';
