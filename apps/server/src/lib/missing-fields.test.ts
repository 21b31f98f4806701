import { msg } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createDomain, createTestApp, signUpAndSignIn, type TestApp } from '../../test/harness.ts';

/** Issue #29: a body missing required fields is told which, never 'Recurso não encontrado.'. */
let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string };

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja', 'https://loja-campos.com.br');
});
afterAll(() => t.close());

describe('bodies missing required fields', () => {
  it('a momentum without domain_uuid: 400 naming the field, not a not-found message', async () => {
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      { type: 'momentum', momentum_title: 'x' },
      owner.token,
    );
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({
      message: 'Falta o campo obrigatório domain_uuid.',
      code: 'VALIDATION_FAILED',
      fields: { domain_uuid: msg.input.required },
    });
  });

  it('names every missing field, nested ones by their path, and keeps the messages of fields that are wrong', async () => {
    const res = await call(t.app, 'POST', '/api/domain/create', { domain: { name: 'Loja' } }, owner.token);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Faltam os campos obrigatórios domain.company_uuid e domain.domain.');
    expect(res.body.fields).toEqual({
      'domain.company_uuid': msg.input.required,
      'domain.domain': msg.domain.urlInvalid,
    });
    const validate = await call(t.app, 'POST', '/api/gero/validate', { gero: {} }, owner.token);
    expect(validate.status).toBe(400);
    expect(validate.body.message).toBe('Falta o campo obrigatório gero.domain_uuid.');
    const update = await call(
      t.app,
      'PUT',
      '/api/momentum/update',
      { domain_uuid: domain.uuid, type: 'momentum', momentum_title: 'x' },
      owner.token,
    );
    expect(update.status).toBe(400);
    expect(update.body.message).toBe('Falta o campo obrigatório uuid.');
  });

  it("keeps the spec's own required messages (a sign-up without its fields)", async () => {
    const res = await call(t.app, 'POST', '/api/users/signup', { user: { company_uuid: domain.uuid } });
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(msg.signup.fullnameRequired);
  });

  it('a present but malformed value keeps its own message', async () => {
    const res = await call(
      t.app,
      'POST',
      '/api/momentum/create',
      { domain_uuid: 'nao-e-uuid', type: 'momentum', momentum_title: 'x' },
      owner.token,
    );
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Momentum não encontrado.');
  });
});
