export * from './auth/auth.schema.ts';
export * from './channels/channel.schema.ts';
export * from './company/company.schema.ts';
export * from './domains/domain.schema.ts';
export * from './domains/snippet.ts';
export * from './envelope.ts';
export * from './media/media.schema.ts';
export * from './messages.ts';
