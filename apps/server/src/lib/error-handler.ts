import { msg } from '@impeto/shared';
import type { FastifyError, FastifyInstance, FastifyRequest } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from './errors.ts';
import { describeIssues } from './missing-fields.ts';

interface ValidationIssue {
  instancePath?: string;
  message?: string;
  /** zod's issue code (fastify-type-provider-zod puts it here). */
  keyword?: string;
}

/** What a route validated, by Fastify's validation context: the missing-field check reads it. */
const SOURCES: Record<string, (request: FastifyRequest) => unknown> = {
  body: (r) => r.body,
  querystring: (r) => r.query,
  params: (r) => r.params,
  headers: (r) => r.headers,
};

/** Fastify's own errors, by code, in pt_BR: never English on the wire. */
const FASTIFY_ERRORS: Record<string, [number, string, string]> = {
  FST_ERR_CTP_EMPTY_JSON_BODY: [400, 'EMPTY_BODY', msg.common.emptyBody],
  FST_ERR_CTP_INVALID_JSON_BODY: [400, 'INVALID_JSON', msg.common.invalidJson],
  FST_ERR_CTP_INVALID_MEDIA_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', msg.common.unsupportedMediaType],
  FST_ERR_CTP_INVALID_CONTENT_LENGTH: [400, 'INVALID_CONTENT_LENGTH', msg.common.invalidInput],
  FST_ERR_CTP_BODY_TOO_LARGE: [413, 'BODY_TOO_LARGE', msg.common.bodyTooLarge],
  FST_ERR_CTP_INVALID_TYPE: [415, 'UNSUPPORTED_MEDIA_TYPE', msg.common.unsupportedMediaType],
};

const fieldPath = (issue: ValidationIssue) => (issue.instancePath ?? '').replace(/^\//, '').replaceAll('/', '.');

/** One error handler: every failure leaves as `{ message, code, fields? }`. */
export function installErrorHandler(app: FastifyInstance) {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      request.log.warn({ code: error.code }, error.message);
      return reply.code(error.statusCode).send({ message: error.message, code: error.code, fields: error.fields });
    }
    if (hasZodFastifySchemaValidationErrors(error) || error.validation) {
      const issues = (error.validation ?? []) as ValidationIssue[];
      const sent = SOURCES[error.validationContext ?? 'body']?.(request);
      const { message, fields } = describeIssues(
        issues
          .filter((i) => i.message)
          .map((i) => ({
            path: fieldPath(i) ? fieldPath(i).split('.') : [],
            message: i.message!,
            ...(i.keyword ? { code: i.keyword } : {}),
          })),
        sent,
      );
      request.log.warn({ fields }, 'validação recusou a requisição');
      return reply.code(400).send({ message, code: 'VALIDATION_FAILED', fields });
    }
    const known = error.code ? FASTIFY_ERRORS[error.code] : undefined;
    if (known) {
      const [status, code, message] = known;
      request.log.warn({ code: error.code }, message);
      return reply.code(status).send({ message, code });
    }
    const status = error.statusCode ?? 500;
    if (status === 429) return reply.code(429).send({ message: msg.common.tooManyRequests, code: 'TOO_MANY_REQUESTS' });
    if (status >= 400 && status < 500) {
      request.log.warn({ err: error }, 'requisição recusada');
      return reply.code(status).send({ message: msg.common.invalidInput, code: 'BAD_REQUEST' });
    }
    request.log.error({ err: error }, 'erro interno');
    return reply.code(500).send({ message: msg.common.internal, code: 'INTERNAL' });
  });
}
