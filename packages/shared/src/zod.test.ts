import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createDomainSchema, msg } from './index.ts';

describe('zod messages', () => {
  it('are pt-BR wherever a schema leaves the wording to zod', () => {
    const issues = (schema: z.ZodType, value: unknown) => schema.safeParse(value).error?.issues.map((i) => i.message);
    expect(issues(createDomainSchema(false), {})).toEqual([msg.input.required]);
    expect(issues(z.object({ n: z.number() }), { n: 'x' })).toEqual([
      'Entrada inválida: esperava um número, recebeu um texto',
    ]);
    expect(issues(z.string().max(3), 'abcd')).toEqual(['Grande demais: esperava que o texto tivesse <= 3 caracteres']);
    expect(issues(z.object({}).strict(), { a: 1 })).toEqual(['Chave inválida: "a"']);
    expect(issues(z.enum(['a', 'b']), 'c')?.[0]).toMatch(/^Opção inválida/);
  });

  it("keep a schema's own message", () => {
    expect(z.string({ error: 'Informe o nome' }).safeParse(undefined).error?.issues[0]?.message).toBe('Informe o nome');
  });
});
