/** Allowed = Active and script validated (spec doc 1 §4). Zod-free: part of `@impeto/shared/core`. */
export const isDomainAllowed = (d: { status: string; gero_validate: boolean }) =>
  d.status === 'Active' && d.gero_validate;
