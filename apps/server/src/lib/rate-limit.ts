import { msg } from '@impeto/shared';
import { AppError } from './errors.ts';

/**
 * A fixed-window counter per key, in process memory. @fastify/rate-limit runs one limiter per request,
 * and sign-in needs two (per IP and per username), so auth uses this. Several API processes each keep
 * their own windows: the effective limit is N times higher, which is acceptable for brute-force damping.
 */
export function createLimiter(max: number, windowMs: number, now: () => number = Date.now) {
  const windows = new Map<string, { count: number; resetAt: number }>();
  let sweepAt = 0;
  return (key: string) => {
    const t = now();
    if (t > sweepAt) {
      for (const [k, w] of windows) if (w.resetAt <= t) windows.delete(k);
      sweepAt = t + windowMs;
    }
    let w = windows.get(key);
    if (!w || w.resetAt <= t) {
      w = { count: 0, resetAt: t + windowMs };
      windows.set(key, w);
    }
    w.count++;
    if (w.count > max) throw new AppError('TOO_MANY_REQUESTS', 429, msg.common.tooManyRequests);
  };
}
