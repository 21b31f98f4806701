import { msg } from '@impeto/shared';

export class AppError extends Error {
  constructor(
    readonly code: string,
    readonly statusCode: number,
    message: string,
    readonly fields?: Record<string, string>,
  ) {
    super(message);
  }
}

export const notFound = (message: string = msg.common.notFound, code = 'NOT_FOUND') => new AppError(code, 404, message);
export const unauthorized = () => new AppError('UNAUTHORIZED', 401, msg.common.unauthorized);

/** PostgreSQL unique violation, read by SQLSTATE, never by message text (drizzle wraps driver errors in `cause`). */
export const isUniqueViolation = (err: unknown): err is { constraint?: string } => {
  const e = err as { code?: string; cause?: { code?: string } };
  return e?.code === '23505' || e?.cause?.code === '23505';
};
export const constraintOf = (err: unknown) => {
  const e = err as { constraint?: string; cause?: { constraint?: string } };
  return e?.constraint ?? e?.cause?.constraint;
};
