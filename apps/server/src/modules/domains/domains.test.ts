import { msg, serviceWorkerFile, trackingSnippet } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';
import { startTestSite } from '../../../test/test-site.ts';

let t: TestApp;
let site: Awaited<ReturnType<typeof startTestSite>>;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000, allowPrivateFetch: true });
  site = await startTestSite();
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
});
afterAll(async () => {
  await site.close();
  await t.close();
});

const create = (name: string, domain: string, who = owner) =>
  call(t.app, 'POST', '/api/domain/create', { domain: { company_uuid: who.company.uuid, name, domain } }, who.token);
const list = async (who = owner) =>
  (await call(t.app, 'GET', `/api/domain/list/${who.company.uuid}`, undefined, who.token)).body.data as {
    uuid: string;
    name: string;
    status: string;
    gero_validate: boolean;
    gero_version: string;
    cn_sw_version: string;
    gero_id: string;
    domain: string;
    domain_root: string;
  }[];

describe('domains', () => {
  it('creates a domain with https added, a unique gero_id and the latest tag versions, unverified', async () => {
    const res = await create('Loja', 'loja-exemplo.com.br');
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.domain.created);
    expect(res.body.data).toMatchObject({
      name: 'Loja',
      domain: 'https://loja-exemplo.com.br/',
      domain_root: 'https://loja-exemplo.com.br',
      status: 'Active',
      active: true,
      gero_validate: false,
      gero_version: '1.7.0',
      cn_sw_version: '1.0.0',
    });
    const other = await create('Outra', 'https://outra-loja.com.br/ofertas');
    expect(other.body.data.gero_id).not.toBe(res.body.data.gero_id);
    expect((await list()).map((d) => d.name)).toEqual(expect.arrayContaining(['Loja', 'Outra']));
    expect(JSON.stringify(res.body)).not.toMatch(/vapid/i);
  });

  it('refuses an empty name, a bad URL and a duplicate with the spec messages', async () => {
    const noName = await create('  ', 'https://a.com.br');
    expect(noName.status).toBe(400);
    expect(noName.body.message).toBe('Por favor, informe um nome válido.');
    for (const bad of ['', 'não é url', 'ftp://x.com', 'https://semponto', 'http://site.com.br']) {
      const res = await create('Nome', bad);
      expect(res.status, bad).toBe(400);
      expect(res.body.message, bad).toBe('Por favor, informe uma URL válida contendo HTTPS.');
    }
    await create('Dup', 'dup.com.br');
    const dup = await create('Dup 2', 'https://dup.com.br/outra-pagina');
    expect(dup.status).toBe(409);
    expect(dup.body.message).toBe(msg.domain.duplicate);
  });

  it('edits, disables, enables and removes; another company gets 404 and changes nothing', async () => {
    const d = (await create('Editar', 'editar.com.br')).body.data;
    const foreign = await call(
      t.app,
      'PUT',
      `/api/domain/update/${d.uuid}`,
      { domain: { name: 'X', address: 'x.com.br' } },
      stranger.token,
    );
    expect(foreign.status).toBe(404);
    expect(
      (await call(t.app, 'DELETE', '/api/domain/remove', { domain: { uuid: d.uuid } }, stranger.token)).status,
    ).toBe(404);
    expect((await call(t.app, 'DELETE', `/api/domain/remove/${d.uuid}`, undefined, stranger.token)).status).toBe(404);
    expect(
      (await call(t.app, 'POST', '/api/gero/validate', { gero: { domain_uuid: d.uuid } }, stranger.token)).status,
    ).toBe(404);
    expect(
      (await call(t.app, 'PUT', `/api/gero/domain/${d.uuid}/version/1.0.0`, undefined, stranger.token)).status,
    ).toBe(404);
    expect((await call(t.app, 'GET', `/api/domain/list/${owner.company.uuid}`, undefined, stranger.token)).status).toBe(
      404,
    );
    expect((await list()).find((x) => x.uuid === d.uuid)).toMatchObject({ name: 'Editar', status: 'Active' });

    const edited = await call(
      t.app,
      'PUT',
      `/api/domain/update/${d.uuid}`,
      { domain: { name: 'Editado', address: 'editado.com.br' } },
      owner.token,
    );
    expect(edited.body).toMatchObject({
      message: msg.domain.updated,
      data: { name: 'Editado', domain: 'https://editado.com.br/' },
    });

    const disabled = await call(t.app, 'DELETE', '/api/domain/remove', { domain: { uuid: d.uuid } }, owner.token);
    expect(disabled.body.message).toBe('Domínio desativado com sucesso!');
    expect((await list()).find((x) => x.uuid === d.uuid)?.status).toBe('Inactive');

    const enabled = await call(
      t.app,
      'PUT',
      '/api/domain/update',
      { domain: { uuid: d.uuid, status: 'Active' } },
      owner.token,
    );
    expect(enabled.body.message).toBe('Domínio ativado com sucesso!');
    expect((await list()).find((x) => x.uuid === d.uuid)?.status).toBe('Active');

    const removed = await call(t.app, 'DELETE', `/api/domain/remove/${d.uuid}`, undefined, owner.token);
    expect(removed.status).toBe(200);
    expect((await list()).some((x) => x.uuid === d.uuid)).toBe(false);
    expect((await call(t.app, 'DELETE', `/api/domain/remove/${d.uuid}`, undefined, owner.token)).status).toBe(404);
  });

  it('lists the tag versions that exist and changes both versions', async () => {
    const gero = await call(t.app, 'GET', '/api/gero/version/list', undefined, owner.token);
    expect(gero.body.data).toEqual([
      { version: '1.0.0' },
      { version: '1.1.0' },
      { version: '1.2.0' },
      { version: '1.3.0' },
      { version: '1.4.0' },
      { version: '1.5.0' },
      { version: '1.6.0' },
      { version: '1.7.0' },
    ]);
    const cnsw = await call(t.app, 'GET', '/api/cnsw/version/list', undefined, owner.token);
    expect(cnsw.body.data).toEqual([{ version: '1.0.0' }]);

    const d = (await create('Versões', 'versoes.com.br')).body.data;
    const changed = await call(t.app, 'PUT', `/api/gero/domain/${d.uuid}/version/1.0.0`, undefined, owner.token);
    expect(changed.body.message).toBe('Versão do gero alterada com sucesso!');
    expect((await list()).find((x) => x.uuid === d.uuid)?.gero_version).toBe('1.0.0');
    const sw = await call(t.app, 'PUT', `/api/cnsw/domain/${d.uuid}/version/1.0.0`, undefined, owner.token);
    expect(sw.body.message).toBe('Versão do cnsw alterada com sucesso!');
    const unknown = await call(t.app, 'PUT', `/api/cnsw/domain/${d.uuid}/version/9.9.9`, undefined, owner.token);
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe('Não foi possível alterar a versão do cnsw. Tente novamente mais tarde.');
  });
});

describe('script verification', () => {
  it('validates only when the page carries the snippet with this gero_id and cn_sw.min.js imports our worker', async () => {
    const d = (await create('Site de teste', site.url)).body.data;
    expect(d.domain_root).toBe(site.url);
    const validate = () => call(t.app, 'POST', '/api/gero/validate', { gero: { domain_uuid: d.uuid } }, owner.token);
    const publicUrl = t.app.ctx.config.publicUrl;

    site.set('/', '<html><body>sem script</body></html>');
    let res = await validate();
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(msg.domain.validateFailed);

    site.set(
      '/',
      `<html><head>${trackingSnippet({ publicUrl, root: d.domain_root, geroId: d.gero_id })}</head></html>`,
    );
    res = await validate();
    expect(res.status).toBe(422);

    site.set('/cn_sw.min.js', serviceWorkerFile({ publicUrl, geroId: 'G-OUTRO' }));
    expect((await validate()).status).toBe(422);

    site.set('/cn_sw.min.js', serviceWorkerFile({ publicUrl, geroId: d.gero_id }));
    res = await validate();
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Script encontrado e domínio validado com sucesso!');
    expect((await list()).find((x) => x.uuid === d.uuid)?.gero_validate).toBe(true);

    const check = await call(t.app, 'GET', `/api/check-gero-script/${d.uuid}`, undefined, owner.token);
    expect(check.body.data.check).toEqual({ loader: true, service_worker: true, installed: true });

    site.set('/', `<script src="${publicUrl}/t/loader.js"></script> id de outro: G-000000000000`);
    expect((await call(t.app, 'GET', `/api/check-gero-script/${d.uuid}`, undefined, owner.token)).status).toBe(422);
  });

  it('follows a redirect from the page, and answers 422 for an unreachable site', async () => {
    const publicUrl = t.app.ctx.config.publicUrl;
    const d = (await create('Redireciona', `${site.url.replace('127.0.0.1', 'localhost')}/antigo`)).body.data;
    site.set('/antigo', '', { status: 301, location: '/novo' });
    site.set('/novo', trackingSnippet({ publicUrl, root: d.domain_root, geroId: d.gero_id }));
    site.set('/cn_sw.min.js', serviceWorkerFile({ publicUrl, geroId: d.gero_id }));
    expect(
      (await call(t.app, 'POST', '/api/gero/validate', { gero: { domain_uuid: d.uuid } }, owner.token)).status,
    ).toBe(200);

    const gone = (await create('Fora do ar', 'http://127.0.0.1:1')).body.data;
    const res = await call(t.app, 'POST', '/api/gero/validate', { gero: { domain_uuid: gone.uuid } }, owner.token);
    expect(res.status).toBe(422);
  });
});

describe('tag files', () => {
  it('serves the loader, the domain config, versioned files and the per-domain service worker with cache headers', async () => {
    const d = (await create('Tag', 'tag-exemplo.com.br')).body.data;
    const loader = await t.app.inject({ method: 'GET', url: '/t/loader.js' });
    expect(loader.statusCode).toBe(200);
    expect(loader.headers['cache-control']).toBe('no-cache');
    expect(loader.headers['content-type']).toContain('javascript');
    expect(loader.headers['access-control-allow-origin']).toBe('*');

    const config = await t.app.inject({ method: 'GET', url: `/t/config/${d.gero_id}` });
    expect(config.json()).toMatchObject({
      id: d.gero_id,
      root: 'https://tag-exemplo.com.br',
      enabled: true,
      version: '1.7.0',
    });
    expect(config.json().vapid_public).toMatch(/^[\w-]{87}$/);

    const tracker = await t.app.inject({ method: 'GET', url: '/t/gero/1.0.0/gero.min.js' });
    expect(tracker.statusCode).toBe(200);
    expect(tracker.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect((await t.app.inject({ method: 'GET', url: '/t/gero/0.0.1/gero.min.js' })).statusCode).toBe(404);
    expect((await t.app.inject({ method: 'GET', url: '/t/cnsw/1.0.0/sw.js' })).statusCode).toBe(200);

    const sw = await t.app.inject({ method: 'GET', url: `/t/sw.js?id=${d.gero_id}` });
    expect(sw.headers['cache-control']).toBe('no-cache');
    expect(sw.body).toContain(d.gero_id);
    expect(sw.body).toContain('showNotification');
    expect((await t.app.inject({ method: 'GET', url: '/t/sw.js?id=G-NAOEXISTE' })).statusCode).toBe(404);
  });
});
