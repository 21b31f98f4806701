import { msg } from '@impeto/shared';

/** One validation issue as both zod and fastify-type-provider-zod report it: a path and a message. */
export interface FieldIssue {
  path: PropertyKey[];
  message: string;
  code?: string;
}

/** The value at `path` in what was sent (undefined when any step is missing). */
function valueAt(root: unknown, path: PropertyKey[]): unknown {
  let at = root;
  for (const key of path) {
    if (at === null || typeof at !== 'object') return undefined;
    at = (at as Record<PropertyKey, unknown>)[key];
  }
  return at;
}

const joinNames = (names: string[]) =>
  names.length === 1 ? names[0]! : `${names.slice(0, -1).join(', ')} e ${names.at(-1)}`;

/** Schemas give some required ids a not-found message (`z.uuid(msg.common.notFound)`: right for a uuid that names nothing). */
const NOT_FOUND = /não encontrad[oa]\.$/u;

/**
 * Turns issues into the API's `{ message, fields }`. A field that was never sent cannot be 'not found': when such a
 * message would answer for an absent field (issue #29: 'Recurso não encontrado.' for a body without domain_uuid),
 * that field reads 'Campo obrigatório.' and the message names every absent field. Other messages, the spec's
 * required ones included ('Provide your fullname'), are kept as the schema says.
 */
export function describeIssues(issues: FieldIssue[], sent: unknown) {
  const fields: Record<string, string> = {};
  const absent: string[] = [];
  let misleading = false;
  for (const issue of issues) {
    const key = issue.path.map(String).join('.') || 'body';
    const isAbsent = issue.code === 'invalid_type' && issue.path.length > 0 && valueAt(sent, issue.path) === undefined;
    if (isAbsent && !absent.includes(key)) absent.push(key);
    const replace = isAbsent && NOT_FOUND.test(issue.message);
    if (replace) misleading = true;
    if (!fields[key]) fields[key] = replace ? msg.input.required : issue.message;
  }
  const message = !misleading
    ? (issues.find((i) => i.message)?.message ?? msg.common.invalidInput)
    : absent.length === 1
      ? `Falta o campo obrigatório ${absent[0]}.`
      : `Faltam os campos obrigatórios ${joinNames(absent)}.`;
  return { message, fields };
}
