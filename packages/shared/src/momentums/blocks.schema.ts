import { z } from '../zod.ts';
import { m } from './blocks/common.ts';
import { type DispatcherBlock, dispatcherBlockSchema } from './blocks/dispatcher.schema.ts';
import { type FilterBlock, filterBlockSchema } from './blocks/filter.schema.ts';
import { type FinishBlock, finishBlockSchema } from './blocks/finish.schema.ts';
import { type TriggerBlock, triggerBlockSchema } from './blocks/trigger.schema.ts';

// Momentum blocks (DESIGN.md §11, spec doc 2 §3.2–3.5, §5, READINGS ): one file per block kind
// under blocks/, re-exported here with the ordered list, so importers keep importing this file.

export * from './blocks/dcm-dispatcher.schema.ts';
export * from './blocks/dispatcher.schema.ts';
export * from './blocks/filter.schema.ts';
export * from './blocks/filter-keys.ts';
export * from './blocks/finish.schema.ts';
export * from './blocks/interval.ts';
export * from './blocks/messages.ts';
export * from './blocks/portable-regex.ts';
export * from './blocks/trigger.schema.ts';

export const BLOCK_TYPES = ['filter', 'trigger', 'dispatcher', 'finish'] as const;
export type BlockType = (typeof BLOCK_TYPES)[number];
export type MomentumBlock = FilterBlock | TriggerBlock | DispatcherBlock | FinishBlock;

const blockSchemas = {
  filter: filterBlockSchema,
  trigger: triggerBlockSchema,
  dispatcher: dispatcherBlockSchema,
  finish: finishBlockSchema,
} as const;

/**
 * A momentum's `momentums` list: filter, trigger, dispatcher, finish, in that order, each at most once and
 * each optional (drafts, campaigns without trigger and finish). Whether a status needs them all is the
 * service's rule, not this schema's.
 */
export const momentumBlocksSchema = z
  .array(z.looseObject({ type: z.enum(BLOCK_TYPES, { error: m.blockTypeInvalid }) }), { error: m.blockInvalid })
  .max(4, m.blocksOrder)
  .transform((blocks, ctx): MomentumBlock[] => {
    const out: MomentumBlock[] = [];
    let rank = -1;
    for (const [i, block] of blocks.entries()) {
      const r = BLOCK_TYPES.indexOf(block.type);
      if (r <= rank) {
        ctx.addIssue({ code: 'custom', message: m.blocksOrder, path: [i, 'type'] });
        return z.NEVER;
      }
      rank = r;
      const parsed = blockSchemas[block.type].safeParse(block);
      if (!parsed.success) {
        for (const issue of parsed.error.issues)
          ctx.addIssue({ code: 'custom', message: issue.message, path: [i, ...issue.path] as (string | number)[] });
        return z.NEVER;
      }
      out.push(parsed.data as MomentumBlock);
    }
    return out;
  });
export type MomentumBlocksInput = z.input<typeof momentumBlocksSchema>;
