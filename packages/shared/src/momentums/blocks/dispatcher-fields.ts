import { z } from '../../zod.ts';
import { m, seconds, toList } from './common.ts';

// Field types of the channels' dispatcher values (the GCD's included).

export const httpUrl = (message: string) =>
  z
    .string({ error: message })
    .trim()
    .refine((v) => {
      try {
        const u = new URL(v);
        return (u.protocol === 'https:' || u.protocol === 'http:') && u.hostname !== '';
      } catch {
        return false;
      }
    }, message);
export const text = (message: string, max = 5000) =>
  z.string({ error: message }).trim().min(1, message).max(max, message);
export const intervalRecurrency = z
  .preprocess(toList, z.array(seconds(m.intervalsInvalid, 1), { error: m.intervalsInvalid }))
  .pipe(z.array(z.number()).max(50, m.tooManyIntervals))
  .optional()
  .transform((v) => v ?? []);
