import { z } from 'zod';

/** The success envelope `{ message, data }` (DESIGN.md §4). */
export const ok = <T>(message: string, data: T) => ({ message, data });

export const successSchema = <T extends z.ZodType>(data: T) => z.object({ message: z.string(), data });
export const errorSchema = z.object({
  message: z.string(),
  code: z.string(),
  fields: z.record(z.string(), z.string()).optional(),
});
