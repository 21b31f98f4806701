import { createChannelSchema, msg, updateChannelSchema } from '@impeto/shared';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { principalOf } from '../../lib/auth-guard.ts';
import type { AppContext } from '../../lib/context.ts';
import { ok } from '../../lib/reply.ts';
import * as channels from './channels.service.ts';

/** Delivery channels of a domain (spec doc 1 §2 channels page, §7). Secrets go in, never out. */
export function channelsRoutes(ctx: AppContext) {
  return async (app: FastifyInstance) => {
    const r = app.withTypeProvider<ZodTypeProvider>();

    r.get(
      '/domain/channels/:domain',
      { schema: { tags: ['channels'], params: z.object({ domain: z.string() }) } },
      async (req) =>
        ok(msg.channel.listed, await channels.listChannels(ctx, principalOf(req).companyUuid, req.params.domain)),
    );

    r.post('/channel/create', { schema: { tags: ['channels'], body: createChannelSchema } }, async (req) =>
      ok(msg.channel.created, await channels.createChannel(ctx, principalOf(req).companyUuid, req.body.channel)),
    );

    r.put('/channel/update', { schema: { tags: ['channels'], body: updateChannelSchema } }, async (req) =>
      ok(msg.channel.updated, await channels.updateChannel(ctx, principalOf(req).companyUuid, req.body.channel)),
    );
  };
}
