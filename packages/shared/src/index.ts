import './zod-locale.ts';

export * from './auth/auth.schema.ts';
export * from './channels/channel.schema.ts';
export * from './collect/collect.schema.ts';
export * from './company/company.schema.ts';
export * from './domains/domain.schema.ts';
export * from './domains/snippet.ts';
export * from './engine/onsite.schema.ts';
export * from './envelope.ts';
export * from './media/media.schema.ts';
export * from './messages.ts';
export * from './momentums/blocks.schema.ts';
export * from './momentums/momentum.schema.ts';
export { configureZodMessages } from './zod-locale.ts';
