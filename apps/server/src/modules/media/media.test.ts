import { existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { msg } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { insertDomain, removeDomain } from '../../../test/domain-fixture.ts';
import { call, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let dataDir: string;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;
let domain: Awaited<ReturnType<typeof insertDomain>>;
let strangerDomain: Awaited<ReturnType<typeof insertDomain>>;
const PUBLIC_URL = 'https://painel.impeto.test';

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(os.tmpdir(), 'impeto-media-'));
  t = await createTestApp({ authRateLimit: 1000, dataDir, publicUrl: PUBLIC_URL });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
  domain = await insertDomain(t.app, owner.company.uuid);
  strangerDomain = await insertDomain(t.app, stranger.company.uuid);
});
afterAll(async () => {
  await t.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** A real 1×1 PNG. */
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg==',
  'base64',
);
const JPEG = Buffer.concat([
  Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10]),
  Buffer.from('JFIF\0 corpo jpeg'),
  Buffer.from([0xff, 0xd9]),
]);
const GIF = Buffer.from('GIF89a\x01\x00\x01\x00\x00\x00\x00;', 'latin1');
const WEBP = Buffer.concat([Buffer.from('RIFF'), Buffer.from([0x1a, 0, 0, 0]), Buffer.from('WEBPVP8 corpo webp')]);
const dataUrl = (mime: string, bytes: Buffer) => `data:${mime};base64,${bytes.toString('base64')}`;

const list = (who = owner, domainUuid = domain.uuid) =>
  call(t.app, 'GET', `/api/gallery/list/${domainUuid}/domain`, undefined, who.token);
const upload = (images: unknown, who = owner, domainUuid = domain.uuid) =>
  call(t.app, 'POST', `/api/gallery/upload/${domainUuid}/domain`, { images }, who.token);
const remove = (id: string, who = owner) =>
  call(t.app, 'DELETE', `/api/gallery/remove/${id}/filename`, undefined, who.token);
const fetchFile = (url: string) => t.app.inject({ method: 'GET', url: url.replace(PUBLIC_URL, '') });
const filesOf = (geroId: string) => {
  const dir = path.join(dataDir, 'media', geroId);
  return existsSync(dir) ? readdirSync(dir).sort() : [];
};

describe('media gallery', () => {
  it('a new domain has no media', async () => {
    const res = await list();
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ message: msg.media.listed, data: [] });
  });

  it('uploads images in order and serves the same bytes with the detected type', async () => {
    const res = await upload([
      dataUrl('image/png', PNG),
      { name: 'logo.jpg', data: JPEG.toString('base64') },
      { name: 'anim.gif', data: dataUrl('image/gif', GIF) },
      { name: 'foto.webp', data: dataUrl('application/octet-stream', WEBP) },
    ]);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Mídia(s) salva(s) com sucesso!');
    const items = res.body.data as {
      id: string;
      name: string;
      image: string;
      baseUrl: string;
      bytes: number;
      original_name: string | null;
      content_type: string;
    }[];
    const baseUrl = `${PUBLIC_URL}/media/${domain.geroId}/`;
    expect(items.map((i) => [i.original_name, i.content_type, i.bytes])).toEqual([
      [null, 'image/png', PNG.length],
      ['logo.jpg', 'image/jpeg', JPEG.length],
      ['anim.gif', 'image/gif', GIF.length],
      ['foto.webp', 'image/webp', WEBP.length],
    ]);
    for (const [item, ext] of items.map((i, n) => [i, ['png', 'jpg', 'gif', 'webp'][n]] as const)) {
      expect(item.name).toBe(`${item.id}.${ext}`);
      expect(item.baseUrl).toBe(baseUrl);
      expect(item.image).toBe(`${baseUrl}${item.name}`);
    }
    expect(filesOf(domain.geroId)).toEqual(items.map((i) => i.name).sort());

    for (const [item, bytes] of items.map((i, n) => [i, [PNG, JPEG, GIF, WEBP][n]!] as const)) {
      const file = await fetchFile(item.image);
      expect(file.statusCode).toBe(200);
      expect(file.rawPayload.equals(bytes)).toBe(true);
      expect(file.headers['content-type']).toBe(item.content_type);
      expect(file.headers['x-content-type-options']).toBe('nosniff');
      expect(file.headers['cache-control']).toContain('max-age=31536000');
    }

    const listed = await list();
    expect(listed.body.data).toHaveLength(4);
    for (const entry of listed.body.data) {
      expect(Object.keys(entry).sort()).toEqual(
        ['baseUrl', 'bytes', 'content_type', 'created_at', 'id', 'image', 'name', 'original_name'].sort(),
      );
      expect(entry.image).toBe(`${baseUrl}${entry.name}`);
    }
  });

  it('reads the type from the bytes: a JPEG declared as image/png is stored and served as .jpg', async () => {
    const res = await upload([{ name: 'disfarce.png', data: dataUrl('image/png', JPEG) }]);
    expect(res.status).toBe(200);
    const [item] = res.body.data;
    expect(item.name).toMatch(/\.jpg$/);
    expect(item.content_type).toBe('image/jpeg');
    const file = await fetchFile(item.image);
    expect(file.headers['content-type']).toBe('image/jpeg');
    expect(file.rawPayload.equals(JPEG)).toBe(true);
  });

  it.each([
    [
      'text named .png',
      { name: 'foto.png', data: dataUrl('image/png', Buffer.from('<html><script>alert(1)</script>')) },
      'foto.png',
    ],
    [
      'an SVG in base64',
      {
        name: 'icone.svg',
        data: dataUrl(
          'image/svg+xml',
          Buffer.from('<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        ),
      },
      'icone.svg',
    ],
    ['an SVG as text', { name: 'icone2.svg', data: 'data:image/svg+xml,%3Csvg%3E%3C/svg%3E' }, 'icone2.svg'],
    ['a PDF', { name: 'doc.png', data: Buffer.from('%PDF-1.7 ...').toString('base64') }, 'doc.png'],
    ['empty data', { name: 'vazio.png', data: '' }, 'vazio.png'],
  ])('refuses %s, storing nothing', async (_, image, name) => {
    const before = filesOf(domain.geroId);
    const count = (await list()).body.data.length;
    const res = await upload([dataUrl('image/png', PNG), image]);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe('Ocorreu um erro a salvar sua imagem.');
    expect(res.body.fields).toEqual({ 'images.1': msg.media.notImage(name) });
    expect(filesOf(domain.geroId)).toEqual(before);
    expect((await list()).body.data).toHaveLength(count);
  });

  it('takes up to 5 MB per image and refuses more', async () => {
    const limit = 5 * 1024 * 1024;
    const exact = Buffer.concat([PNG, Buffer.alloc(limit - PNG.length)]);
    const ok = await upload([{ name: 'grande.png', data: exact.toString('base64') }]);
    expect(ok.status).toBe(200);
    expect(ok.body.data[0].bytes).toBe(limit);

    const over = Buffer.concat([PNG, Buffer.alloc(limit + 1 - PNG.length)]);
    const before = filesOf(domain.geroId);
    const res = await upload([{ name: 'enorme.png', data: over.toString('base64') }]);
    expect(res.status).toBe(422);
    expect(res.body.message).toBe(msg.media.uploadFailed);
    expect(res.body.fields).toEqual({ 'images.0': 'A imagem enorme.png excede o limite de 5 MB.' });
    expect(filesOf(domain.geroId)).toEqual(before);
  });

  it('refuses no images, more than 10, a bad item and bad base64', async () => {
    const none = await upload([]);
    expect(none.status).toBe(400);
    expect(none.body.message).toBe(msg.media.noImages);
    const eleven = await upload(Array.from({ length: 11 }, () => dataUrl('image/png', PNG)));
    expect(eleven.status).toBe(400);
    expect(eleven.body.message).toBe(msg.media.tooMany);
    const bad = await upload([42]);
    expect(bad.status).toBe(400);
    const garbage = await upload([{ name: 'x.png', data: 'data:image/png;base64,@@@###' }]);
    expect(garbage.status).toBe(422);
    expect(garbage.body.fields).toEqual({ 'images.0': msg.media.badEncoding('x.png') });
  });

  it('answers 413 in pt_BR above the 64 MB body limit', async () => {
    const res = await t.app.inject({
      method: 'POST',
      url: `/api/gallery/upload/${domain.uuid}/domain`,
      headers: { 'content-type': 'application/json', authorization: `Bearer ${owner.token}` },
      payload: Buffer.alloc(64 * 1024 * 1024 + 16, 0x20),
    });
    expect(res.statusCode).toBe(413);
    expect(res.json()).toEqual({ message: msg.common.bodyTooLarge, code: 'BODY_TOO_LARGE' });
  });

  it("another company's domain or image answers 404 and nothing changes", async () => {
    expect((await list(stranger, domain.uuid)).status).toBe(404);
    expect((await list(owner, 'nao-e-uuid')).status).toBe(404);
    const up = await upload([dataUrl('image/png', PNG)], stranger, domain.uuid);
    expect(up.status).toBe(404);
    expect(filesOf(strangerDomain.geroId)).toEqual([]);

    const mine = (await list()).body.data;
    const target = mine[0];
    const res = await remove(target.id, stranger);
    expect(res.status).toBe(404);
    expect(res.body.message).toBe(msg.media.notFound);
    expect((await list()).body.data).toEqual(mine);
    expect((await fetchFile(target.image)).statusCode).toBe(200);
    expect((await list(stranger, strangerDomain.uuid)).body.data).toEqual([]);
  });

  it('removes the row and the file', async () => {
    const [item] = (await upload([{ name: 'tchau.png', data: dataUrl('image/png', PNG) }])).body.data;
    const res = await remove(item.id);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe('Mídia removida com sucesso!');
    expect((await list()).body.data.map((i: { id: string }) => i.id)).not.toContain(item.id);
    expect(filesOf(domain.geroId)).not.toContain(item.name);
    const gone = await fetchFile(item.image);
    expect(gone.statusCode).toBe(404);
    expect(gone.json()).toEqual({ message: msg.media.notFound, code: 'MEDIA_NOT_FOUND' });
    expect((await remove(item.id)).status).toBe(404);
    expect((await remove('nao-e-uuid')).status).toBe(404);
  });

  it('serves files without a session, and only names it made', async () => {
    const [item] = (await list()).body.data;
    const file = await t.app.inject({ method: 'GET', url: `/media/${domain.geroId}/${item.name}` });
    expect(file.statusCode).toBe(200);
    for (const url of [
      `/media/${domain.geroId}/00000000-0000-4000-8000-000000000000.png`,
      `/media/${domain.geroId}/..%2F..%2Fsecret.key`,
      `/media/..%2F..%2F/${item.name}`,
      `/media/${strangerDomain.geroId}/${item.name}`,
    ]) {
      const res = await t.app.inject({ method: 'GET', url });
      expect(res.statusCode).toBe(404);
      expect(res.json().message).toBe(msg.media.notFound);
    }
  });

  it('a removed domain has no gallery', async () => {
    const gone = await insertDomain(t.app, owner.company.uuid);
    await removeDomain(t.app, gone.uuid);
    expect((await list(owner, gone.uuid)).status).toBe(404);
    expect((await upload([dataUrl('image/png', PNG)], owner, gone.uuid)).status).toBe(404);
  });

  it('needs a session for the API', async () => {
    expect((await call(t.app, 'GET', `/api/gallery/list/${domain.uuid}/domain`)).status).toBe(401);
  });
});
