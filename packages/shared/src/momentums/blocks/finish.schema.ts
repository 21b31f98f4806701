import { z } from '../../zod.ts';
import { firstItem, m } from './common.ts';

/**
 * The schedule and finish pickers run on a 15-minute grid (spec doc 2 §5, §9): HH:00, :15, :30 or :45, no seconds.
 * Brazil's offsets are whole hours, so the grid is the same in UTC.
 */
export function isOnQuarterHour(iso: string): boolean {
  const at = new Date(iso);
  return (
    !Number.isNaN(at.getTime()) &&
    at.getUTCMinutes() % 15 === 0 &&
    at.getUTCSeconds() === 0 &&
    at.getUTCMilliseconds() === 0
  );
}

export const finishBlockSchema = z.object(
  {
    type: z.literal('finish', { error: m.blockInvalid }),
    values: z.preprocess(
      firstItem,
      z
        .array(
          z.object(
            {
              type: z.literal('finish', { error: m.finishType }),
              filter: z.literal('stop_momentum', { error: m.finishFilter }),
              value: z.iso.datetime({ offset: true, error: m.finishDateInvalid }).refine(isOnQuarterHour, m.finishGrid),
            },
            { error: m.finishDateInvalid },
          ),
          { error: m.finishDateInvalid },
        )
        .min(1, m.finishDateInvalid)
        .max(1, m.finishDateInvalid),
    ),
  },
  { error: m.blockInvalid },
);
export type FinishBlockInput = z.input<typeof finishBlockSchema>;
export type FinishBlock = z.output<typeof finishBlockSchema>;
