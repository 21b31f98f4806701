import type { ApiFailure } from '@impeto/shared';
import { msg } from '@impeto/shared/core';
import { clearSession, getToken, rememberOrigin } from './session.ts';

/** The spec's three services are route groups of one server (DESIGN.md §4); kept apart so they can split later. */
export const API_BASE = {
  main: '/api',
  momentum: '/api',
  analytics: '/api',
} as const;
export type ApiService = keyof typeof API_BASE;

export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly fields?: Record<string, string>;
  constructor(status: number, failure: ApiFailure) {
    super(failure.message);
    this.name = 'ApiError';
    this.status = status;
    this.code = failure.code;
    if (failure.fields) this.fields = failure.fields;
  }
}

export const isApiError = (error: unknown): error is ApiError => error instanceof ApiError;

/** The message to show for any failure: the server's text, or a pt-BR fallback. */
export const errorMessage = (error: unknown) =>
  isApiError(error) && error.message ? error.message : msg.common.internal;

interface EnvelopeKey {
  _pid: string;
  public_key: string;
}
let envelopeKey: Promise<EnvelopeKey> | null = null;

const canSeal = () => Boolean(globalThis.crypto?.subtle);

function fetchEnvelopeKey(): Promise<EnvelopeKey> {
  envelopeKey ??= request<EnvelopeKey>('GET', '/envelope/key', { auth: false }).then(
    (answer) => answer.data,
    (error: unknown) => {
      envelopeKey = null;
      throw error;
    },
  );
  return envelopeKey;
}

export const resetEnvelopeKey = () => {
  envelopeKey = null;
};

export interface RequestOptions {
  service?: ApiService;
  /** Send the bearer token (default: whenever signed in). */
  auth?: boolean;
  signal?: AbortSignal;
}

async function readBody(response: Response): Promise<unknown> {
  const text = await response.text();
  if (!text) return null;
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

const asFailure = (body: unknown, status: number): ApiFailure => {
  if (body && typeof body === 'object' && typeof (body as ApiFailure).message === 'string') {
    const b = body as ApiFailure;
    return {
      message: b.message,
      code: typeof b.code === 'string' ? b.code : `HTTP_${status}`,
      ...(b.fields ? { fields: b.fields } : {}),
    };
  }
  return { message: status === 401 ? msg.common.unauthorized : msg.common.internal, code: `HTTP_${status}` };
};

/** Raw call: returns the whole `{ message, data }` success body; throws ApiError on any non-200. */
export async function request<T>(
  method: string,
  path: string,
  options: RequestOptions & { body?: unknown } = {},
  retriedKey = false,
): Promise<{ message: string; data: T }> {
  const token = options.auth === false ? null : getToken();
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    Accept: 'application/json',
    'Accept-Language': 'pt_BR',
  };
  if (token) headers.Authorization = `Bearer ${token}`;

  let body: string | undefined;
  let sealed = false;
  if (options.body !== undefined) {
    body = JSON.stringify(options.body);
    if (canSeal()) {
      try {
        // The HPKE code (~10 KB) is fetched with the first request that has a body, not with every page.
        const [{ sealEnvelope }, key] = await Promise.all([import('@impeto/shared/envelope'), fetchEnvelopeKey()]);
        body = JSON.stringify(await sealEnvelope(key, options.body));
        sealed = true;
      } catch {
        // No key or no X25519 in this browser's WebCrypto: plain JSON stays accepted (DESIGN.md §11).
      }
    }
  }

  let response: Response;
  try {
    response = await fetch(`${API_BASE[options.service ?? 'main']}${path}`, {
      method,
      headers,
      ...(body !== undefined ? { body } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
  } catch (error) {
    if ((error as Error)?.name === 'AbortError') throw error;
    throw new ApiError(0, { message: msg.common.internal, code: 'NETWORK_ERROR' });
  }

  const parsed = await readBody(response);
  if (response.status === 200) return (parsed ?? { message: '', data: null }) as { message: string; data: T };

  const failure = asFailure(parsed, response.status);
  if (sealed && !retriedKey && response.status === 400 && failure.code === 'ENVELOPE_UNKNOWN_KEY') {
    resetEnvelopeKey();
    return request<T>(method, path, options, true);
  }
  if (response.status === 401 && token) {
    rememberOrigin(`${globalThis.location?.pathname ?? '/'}${globalThis.location?.search ?? ''}`);
    // The guard sees the session go and sends the user to /signin.
    clearSession('unauthorized');
  }
  throw new ApiError(response.status, failure);
}

export const api = {
  get: <T>(path: string, options?: RequestOptions) => request<T>('GET', path, options),
  post: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('POST', path, { ...options, body }),
  put: <T>(path: string, body?: unknown, options?: RequestOptions) => request<T>('PUT', path, { ...options, body }),
  delete: <T>(path: string, body?: unknown, options?: RequestOptions) =>
    request<T>('DELETE', path, { ...options, body }),
};
