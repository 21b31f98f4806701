import { msg } from '@impeto/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, companyForm, createTestApp, signUpAndSignIn, type TestApp } from '../../../test/harness.ts';

let t: TestApp;
let owner: Awaited<ReturnType<typeof signUpAndSignIn>>;
let stranger: Awaited<ReturnType<typeof signUpAndSignIn>>;

beforeAll(async () => {
  t = await createTestApp({ authRateLimit: 1000 });
  owner = await signUpAndSignIn(t.app);
  stranger = await signUpAndSignIn(t.app);
});
afterAll(() => t.close());

const form = companyForm;

const get = (who = owner, id = who.company.uuid) => call(t.app, 'GET', `/api/company/list/${id}`, undefined, who.token);
const add = (body: unknown, who = owner, id = who.company.uuid) =>
  call(t.app, 'POST', `/api/company/${id}/step2`, body, who.token);
const edit = (body: unknown, who = owner, id = who.company.uuid) =>
  call(t.app, 'PUT', `/api/company/update/${id}`, body, who.token);

describe('company settings', () => {
  it('lists the company with its form fields null until the form is first saved', async () => {
    const res = await get(stranger);
    expect(res.status).toBe(200);
    expect(res.body.message).toBe(msg.company.listed);
    expect(res.body.data).toEqual({
      uuid: stranger.company.uuid,
      name: stranger.company.name,
      document: { type: 'cnpj', number: null },
      inscricao_municipal: null,
      razao_social: null,
      email: null,
      endereco: null,
      numero: null,
      bairro: null,
      zip_code: null,
      cidade: null,
      uf: null,
      country: null,
      telefone: null,
      dt_birthday: null,
      dt_payment: null,
      type_payment: null,
      credit_card: null,
      notes: null,
    });
  });

  it('adds the form (masked input, digits stored), refuses a second add, then edits it', async () => {
    const added = await add({ company: form() });
    expect(added.status).toBe(200);
    expect(added.body.message).toBe('Dados da empresa salvos com sucesso!');
    expect(added.body.data).toMatchObject({
      uuid: owner.company.uuid,
      document: { type: 'cnpj', number: '11222333000181' },
      zip_code: '01310930',
      telefone: '11987654321',
      dt_birthday: '29/02/2024',
      uf: 'SP',
    });

    const listed = await get();
    expect(listed.body.data).toEqual({ ...added.body.data, name: owner.company.name });
    expect(listed.body.data.razao_social).toBe('Padaria Pão Quente Ltda.');

    const again = await add({ company: form({ razao_social: 'Outra' }) });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(msg.company.alreadySaved);
    expect((await get()).body.data.razao_social).toBe('Padaria Pão Quente Ltda.');

    const edited = await edit({
      company: form({ razao_social: 'Pão Quente S.A.', telefone: '(11) 3333-4444', uf: 'rj', zip_code: '20040020' }),
    });
    expect(edited.status).toBe(200);
    expect(edited.body.message).toBe(msg.company.updated);
    const after = (await get()).body.data;
    expect(after).toMatchObject({
      razao_social: 'Pão Quente S.A.',
      telefone: '1133334444',
      uf: 'RJ',
      zip_code: '20040020',
    });
    expect(after.name).toBe(owner.company.name);
  });

  it('edit mode also saves a company that had no form yet', async () => {
    const who = await signUpAndSignIn(t.app);
    const res = await edit({ company: form({ document: { type: 'cnpj', number: '11222333000181' } }) }, who);
    expect(res.status).toBe(200);
    expect((await get(who)).body.data.document.number).toBe('11222333000181');
  });

  it('every empty field gets its "Preencha …" message', async () => {
    const res = await add({ company: {} }, stranger);
    expect(res.status).toBe(400);
    expect(res.body.fields).toMatchObject({
      'company.document': 'Preencha o CNPJ',
      'company.inscricao_municipal': 'Preencha a inscrição municipal',
      'company.razao_social': 'Preencha a razão social',
      'company.email': 'Preencha o e-mail',
      'company.endereco': 'Preencha o endereço',
      'company.numero': 'Preencha o número',
      'company.bairro': 'Preencha o bairro',
      'company.zip_code': 'Preencha o CEP',
      'company.cidade': 'Preencha a cidade',
      'company.uf': 'Preencha o estado',
      'company.country': 'Preencha o país',
      'company.telefone': 'Preencha o telefone',
      'company.dt_birthday': 'Preencha a data de fundação',
    });
    const blanks = await add(
      {
        company: form({
          document: { type: 'cnpj', number: '  ' },
          razao_social: '   ',
          telefone: '',
          dt_birthday: '',
        }),
      },
      stranger,
    );
    expect(blanks.status).toBe(400);
    expect(blanks.body.fields).toEqual({
      'company.document.number': 'Preencha o CNPJ',
      'company.razao_social': 'Preencha a razão social',
      'company.telefone': 'Preencha o telefone',
      'company.dt_birthday': 'Preencha a data de fundação',
    });
    expect((await add({}, stranger)).status).toBe(400);
    expect((await get(stranger)).body.data.razao_social).toBeNull();
  });

  it.each([
    ['all-equal digits', '11.111.111/1111-11'],
    ['a wrong check digit', '11.222.333/0001-82'],
    ['13 digits', '1122233300018'],
    ['letters', '11.222.333/0001-8A'],
  ])('refuses a CNPJ with %s', async (_, number) => {
    const res = await add({ company: form({ document: { type: 'cnpj', number } }) }, stranger);
    expect(res.status).toBe(400);
    expect(res.body.message).toBe('Insira um CNPJ válido');
    expect(res.body.fields).toEqual({ 'company.document.number': 'Insira um CNPJ válido' });
  });

  it('accepts a CNPJ as bare digits', async () => {
    const who = await signUpAndSignIn(t.app);
    const res = await add({ company: form({ document: { type: 'cnpj', number: '11444777000161' } }) }, who);
    expect(res.status).toBe(200);
    expect(res.body.data.document.number).toBe('11444777000161');
  });

  it.each(['29/02/2023', '31/04/2024', '2024-02-29', '1/2/2024', '00/01/2024', '15/13/2024'])(
    'refuses the foundation date %s',
    async (dt_birthday) => {
      const res = await add({ company: form({ dt_birthday }) }, stranger);
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ 'company.dt_birthday': 'Insira uma data válida' });
    },
  );

  it('accepts 29/02/2024 (a leap day) and 31/12/1999', async () => {
    for (const dt_birthday of ['29/02/2024', '31/12/1999']) {
      const res = await edit({ company: form({ dt_birthday }) });
      expect(res.status).toBe(200);
      expect((await get()).body.data.dt_birthday).toBe(dt_birthday);
    }
  });

  it('keeps only the phone digits and takes 10 or 11 of them', async () => {
    for (const [telefone, digits] of [
      ['(11) 3333-4444', '1133334444'],
      ['(11) 98765-4321', '11987654321'],
      ['1133334444', '1133334444'],
    ]) {
      const res = await edit({ company: form({ telefone }) });
      expect(res.status).toBe(200);
      expect((await get()).body.data.telefone).toBe(digits);
    }
    for (const telefone of ['(11) 3333-444', '(11) 98765-43210', '0133334444', 'telefone']) {
      const res = await edit({ company: form({ telefone }) });
      expect(res.status).toBe(400);
      expect(res.body.fields).toEqual({ 'company.telefone': msg.company.telefoneInvalid });
    }
  });

  it('refuses a bad e-mail, CEP and state, and billing fields other than null', async () => {
    const res = await edit({ company: form({ email: 'financeiro@', zip_code: '01310-93', uf: 'XX', notes: 'oi' }) });
    expect(res.status).toBe(400);
    expect(res.body.fields).toEqual({
      'company.email': 'Insira um email válido',
      'company.zip_code': msg.company.zipInvalid,
      'company.uf': msg.company.ufInvalid,
      'company.notes': msg.company.billingNull,
    });
  });

  it("another company's id answers 404 and changes nothing", async () => {
    const before = (await get()).body.data;
    expect((await get(stranger, owner.company.uuid)).status).toBe(404);
    const added = await add({ company: form({ razao_social: 'Invasor' }) }, stranger, owner.company.uuid);
    expect(added.status).toBe(404);
    expect(added.body.message).toBe(msg.company.notFound);
    expect((await edit({ company: form({ razao_social: 'Invasor' }) }, stranger, owner.company.uuid)).status).toBe(404);
    expect((await get(owner, 'nao-e-um-uuid')).status).toBe(404);
    expect((await get()).body.data).toEqual(before);
    expect((await get(stranger)).body.data.razao_social).toBeNull();
  });

  it('needs a session', async () => {
    expect((await call(t.app, 'GET', `/api/company/list/${owner.company.uuid}`)).status).toBe(401);
    expect((await call(t.app, 'PUT', `/api/company/update/${owner.company.uuid}`, { company: form() })).status).toBe(
      401,
    );
  });
});
