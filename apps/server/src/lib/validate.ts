import { msg } from '@impeto/shared';
import type { z } from 'zod';
import { AppError } from './errors.ts';
import { describeIssues } from './missing-fields.ts';

/** Validates inside a handler (for bodies whose schema depends on their shape), with the same 400 as route validation. */
export function parseBody<T extends z.ZodType>(schema: T, value: unknown): z.output<T> {
  const result = schema.safeParse(value);
  if (result.success) return result.data;
  const { message, fields } = describeIssues(result.error.issues, value);
  throw new AppError('VALIDATION_FAILED', 400, message || msg.common.invalidInput, fields);
}
