import { isApiError } from './api.ts';

interface FormWithErrors {
  setFieldError: (path: string, error: string) => void;
}

/**
 * Puts the server's `fields` (paths like `company.document.number`) on the form's inputs. `toPath` maps a
 * server path to the form's path, or to undefined when the form has no such input. Returns how many were placed.
 */
export function applyFieldErrors(
  form: FormWithErrors,
  error: unknown,
  toPath: Record<string, string> | ((serverPath: string) => string | undefined),
): number {
  if (!isApiError(error) || !error.fields) return 0;
  let placed = 0;
  for (const [key, message] of Object.entries(error.fields)) {
    const path = typeof toPath === 'function' ? toPath(key) : toPath[key];
    if (path) {
      form.setFieldError(path, message);
      placed++;
    }
  }
  return placed;
}
