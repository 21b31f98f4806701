import { msg, sealEnvelope } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  blocks,
  call,
  companyForm,
  createDomain,
  createMomentum,
  createTestApp,
  signUpAndSignIn,
  type TestApp,
} from '../../test/harness.ts';
import { findUnstorable } from './text-guard.ts';

const NUL = '\u0000';
const SITE = 'https://loja-nulo.com.br';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: { uuid: string; gero_id: string };
let momentum: { uuid: string };
beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  domain = await createDomain(t.app, owner, 'Loja', SITE);
  momentum = await createMomentum(t.app, owner, domain.uuid, 'Boas-vindas', [
    blocks.everyone,
    blocks.pageviewContaining('/produto'),
    blocks.topbar(),
  ]);
});
afterAll(() => t.close());

describe('NUL characters', () => {
  it('are found in texts and keys, at any depth, with unpaired surrogates', () => {
    expect(findUnstorable({ a: [{ b: 'ok' }, { c: `x${NUL}` }] })).toEqual({ path: 'a.1.c', nul: true });
    expect(findUnstorable({ [`k${NUL}`]: 1 })).toEqual({ path: `k${NUL}`, nul: true });
    expect(findUnstorable(`a${NUL}`)).toEqual({ path: 'body', nul: true });
    expect(findUnstorable({ a: ['x\ud800y'] })).toEqual({ path: 'a.0', nul: false });
    expect(findUnstorable({ a: ['ok', 1, null, true, { b: 'São Paulo \u0001 😀 \ud83d\ude00' }] })).toBeUndefined();
  });

  it('are refused with a 400 in pt-BR on every route that used to answer 500', async () => {
    const company = owner.company.uuid;
    const form = companyForm({ razao_social: `Padaria${NUL}` });
    const momentumBody = {
      domain_uuid: domain.uuid,
      type: 'momentum',
      momentum_title: `Carrinho${NUL}`,
      status: 'Draft',
      momentums: [blocks.everyone, blocks.pageviewContaining('/carrinho'), blocks.topbar()],
    };
    const cases: [string, string, unknown, string][] = [
      ['POST', '/api/company/create', { company: { name: `Loja${NUL}` } }, 'company.name'],
      ['POST', '/api/users/signup', { company: { name: `Loja${NUL}` } }, 'company.name'],
      ['POST', `/api/company/${company}/step2`, { company: form }, 'company.razao_social'],
      ['PUT', `/api/company/update/${company}`, { company: form }, 'company.razao_social'],
      [
        'POST',
        '/api/domain/create',
        { domain: { company_uuid: company, name: `Outra${NUL}`, domain: 'https://outra.com.br' } },
        'domain.name',
      ],
      ['PUT', `/api/domain/update/${domain.uuid}`, { domain: { name: `L${NUL}`, address: SITE } }, 'domain.name'],
      ['PUT', '/api/domain/update', { domain: { uuid: domain.uuid, name: `L${NUL}`, address: SITE } }, 'domain.name'],
      [
        'POST',
        '/api/channel/create',
        {
          channel: {
            domain_uuid: domain.uuid,
            channel_type: 'ZENVIA',
            properties: { login: 'l', password: 'p', sender: `S${NUL}` },
          },
        },
        'channel.properties.sender',
      ],
      [
        'POST',
        `/api/gallery/upload/${domain.uuid}/domain`,
        {
          images: [
            {
              name: `a${NUL}.png`,
              data: 'data:image/png;base64,iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
            },
          ],
        },
        'images.0.name',
      ],
      ['POST', '/api/momentum/create', momentumBody, 'momentum_title'],
      ['PUT', '/api/momentum/update', { ...momentumBody, uuid: momentum.uuid }, 'momentum_title'],
      [
        'POST',
        `/api/person/search/peopleImpacted/${domain.uuid}`,
        {
          momentums: [
            { type: 'filter', values: [{ filter: 'user_stored_data.email', comparation: '==', value: [`a${NUL}`] }] },
          ],
        },
        'momentums.0.values.0.value.0',
      ],
      ['GET', `/api/person/search/${domain.uuid}/filter/user_stored_data.email?search=a%00`, undefined, 'search'],
      ['GET', `/api/person/event/filters/${domain.uuid}/key/a%00b`, undefined, 'key'],
      ['GET', '/t/config/G-%00', undefined, 'gero_id'],
      ['GET', '/t/sw.js?id=G-%00', undefined, 'id'],
      ['GET', `/collect/pending?id=${domain.gero_id}&vid=v%00`, undefined, 'vid'],
    ];
    const wrong: string[] = [];
    for (const [method, url, body, field] of cases) {
      const res = await call(t.app, method as 'GET', url, body, owner.token);
      const ok =
        res.status === 400 &&
        res.body.message === msg.input.nulCharacter &&
        res.body.fields?.[field] === msg.input.nulCharacter;
      if (!ok) wrong.push(`${method} ${url} → ${res.status} ${JSON.stringify(res.body)}`);
    }
    expect(wrong).toEqual([]);
  });

  it('are refused inside a sealed envelope too, once it is opened', async () => {
    const key = (await call(t.app, 'GET', '/api/envelope/key')).body.data;
    const sealed = await sealEnvelope(key, { company: { name: `Loja${NUL}` } });
    const res = await call(t.app, 'POST', '/api/company/create', sealed);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe(msg.input.nulCharacter);
  });
});

describe('unpaired surrogates', () => {
  it('are refused with a 400 in pt-BR instead of breaking a jsonb write', async () => {
    const form = companyForm({ inscricao_municipal: '\ud8001234567' });
    const res = await call(t.app, 'PUT', `/api/company/update/${owner.company.uuid}`, { company: form }, owner.token);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({
      message: msg.input.malformedText,
      code: 'MALFORMED_TEXT',
      fields: { 'company.inscricao_municipal': msg.input.malformedText },
    });
  });
});

describe('validation messages', () => {
  it('are pt-BR where a schema leaves the wording to zod', async () => {
    const empty = await call(t.app, 'POST', '/api/domain/create', {}, owner.token);
    expect(empty.status).toBe(400);
    expect(empty.body).toEqual({
      message: msg.input.required,
      code: 'VALIDATION_FAILED',
      fields: { domain: msg.input.required },
    });
    const page = await call(t.app, 'GET', `/api/person/list/${domain.uuid}?page=dois`, undefined, owner.token);
    expect(page.status).toBe(400);
    expect(page.body.message).toMatch(/^Entrada inválida: esperava um número/);
  });
});
