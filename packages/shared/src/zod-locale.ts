import { z } from 'zod';
import { msg } from './messages.ts';

/**
 * Every zod message that can reach a user is pt-BR: zod's own Brazilian locale for whatever a schema leaves to
 * zod, and 'Campo obrigatório.' for a missing value (zod's wording there names JavaScript types). Messages a
 * schema sets itself win over both. Runs once when @impeto/shared is imported, on the server and in the browser.
 */
export function configureZodMessages() {
  z.config({
    ...z.locales.ptBR(),
    customError: (issue) =>
      issue.code === 'invalid_type' && issue.input === undefined ? msg.input.required : undefined,
  });
}

configureZodMessages();
