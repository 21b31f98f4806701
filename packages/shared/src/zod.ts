import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Every zod message that can reach a user is pt-BR: zod's own Brazilian locale for whatever a schema leaves to
 * zod, and 'Campo obrigatório.' for a missing value (zod's wording there names JavaScript types). Messages a
 * schema sets itself win over both. Every schema module of this package takes `z` from here, so the settings
 * are in place before any schema is built, whatever order a bundler gives the chunks.
 */
export function configureZodMessages() {
  z.config({
    ...z.locales.ptBR(),
    // zod compiles object parsers with `new Function` and probes for it as schemas are built; the dashboard's
    // CSP has no 'unsafe-eval', so in a browser every probe would be a reported violation. The server keeps
    // the compiled parsers (the collector's hot path).
    ...('document' in globalThis ? { jitless: true } : {}),
    customError: (issue) =>
      issue.code === 'invalid_type' && issue.input === undefined ? msg.input.required : undefined,
  });
}

configureZodMessages();

export { z };
